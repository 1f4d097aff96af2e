import type { LeaseStore } from './lease-store.js';
import { RespClient } from './resp-client.js';
import { unavailableOnError } from './unavailable.js';

// Compare-and-act in one step: only the holder renews or deletes its key.
const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** A Redis string per lease, holding its holder, with the lease's time as its TTL. */
export class RedisLeaseStore implements LeaseStore {
  private readonly client: RespClient;

  constructor(url: string, private readonly prefix: string) {
    this.client = new RespClient(new URL(url));
  }

  async acquire(key: string, holder: string, ttlMs: number): Promise<boolean> {
    return (await unavailableOnError(this.client.command('SET', this.prefix + key, holder, 'PX', ttlMs, 'NX'))) === 'OK';
  }

  async renew(key: string, holder: string, ttlMs: number): Promise<boolean> {
    return Number(await unavailableOnError(this.client.command('EVAL', RENEW, 1, this.prefix + key, holder, ttlMs))) === 1;
  }

  async release(key: string, holder: string): Promise<void> {
    await unavailableOnError(this.client.command('EVAL', RELEASE, 1, this.prefix + key, holder));
  }

  async close(): Promise<void> {
    this.client.close();
  }
}
