import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface ConnectionLimits {
  /** Time to receive a request's headers (Node's headersTimeout). */
  headersMs: number;
  /** Time to receive a whole JSON request, body included. */
  requestMs: number;
  /** An upload (multipart) is cut only when no byte arrived for this long. */
  uploadIdleMs: number;
  /** Time an idle keep-alive connection is kept open. */
  keepAliveMs: number;
  /** Open connections one client address may hold; 0: no cap (behind a proxy, which caps instead). */
  perIp: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { headersMs: 10_000, requestMs: 30_000, uploadIdleMs: 20_000, keepAliveMs: 10_000, perIp: 64 };

/**
 * Sockets that send headers and stall, or trickle a body, each hold a file descriptor: 21,000 of
 * them reached the process's file limit and new connections were reset. Headers get Node's
 * headersTimeout; a JSON request must arrive whole within requestMs; an upload, which may take
 * minutes on a slow network, is cut only when it stops making progress (socket bytes read, checked
 * without reading the stream); idle keep-alive connections close after keepAliveMs; and one
 * address holds at most perIp connections (more are closed at once). Node's own requestTimeout is
 * off: it would cut slow uploads that still progress.
 */
export function limitSlowClients(app: FastifyInstance, limits: ConnectionLimits): void {
  // connectionsCheckingInterval is a createServer option that Node reads again at listen().
  const server = app.server as Server & { connectionsCheckingInterval: number };
  server.headersTimeout = limits.headersMs;
  server.requestTimeout = 0;
  server.keepAliveTimeout = limits.keepAliveMs;
  // Node checks headersTimeout only this often (30 s by default); read when the server starts listening.
  server.connectionsCheckingInterval = Math.min(1000, limits.headersMs);

  if (limits.perIp > 0) {
    const open = new Map<string, number>();
    server.on('connection', (socket: Socket) => {
      const ip = socket.remoteAddress ?? '';
      const count = (open.get(ip) ?? 0) + 1;
      if (count > limits.perIp) {
        socket.destroy();
        return;
      }
      open.set(ip, count);
      socket.once('close', () => {
        const left = (open.get(ip) ?? 1) - 1;
        if (left > 0) open.set(ip, left);
        else open.delete(ip);
      });
    });
  }

  // One sweep a second over the bodies still arriving, not a timer per request (ingest's hot path).
  const arriving = new Set<Arriving>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const a of arriving) {
      if (a.raw.complete || a.raw.destroyed || a.socket.destroyed) {
        arriving.delete(a);
        continue;
      }
      if (a.socket.bytesRead !== a.bytes) {
        a.bytes = a.socket.bytesRead;
        a.progressAt = now;
      }
      if (a.upload ? now - a.progressAt > limits.uploadIdleMs : now - a.startedAt > limits.requestMs) {
        arriving.delete(a);
        a.socket.destroy();
      }
    }
  }, Math.min(1000, limits.requestMs, limits.uploadIdleMs));
  sweep.unref();
  app.addHook('onClose', (_app, done) => {
    clearInterval(sweep);
    done();
  });

  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.raw;
    const socket = raw.socket as Socket | undefined;
    if (!raw.complete && socket && typeof socket.bytesRead === 'number' && (raw.headers['content-length'] !== undefined || raw.headers['transfer-encoding'] !== undefined)) {
      const now = Date.now();
      arriving.add({ raw, socket, upload: (raw.headers['content-type'] ?? '').startsWith('multipart/'), startedAt: now, progressAt: now, bytes: socket.bytesRead });
    }
    done();
  });
}

interface Arriving {
  raw: IncomingMessage;
  socket: Socket;
  upload: boolean;
  startedAt: number;
  progressAt: number;
  bytes: number;
}
