import type { Server } from 'node:http';
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

  app.addHook('onRequest', async (request) => {
    const raw = request.raw;
    if (raw.complete || (raw.headers['content-length'] === undefined && raw.headers['transfer-encoding'] === undefined)) return;
    const socket = raw.socket as Socket | undefined;
    if (!socket || typeof socket.bytesRead !== 'number') return;
    const upload = (raw.headers['content-type'] ?? '').startsWith('multipart/');
    const started = Date.now();
    let lastBytes = socket.bytesRead;
    let lastProgress = started;
    const check = Math.min(1000, upload ? limits.uploadIdleMs : limits.requestMs);
    const timer = setInterval(() => {
      if (raw.complete || socket.destroyed) return clearInterval(timer);
      const now = Date.now();
      if (socket.bytesRead !== lastBytes) {
        lastBytes = socket.bytesRead;
        lastProgress = now;
      }
      const late = upload ? now - lastProgress > limits.uploadIdleMs : now - started > limits.requestMs;
      if (late) {
        clearInterval(timer);
        request.log.info({ upload }, 'slow client: request body timed out');
        socket.destroy();
      }
    }, check);
    timer.unref();
    raw.once('end', () => clearInterval(timer));
    raw.once('close', () => clearInterval(timer));
  });
}
