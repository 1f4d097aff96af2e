/// <reference types="vite/client" />

declare module 'virtual:route-table' {
  const table: import('./api/route-table').RouteTable;
  export default table;
}
