import { afterEach, expect, it, vi } from 'vitest';
import { photoHashOf } from './photo-hash';
import { downscalePhoto, PHOTO_QUALITY } from './photos';

afterEach(() => vi.unstubAllGlobals());

/** A stand-in decoder/encoder: happy-dom has no image codecs. Records what was drawn and encoded. */
function fakeCodec(width: number, height: number) {
  const drawn: number[][] = [];
  const encoded: { type?: string; quality?: number }[] = [];
  const close = vi.fn();
  vi.stubGlobal('createImageBitmap', async () => ({ width, height, close }));
  vi.stubGlobal(
    'OffscreenCanvas',
    class {
      constructor(
        public width: number,
        public height: number,
      ) {}
      getContext() {
        return {
          drawImage: (_: unknown, ...box: number[]) => drawn.push(box),
          // A flat grey picture: every cell as bright as its neighbour, so the hash is all zeros.
          getImageData: (_x: number, _y: number, w: number, h: number) => ({ data: new Uint8ClampedArray(w * h * 4).fill(128) }),
        };
      }
      async convertToBlob(options: { type?: string; quality?: number }) {
        encoded.push(options);
        return new Blob([new Uint8Array(10)], { type: options.type });
      }
    },
  );
  return { drawn, encoded, close };
}

const camera = (type = 'image/jpeg') => new Blob([new Uint8Array(5000)], { type });

it('scales the longer edge down to 2000 px as JPEG at quality 0.85', async () => {
  const { drawn, encoded, close } = fakeCodec(4000, 3000);
  const out = await downscalePhoto(camera());
  // Then the same canvas is drawn small for the perceptual hash (issue 18).
  expect(drawn).toEqual([[0, 0, 2000, 1500], [0, 0, 72, 64]]);
  expect(encoded).toEqual([{ type: 'image/jpeg', quality: PHOTO_QUALITY }]);
  expect(await photoHashOf(out)).toBe('0000000000000000');
  expect(out.type).toBe('image/jpeg');
  expect(out.size).toBe(10);
  expect(close).toHaveBeenCalled();
});

it('handles portrait photos and a custom edge', async () => {
  const { drawn } = fakeCodec(1000, 3000);
  await downscalePhoto(camera(), 600);
  expect(drawn[0]).toEqual([0, 0, 200, 600]);
});

it('keeps a photo that is already small enough', async () => {
  const { drawn } = fakeCodec(1600, 1200);
  const original = camera();
  expect(await downscalePhoto(original)).toBe(original);
  expect(drawn).toEqual([]);
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
