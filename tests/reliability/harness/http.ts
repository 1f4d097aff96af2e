import { randomBytes } from 'node:crypto';
import http from 'node:http';

/**
 * How a request ends:
 * - reply: the whole reply was read;
 * - cut: we cut the connection on purpose (the client never learns what happened);
 * - error: the connection failed on its own (refused, reset by a killed server, timeout).
 */
export type Outcome =
  | { kind: 'reply'; status: number; body: any; text: string; headers?: http.IncomingHttpHeaders }
  | { kind: 'cut'; how: CutMode }
  | { kind: 'error'; code: string };

/**
 * body: the socket is destroyed after part of the body was written (the server never sees the end);
 * reply: the whole request was written, the socket is destroyed before the reply is read.
 */
export type CutMode = 'body' | 'reply';

export interface RequestOptions {
  method?: string;
  path: string;
  token?: string;
  body?: Buffer | string | object;
  contentType?: string;
  cut?: CutMode;
  timeoutMs?: number;
}

const agents = new Map<string, http.Agent>();
function agentFor(base: string): http.Agent {
  let agent = agents.get(base);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    agents.set(base, agent);
  }
  return agent;
}

/** Drops the pooled keep-alive sockets (after a server restart they point at a dead process). */
export function resetAgents(): void {
  for (const a of agents.values()) a.destroy();
  agents.clear();
}

export function request(base: string, opts: RequestOptions): Promise<Outcome> {
  const url = new URL(base);
  let payload: Buffer | undefined;
  let contentType = opts.contentType;
  if (opts.body !== undefined) {
    if (Buffer.isBuffer(opts.body)) payload = opts.body;
    else if (typeof opts.body === 'string') payload = Buffer.from(opts.body);
    else {
      payload = Buffer.from(JSON.stringify(opts.body));
      contentType ??= 'application/json';
    }
  }
  const headers: Record<string, string> = {};
  if (payload) {
    headers['content-length'] = String(payload.length);
    if (contentType) headers['content-type'] = contentType;
  }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;

  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const done = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: opts.method ?? (payload ? 'POST' : 'GET'),
      path: opts.path,
      headers,
      // A cut connection gets a socket of its own, so no pooled socket is destroyed under another request.
      agent: opts.cut ? false : agentFor(base),
    });
    const timer = setTimeout(() => {
      req.destroy();
      done({ kind: 'error', code: 'TIMEOUT' });
    }, opts.timeoutMs ?? 60_000);
    req.on('error', (err: NodeJS.ErrnoException) => done(settled ? { kind: 'error', code: 'LATE' } : opts.cut ? { kind: 'cut', how: opts.cut } : { kind: 'error', code: err.code ?? err.message }));
    req.on('response', (res) => {
      if (opts.cut) {
        // The reply arrived before we cut: the client still never reads it.
        res.destroy();
        req.destroy();
        done({ kind: 'cut', how: opts.cut });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err: NodeJS.ErrnoException) => done({ kind: 'error', code: err.code ?? 'RES_ERROR' }));
      res.on('aborted', () => done({ kind: 'error', code: 'RES_ABORTED' }));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any = text;
        if ((res.headers['content-type'] ?? '').includes('json')) {
          try {
            body = JSON.parse(text);
          } catch {
            body = text;
          }
        }
        done({ kind: 'reply', status: res.statusCode ?? 0, body, text, headers: res.headers });
      });
    });

    if (opts.cut === 'body' && payload && payload.length > 1) {
      const at = 1 + Math.floor(Math.random() * (payload.length - 1));
      req.write(payload.subarray(0, at), () => {
        setTimeout(() => {
          req.destroy();
          done({ kind: 'cut', how: 'body' });
        }, Math.random() * 5);
      });
      return;
    }
    if (opts.cut) {
      // Whole request written; cut before (or while) the server answers.
      req.on('finish', () => {
        setTimeout(() => {
          req.destroy();
          done({ kind: 'cut', how: opts.cut! });
        }, Math.random() * 3);
      });
    }
    req.end(payload);
  });
}

export function isReply(o: Outcome, status?: number): o is Extract<Outcome, { kind: 'reply' }> {
  return o.kind === 'reply' && (status === undefined || o.status === status);
}

/** A plain JSON call that must succeed. */
export async function call<T = any>(base: string, opts: RequestOptions): Promise<T> {
  const o = await request(base, opts);
  if (o.kind !== 'reply' || o.status >= 300) {
    throw new Error(`${opts.method ?? (opts.body === undefined ? 'GET' : 'POST')} ${opts.path}: ${o.kind === 'reply' ? `${o.status} ${o.text.slice(0, 300)}` : `${o.kind} ${'code' in o ? o.code : ''}`}`);
  }
  return o.body as T;
}

export async function login(base: string, email: string, password: string): Promise<string> {
  return (await call<{ token: string }>(base, { path: '/api/v1/user/login', body: { email, password } })).token;
}

/** multipart/form-data with text fields first, then one file part. */
export function multipart(fields: Record<string, string>, file: { name: string; filename: string; type: string; data: Buffer }): { body: Buffer; contentType: string } {
  const boundary = `----sbrel${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.data);
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Counts outcomes by kind and status, for the figures. */
export class Tally {
  readonly counts = new Map<string, number>();
  readonly samples = new Map<string, string>();

  add(o: Outcome): void {
    const key = o.kind === 'reply' ? String(o.status) : o.kind === 'cut' ? `cut-${o.how}` : `error-${o.code}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (o.kind === 'reply' && o.status >= 300 && !this.samples.has(key)) this.samples.set(key, o.text.slice(0, 200));
  }

  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  /** Replies with a status in [lo, hi]. */
  range(lo: number, hi: number): number {
    let n = 0;
    for (const [k, v] of this.counts) if (/^\d+$/.test(k) && Number(k) >= lo && Number(k) <= hi) n += v;
    return n;
  }

  total(): number {
    let n = 0;
    for (const v of this.counts.values()) n += v;
    return n;
  }

  toString(): string {
    return [...this.counts.entries()].sort().map(([k, v]) => `${k}=${v}`).join(' ');
  }
}
