/** Helpers for the read benchmarks (search, deep pages, dashboard). */
import { median, percentile } from './lib.js';

export interface Timings {
  /** Client time over loopback (keep-alive), body read included. */
  client: number[];
  /** The reply's `server-timing: app;dur=` (routing to serialized reply); empty when a route sends none. */
  server: number[];
}

/** GETs `url` `n` times one after another; durations in ms. */
export async function sampleGet(url: string, token: string, n: number): Promise<Timings> {
  const out: Timings = { client: [], server: [] };
  const headers = { authorization: `Bearer ${token}` };
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetchAgain(url, { headers });
    const body = await res.arrayBuffer();
    out.client.push(performance.now() - t);
    const dur = /app;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1];
    if (dur !== undefined) out.server.push(Number(dur));
    if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${Buffer.from(body).toString()}`);
  }
  return out;
}

/**
 * fetch, tried once more when the server had closed the kept-alive socket: on a loaded machine the
 * in-process baseline between two samples can outlast the server's keep-alive timeout.
 */
export async function fetchAgain(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw err;
    return fetch(url, init);
  }
}

/** Times a synchronous or async function `n` times; durations in ms. */
export async function sampleFn(n: number, fn: () => unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** Rounds of samples -> the median over rounds of each round's p95 (and of its median). */
export function summarize(rounds: number[][]): { p95: number; p50: number } {
  return { p95: median(rounds.map((r) => percentile(r, 95))), p50: median(rounds.map((r) => median(r))) };
}

export const ms = (v: number) => `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ms`;
