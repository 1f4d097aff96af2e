import type { CounterStore } from './counter-store.js';
import { RespClient } from './resp-client.js';
import { unavailableOnError } from './unavailable.js';

/**
 * Each key a Redis string with the window as its TTL: SET NX PX starts a window, INCR counts in it
 * (INCR keeps the TTL), both in one round trip. Keys expire by themselves.
 */
export class RedisCounterStore implements CounterStore {
  private readonly client: RespClient;

  constructor(url: string, private readonly prefix = 'sb:counter:') {
    this.client = new RespClient(new URL(url));
  }

  async hit(keys: readonly string[], windowMs: number): Promise<number[]> {
    const commands = keys.flatMap((k) => [['SET', this.prefix + k, 0, 'PX', windowMs, 'NX'], ['INCR', this.prefix + k]]);
    const replies = await unavailableOnError(this.client.pipeline(commands));
    return keys.map((_, i) => Number(replies[i * 2 + 1]));
  }

  async peek(keys: readonly string[]): Promise<number[]> {
    if (keys.length === 0) return [];
    const reply = (await unavailableOnError(this.client.command('MGET', ...keys.map((k) => this.prefix + k)))) as (string | null)[];
    return reply.map((v) => (v === null ? 0 : Number(v)));
  }

  async reset(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await unavailableOnError(this.client.command('DEL', ...keys.map((k) => this.prefix + k)));
  }

  async close(): Promise<void> {
    this.client.close();
  }
}
