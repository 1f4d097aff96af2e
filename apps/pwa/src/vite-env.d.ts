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
