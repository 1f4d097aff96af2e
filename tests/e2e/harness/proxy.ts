import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny HTTP proxy in front of the test server, so a test can make the server misbehave for the
 * page and its service worker alike (page.route does not see the worker's requests).
 * `intercept` sees each buffered request; it may answer itself, change the body, or pass (undefined).
 */
export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Interception = { status: number; headers?: Record<string, string>; body?: string } | { body: Buffer } | undefined;

export interface Proxy {
  baseUrl: string;
  intercept: (req: ProxiedRequest) => Interception;
  /** Every request path seen, in order. */
  seen: string[];
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<Proxy> {
  const upstream = new URL(target);
  const proxy: Proxy = { baseUrl: '', intercept: () => undefined, seen: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Buffer = Buffer.concat(chunks);
      const path = req.url ?? '/';
      proxy.seen.push(`${req.method} ${path}`);
      const decision = proxy.intercept({ method: req.method ?? 'GET', path, headers: req.headers, body });
      if (decision && 'status' in decision) {
        res.writeHead(decision.status, { 'content-type': 'application/json', ...decision.headers });
        res.end(decision.body ?? '');
        return;
      }
      if (decision) body = decision.body;
      const headers = { ...req.headers, host: upstream.host, 'content-length': String(body.length) };
      const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      out.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return proxy;
}
