/**
 * The phone's side of the link in the slow-link benchmark (slow-link.ts): a streaming HTTP proxy in
 * front of the API that counts what crossed it, as it crossed it. The harness proxy
 * (tests/e2e/harness/proxy.ts) buffers whole requests, which would hide where a photo's body was
 * when the link dropped. This one forwards each chunk as it arrives, and:
 *   - counts every request's body bytes (what left the phone: Chromium throttles before the socket);
 *   - follows each tus upload (its size from the creation, its bytes over every PATCH, its end);
 *   - answers POST BASELINE_PATH itself once the body is in: the bare endpoint of the baseline;
 *   - when the phone drops a request half way, passes on what it got, then closes the request to
 *     the API, as a real cut would reach it.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { routes } from '@survey-bird/contracts';

export const BASELINE_PATH = '/__bench/upload';

export interface LinkRequest {
  method: string;
  path: string;
  start: number;
  /** When the reply's last byte left for the phone; undefined while in flight or when it never did. */
  end?: number;
  bodyBytes: number;
  status?: number;
  /** The phone went away before the whole body arrived. */
  cut: boolean;
  /** A tus PATCH: its Upload-Offset. */
  offset?: number;
}

export interface TusUpload {
  size: number;
  /** Body bytes of every PATCH of this upload that reached the proxy. */
  sent: number;
  /** When the PATCH that stored the photo was answered. */
  finishedAt?: number;
}

export interface LinkProxy {
  baseUrl: string;
  requests: LinkRequest[];
  uploads: Map<string, TusUpload>;
  /** Photos sent whole (POST /files/image, the service worker's way) that the server took. */
  wholePhotos: number;
  /** Called as a PATCH's body arrives: the bytes of the photo the server will hold so far. */
  onPatchProgress?: (uploadId: string, received: number, size: number) => void;
  /** Requests in flight. */
  open(): number;
  /**
   * The link is down: the phone's connections of the requests in flight break, and new ones are
   * refused until it is up again. Chromium's offline emulation alone is not a dead link: a body in
   * flight goes on, and Chromium resends a request whose reused connection broke before the reply.
   */
  down: boolean;
  /** Forgets what was counted (between scenarios). */
  reset(): void;
  /** Until no request has been in flight for `quietMs`. */
  idle(quietMs: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const TUS = routes.resumableCreate.path;

export async function startLinkProxy(target: string): Promise<LinkProxy> {
  const upstream = new URL(target);
  let inFlight = 0;
  let lastActivity = Date.now();
  const phoneSockets = new Set<Socket>();
  let isDown = false;
  const proxy: LinkProxy = {
    baseUrl: '',
    requests: [],
    uploads: new Map(),
    wholePhotos: 0,
    open: () => inFlight,
    get down() {
      return isDown;
    },
    set down(value: boolean) {
      isDown = value;
      if (value) for (const socket of phoneSockets) socket.destroy();
    },
    reset() {
      proxy.requests = [];
      proxy.uploads = new Map();
      proxy.wholePhotos = 0;
    },
    async idle(quietMs, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (inFlight > 0 || Date.now() - lastActivity < quietMs) {
        if (Date.now() > deadline) throw new Error(`the link did not go quiet within ${timeoutMs} ms (${inFlight} in flight)`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: async () => undefined,
  };

  const server: Server = createServer((req, res) => {
    if (isDown) {
      req.socket.destroy();
      return;
    }
    const path = req.url ?? '/';
    const rec: LinkRequest = { method: req.method ?? 'GET', path, start: Date.now(), bodyBytes: 0, cut: false };
    proxy.requests.push(rec);
    inFlight++;
    lastActivity = Date.now();
    let done = false;
    phoneSockets.add(req.socket);
    const finish = () => {
      if (done) return;
      done = true;
      inFlight--;
      lastActivity = Date.now();
      phoneSockets.delete(req.socket);
    };
    res.on('close', finish);

    if (req.method === 'POST' && path === BASELINE_PATH) {
      req.on('data', (chunk: Buffer) => {
        rec.bodyBytes += chunk.length;
      });
      req.on('end', () => {
        rec.status = 204;
        res.writeHead(204, { 'cache-control': 'no-store' });
        res.end(() => (rec.end = Date.now()));
      });
      return;
    }

    const uploadId = req.method === 'PATCH' && path.startsWith(`${TUS}/`) ? path.slice(TUS.length + 1) : undefined;
    const upload = uploadId === undefined ? undefined : proxy.uploads.get(uploadId);
    if (uploadId !== undefined) rec.offset = Number(req.headers['upload-offset'] ?? 0);

    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host } }, (up) => {
      rec.status = up.statusCode;
      if (req.method === 'POST' && path === TUS && up.statusCode === 201 && typeof up.headers.location === 'string') {
        proxy.uploads.set(up.headers.location.split('/').pop()!, { size: Number(req.headers['upload-length']), sent: 0 });
      }
      if (upload && (up.statusCode === 204 || up.statusCode === 200) && up.headers['photo-reference']) upload.finishedAt = Date.now();
      if (req.method === 'POST' && path === routes.uploadImage.path && up.statusCode === 200) proxy.wholePhotos++;
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
      up.on('end', () => (rec.end = Date.now()));
    });
    out.on('error', () => res.destroy());

    // Each chunk goes on as it came; `flushed` settles once the last one is on the API's socket.
    let flushed: Promise<void> = Promise.resolve();
    req.on('data', (chunk: Buffer) => {
      rec.bodyBytes += chunk.length;
      lastActivity = Date.now();
      flushed = new Promise((resolve) => out.write(chunk, () => resolve()));
      if (upload && uploadId !== undefined) {
        upload.sent += chunk.length;
        proxy.onPatchProgress?.(uploadId, (rec.offset ?? 0) + rec.bodyBytes, upload.size);
      }
    });
    req.on('end', () => out.end());
    req.on('close', () => {
      if (req.complete) return;
      // The phone dropped the request: the API gets what came through, then the connection closes.
      rec.cut = true;
      void flushed.then(() => out.destroy());
    });
  });
  // A 2G upload of the full run's photos takes 20 minutes: past Node's 5-minute request timeout (a 408).
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return proxy;
}
