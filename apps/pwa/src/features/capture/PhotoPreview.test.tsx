import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, it } from 'vitest';
import { PhotoPreview } from './PhotoPreview';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let host: HTMLElement;
afterEach(() => host?.remove());

async function render(kind?: 'photo' | 'signature') {
  host = document.createElement('div');
  document.body.append(host);
  await act(async () => createRoot(host).render(createElement(PhotoPreview, { photo: new Blob(['x'], { type: 'image/png' }), label: 'Sign here', onRemove: () => undefined, kind })));
  return host;
}

it('a kept signature says Remove signature and is shown on white (its ink is dark on a transparent PNG)', async () => {
  const el = await render('signature');
  expect(el.querySelector('button')?.textContent).toBe('Remove signature');
  expect(el.querySelector('.photo__img')?.classList.contains('photo__img--signature')).toBe(true);
});

it('a kept photo still says Remove photo', async () => {
  const el = await render();
  expect(el.querySelector('button')?.textContent).toBe('Remove photo');
});
