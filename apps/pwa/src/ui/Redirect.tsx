import { useEffect } from 'react';
import { navigateTo } from '../lib/navigate';

/** Replaces the current entry with `to` after render (paths may carry a query string). */
export function Redirect({ to }: { to: string }) {
  useEffect(() => navigateTo(to, true), [to]);
  return null;
}
