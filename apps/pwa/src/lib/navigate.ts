/**
 * Navigation for code outside React (the API client's failure handling). main.tsx binds it to the
 * router; until then it falls back to a full page load.
 */
let go: (href: string, replace?: boolean) => void = (href) => window.location.assign(href);

export function bindNavigation(fn: (href: string, replace?: boolean) => void): void {
  go = fn;
}

export function navigateTo(href: string, replace = false): void {
  go(href, replace);
}

export function currentPath(): string {
  return window.location.pathname + window.location.search;
}

export function loginHref(email?: string, redirect?: string): string {
  const search = new URLSearchParams();
  if (email) search.set('email', email);
  if (redirect && redirect !== '/') search.set('redirect', redirect);
  const qs = search.toString();
  return qs ? `/login?${qs}` : '/login';
}
