import { connect, type Socket } from 'node:net';

type Reply = string | number | null | Reply[];
interface Pending { resolve: (value: Reply) => void; reject: (err: Error) => void }

/**
 * A minimal Redis client (RESP2 over one TCP connection, pipelined): the counters need four
 * commands, not a dependency. Connects on first use and again after a dropped connection; a
 * command sent while the connection is down fails at once instead of queueing.
 */
export class RespClient {
  private socket: Socket | undefined;
  private ready: Promise<void> | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly pending: Pending[] = [];

  constructor(private readonly url: URL, private readonly timeoutMs = 2000) {}

  async command(...args: (string | number)[]): Promise<Reply> {
    await this.connection();
    return this.send(args);
  }

  /** Several commands written at once; their replies in order. */
  async pipeline(commands: (string | number)[][]): Promise<Reply[]> {
    await this.connection();
    return Promise.all(commands.map((c) => this.send(c)));
  }

  close(): void {
    this.socket?.end();
    this.socket = undefined;
    this.ready = undefined;
  }

  private send(args: (string | number)[]): Promise<Reply> {
    const socket = this.socket;
    if (!socket) return Promise.reject(new Error('redis connection closed'));
    const parts = [`*${args.length}\r\n`];
    for (const a of args) parts.push(`$${Buffer.byteLength(String(a))}\r\n${a}\r\n`);
    return new Promise<Reply>((resolve, reject) => {
      this.pending.push({ resolve, reject });
      socket.write(parts.join(''));
    });
  }

  private connection(): Promise<void> {
    this.ready ??= new Promise<void>((resolve, reject) => {
      const socket = connect({ host: this.url.hostname, port: Number(this.url.port || 6379) });
      socket.setNoDelay(true);
      socket.setTimeout(this.timeoutMs);
      const fail = (err: Error) => {
        this.socket = undefined;
        this.ready = undefined;
        for (const p of this.pending.splice(0)) p.reject(err);
        socket.destroy();
        reject(err);
      };
      socket.on('timeout', () => {
        if (this.pending.length > 0) fail(new Error('redis timed out'));
      });
      socket.on('error', fail);
      socket.on('close', () => fail(new Error('redis connection closed')));
      socket.on('data', (chunk) => this.receive(chunk));
      socket.on('connect', () => {
        this.socket = socket;
        this.buffer = Buffer.alloc(0);
        const setup: (string | number)[][] = [];
        if (this.url.password) setup.push(this.url.username ? ['AUTH', decodeURIComponent(this.url.username), decodeURIComponent(this.url.password)] : ['AUTH', decodeURIComponent(this.url.password)]);
        const db = this.url.pathname.slice(1);
        if (db) setup.push(['SELECT', db]);
        Promise.all(setup.map((c) => this.send(c))).then(() => resolve(), fail);
      });
    });
    return this.ready;
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const parsed = parse(this.buffer, 0);
      if (!parsed) return;
      this.buffer = this.buffer.subarray(parsed.end);
      const waiter = this.pending.shift();
      if (parsed.value instanceof Error) waiter?.reject(parsed.value);
      else waiter?.resolve(parsed.value);
    }
  }
}

/** One RESP2 value from `at`, or null when the buffer does not hold all of it yet. */
function parse(b: Buffer, at: number): { value: Reply | Error; end: number } | null {
  const lineEnd = b.indexOf('\r\n', at);
  if (lineEnd < 0) return null;
  const line = b.toString('utf8', at + 1, lineEnd);
  const next = lineEnd + 2;
  switch (b[at]) {
    case 0x2b: return { value: line, end: next }; // +
    case 0x2d: return { value: new Error(line), end: next }; // -
    case 0x3a: return { value: Number(line), end: next }; // :
    case 0x24: { // $
      const length = Number(line);
      if (length < 0) return { value: null, end: next };
      if (b.length < next + length + 2) return null;
      return { value: b.toString('utf8', next, next + length), end: next + length + 2 };
    }
    case 0x2a: { // *
      const count = Number(line);
      if (count < 0) return { value: null, end: next };
      const items: Reply[] = [];
      let end = next;
      for (let i = 0; i < count; i++) {
        const item = parse(b, end);
        if (!item) return null;
        if (item.value instanceof Error) return { value: item.value, end: item.end };
        items.push(item.value);
        end = item.end;
      }
      return { value: items, end };
    }
    default: return { value: new Error('unreadable redis reply'), end: b.length };
  }
}
