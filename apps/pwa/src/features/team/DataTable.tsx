import type { ReactNode } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T, index: number) => ReactNode;
  /** 'num' right-aligns amounts; 'wrap' lets long text wrap. */
  className?: string;
}

interface DataTableProps<T> {
  label: string;
  columns: Column<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  loading: boolean;
  empty: ReactNode;
  skeletonRows?: number;
}

/**
 * A list table that stays usable on a phone: it scrolls sideways inside its frame while the S/N and
 * the second column (the name) stay pinned. Skeleton rows stand in while a page loads.
 */
export function DataTable<T>({ label, columns, rows, rowKey, loading, empty, skeletonRows = 6 }: DataTableProps<T>) {
  const showEmpty = !loading && (rows?.length ?? 0) === 0;
  return (
    <div className="dt-frame" role="region" aria-label={label} tabIndex={0}>
      <table className="dt" aria-busy={loading}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.className}>{c.header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {loading
            ? Array.from({ length: skeletonRows }, (_, i) => (
                <tr key={`skeleton-${i}`} className="dt__skeleton" aria-hidden="true">
                  {columns.map((c) => (
                    <td key={c.header} className={c.className}><span className="skeleton-bar" /></td>
                  ))}
                </tr>
              ))
            : rows?.map((row, i) => (
                <tr key={rowKey(row)}>
                  {columns.map((c) => (
                    <td key={c.header} className={c.className}>{c.cell(row, i)}</td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
      {showEmpty && <div className="dt__empty">{empty}</div>}
    </div>
  );
}

/** An e-mail that may break before its '@' when its column wraps. */
export function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at <= 0) return <>{email}</>;
  return <>{email.slice(0, at)}<wbr />{email.slice(at)}</>;
}
