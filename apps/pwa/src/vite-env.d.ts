/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SUPPORT_EMAIL?: string;
  readonly VITE_SALES_EMAIL?: string;
}

declare module 'virtual:route-table' {
  const table: import('./api/slim-routes').RouteTable;
  export default table;
}

/** The app's version and build date (vite.config.ts), reported to the office at each sync. */
declare const __APP_VERSION__: string;

/** A gettext catalog, compiled for @lingui/core at build time (i18n/po-plugin.ts). */
declare module '*.po?part=core' {
  export const messages: import('@lingui/core').Messages;
}
declare module '*.po?part=form' {
  export const messages: import('@lingui/core').Messages;
}
declare module '*.po?part=inputs' {
  export const messages: import('@lingui/core').Messages;
}
declare module '*.po?part=responses' {
  export const messages: import('@lingui/core').Messages;
}
declare module '*.po?part=earnings' {
  export const messages: import('@lingui/core').Messages;
}
declare module '*.po?part=bank' {
  export const messages: import('@lingui/core').Messages;
}
declare module '*.po?part=backchecks' {
  export const messages: import('@lingui/core').Messages;
}
declare module '*.po?part=map' {
  export const messages: import('@lingui/core').Messages;
}
declare module '*.po?part=settings' {
  export const messages: import('@lingui/core').Messages;
}
declare module '*.po?part=auth' {
  export const messages: import('@lingui/core').Messages;
}
declare module '*.po?part=office' {
  export const messages: import('@lingui/core').Messages;
}
declare module '*.po?part=server' {
  export const messages: import('@lingui/core').Messages;
}
declare module '*.po' {
  export const messages: import('@lingui/core').Messages;
}
