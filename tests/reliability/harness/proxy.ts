import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small round-robin HTTP load balancer on loopback, in the role nginx or Caddy plays in
 * docs/deploy.md: each request goes to the next upstream; one that refuses the connection (stopped,
 * restarting) is skipped and the request goes to the next, as `proxy_next_upstream error` does. The
 * request body is read whole first, so it can be sent again. Any other upstream failure is a 502
 * `{ msg }` (the phone retries it). New upstream connection per request: nothing pooled goes stale.
 */
export class RoundRobinProxy {
  private next = 0;
  readonly served = new Map<string, number>();
  /** Every request passed on, in order: when its reply ended, where it went. */
  readonly log: { method: string; path: string; upstream: string; at: number }[] = [];
  /** Awaited before a request is passed on: a test may hold requests or act on one (restart an upstream). */
  beforeForward: (method: string, path: string) => Promise<void> | void = () => undefined;
  private server: http.Server | undefined;
  port = 0;

  constructor(readonly upstreams: string[]) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    await this.beforeForward(req.method ?? 'GET', req.url ?? '/');
    for (let tries = 0; tries < this.upstreams.length * 3; tries++) {
      const upstream = this.upstreams[this.next++ % this.upstreams.length]!;
      const outcome = await this.forward(upstream, req, body, res);
      if (outcome === 'done') {
        this.served.set(upstream, (this.served.get(upstream) ?? 0) + 1);
        this.log.push({ method: req.method ?? 'GET', path: req.url ?? '/', upstream, at: performance.now() });
        return;
      }
      if (outcome === 'failed') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ msg: 'Bad gateway' }));
    else res.destroy();
  }

  /** done: the reply was passed on; refused: try another upstream; failed: after the request was sent. */
  private forward(upstream: string, req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): Promise<'done' | 'refused' | 'failed'> {
    const url = new URL(upstream);
    return new Promise((resolve) => {
      const headers = { ...req.headers, host: url.host, 'x-forwarded-for': req.socket.remoteAddress ?? '', connection: 'close' };
      delete headers['transfer-encoding'];
      headers['content-length'] = String(body.length);
      const up = http.request({ host: url.hostname, port: url.port, method: req.method, path: req.url, headers, agent: false }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
        upRes.on('end', () => resolve('done'));
        upRes.on('error', () => {
          res.destroy();
          resolve('failed');
        });
      });
      up.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'refused' : 'failed'));
      up.end(body);
    });
  }
}
