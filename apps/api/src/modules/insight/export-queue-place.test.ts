import { describe, expect, it } from 'vitest';
import { ExportQueue } from './export-queue.js';

describe("an export's place in the queue (GET /export/queue)", () => {
  const never = () => undefined;

  it('says running, then the waiting users their place in line, and none once done', async () => {
    const queue = new ExportQueue({ concurrency: 1, queue: 5 });
    const releaseA = await queue.acquire('a', never);
    const b = queue.acquire('b', never);
    const c = queue.acquire('c', never);
    expect(queue.placeOf('a')).toEqual({ state: 'running', position: null, waiting: 2 });
    expect(queue.placeOf('b')).toEqual({ state: 'waiting', position: 1, waiting: 2 });
    expect(queue.placeOf('c')).toEqual({ state: 'waiting', position: 2, waiting: 2 });
    expect(queue.placeOf('d')).toEqual({ state: 'none', position: null, waiting: 2 });

    releaseA();
    const releaseB = await b;
    expect(queue.placeOf('a').state).toBe('none');
    expect(queue.placeOf('b').state).toBe('running');
    expect(queue.placeOf('c')).toEqual({ state: 'waiting', position: 1, waiting: 1 });
    releaseB();
    (await c)();
    expect(queue.placeOf('c')).toEqual({ state: 'none', position: null, waiting: 0 });
  });

  it('moves a waiting user up when someone ahead hangs up', async () => {
    const queue = new ExportQueue({ concurrency: 1, queue: 5 });
    await queue.acquire('a', never);
    let hangUp: () => void = () => undefined;
    const b = queue.acquire('b', (listener) => (hangUp = listener));
    void queue.acquire('c', never);
    hangUp();
    await expect(b).rejects.toThrow();
    expect(queue.placeOf('b').state).toBe('none');
    expect(queue.placeOf('c')).toEqual({ state: 'waiting', position: 1, waiting: 1 });
  });
});
