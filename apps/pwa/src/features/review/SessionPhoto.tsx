import { IMAGE_PATH } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { activeAccount } from '../../session/account-storage';

/**
 * The stored file at `href` (absolute), with the session: the route is public for signed links, so
 * the client adds no token by itself. A failure is shown as the client shows any, unless `quiet`.
 */
export const fetchSessionFile = (href: string, quiet = false): Promise<Blob> =>
  api.call('getImage', { params: { id: decodeURIComponent(new URL(href).pathname.slice(IMAGE_PATH.length)) }, token: activeAccount()?.token, handleErrors: !quiet });

/**
 * The address to show a file that needs the session (a bare `/api/v1/files/image/:id` answers
 * 410 without one). Once the service worker controls the page it adds the token to the <img>'s
 * own request (and keeps the photo for offline); before that, on the first visit right after
 * signing in or in a browser without workers, the page fetches the bytes with the token itself
 * and shows them from memory.
 */
export function useSessionFileUrl(href: string): string | undefined {
  const controlled = typeof navigator !== 'undefined' && Boolean(navigator.serviceWorker?.controller);
  const [url, setUrl] = useState<string | undefined>(controlled ? href : undefined);
  useEffect(() => {
    if (controlled) {
      setUrl(href);
      return;
    }
    let live = true;
    let objectUrl: string | undefined;
    fetchSessionFile(href, true)
      .then((blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      // Left to the <img> itself: it shows the browser's broken-image mark and its alt text.
      .catch(() => live && setUrl(href));
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [href, controlled]);
  return url;
}

/** A photo in the office's screens: a thumbnail that opens the full photo. */
export function SessionPhoto({ href, alt, className = 'response-detail__photo' }: { href: string; alt: string; className?: string }) {
  const url = useSessionFileUrl(href);
  return (
    <a href={url ?? href} target="_blank" rel="noopener noreferrer">
      {url ? <img className={className} src={url} alt={alt} loading="lazy" /> : <span className={`${className} response-detail__photo--loading`} role="img" aria-label={alt} />}
    </a>
  );
}
