import { PhotoEncoding, type PhotoQuality } from '@survey-bird/contracts';
import { afterEach, expect, it, vi } from 'vitest';
import { fakeCodec } from '../../test/image-codec';
import { photoHashOf } from './photo-hash';
import { downscalePhoto } from './photos';

afterEach(() => vi.unstubAllGlobals());

const camera = (type = 'image/jpeg') => new Blob([new Uint8Array(5000)], { type });

it('standard (the default) scales the longer edge down to 1600 px as JPEG at quality 0.8', async () => {
  expect(PhotoEncoding.standard).toEqual({ maxEdge: 1600, jpeg: 0.8 });
  const { drawn, encoded, close } = fakeCodec(4000, 3000);
  const out = await downscalePhoto(camera());
  // Then the same canvas is drawn small for the perceptual hash.
  expect(drawn).toEqual([[0, 0, 1600, 1200], [0, 0, 72, 64]]);
  expect(encoded).toEqual([{ type: 'image/jpeg', quality: 0.8 }]);
  expect(await photoHashOf(out)).toBe('0000000000000000');
  expect(out.type).toBe('image/jpeg');
  expect(out.size).toBe(10);
  expect(close).toHaveBeenCalled();
});

it('high scales to 2000 px at quality 0.85', async () => {
  expect(PhotoEncoding.high).toEqual({ maxEdge: 2000, jpeg: 0.85 });
  const { drawn, encoded } = fakeCodec(4000, 3000);
  await downscalePhoto(camera(), 'high');
  expect(drawn[0]).toEqual([0, 0, 2000, 1500]);
  expect(encoded).toEqual([{ type: 'image/jpeg', quality: 0.85 }]);
});

it('a setting this version does not know is standard', async () => {
  const { drawn, encoded } = fakeCodec(4000, 3000);
  await downscalePhoto(camera(), 'ultra' as PhotoQuality);
  expect(drawn[0]).toEqual([0, 0, 1600, 1200]);
  expect(encoded).toEqual([{ type: 'image/jpeg', quality: 0.8 }]);
});

it('handles portrait photos', async () => {
  const { drawn } = fakeCodec(1000, 3000);
  await downscalePhoto(camera(), 'standard');
  expect(drawn[0]).toEqual([0, 0, 533, 1600]);
});

it('keeps a photo that is already small enough for its setting', async () => {
  const { drawn } = fakeCodec(1600, 1200);
  const original = camera();
  expect(await downscalePhoto(original)).toBe(original);
  expect(drawn).toEqual([]);
  vi.unstubAllGlobals();
  // 2000 px is small enough for high, not for standard.
  const big = fakeCodec(2000, 1500);
  expect(await downscalePhoto(original, 'high')).toBe(original);
  expect(await downscalePhoto(original, 'standard')).not.toBe(original);
  expect(big.drawn[0]).toEqual([0, 0, 1600, 1200]);
});

it('re-encodes a small photo in a type the server does not take', async () => {
  const { encoded } = fakeCodec(800, 600);
  expect((await downscalePhoto(camera('image/heic'))).type).toBe('image/jpeg');
  expect(encoded).toHaveLength(1);
});

it('returns the original when the browser cannot decode it', async () => {
  vi.stubGlobal('createImageBitmap', async () => {
    throw new DOMException('bad image', 'InvalidStateError');
  });
  const original = camera();
  expect(await downscalePhoto(original)).toBe(original);
});
