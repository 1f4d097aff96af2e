import { vi } from 'vitest';

/**
 * A stand-in decoder/encoder for tests of the photo code: happy-dom has no image codecs. Every
 * picture decodes as `width` x `height`; records what was drawn and how it was encoded. Undo with
 * `vi.unstubAllGlobals()`.
 */
export function fakeCodec(width: number, height: number) {
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
