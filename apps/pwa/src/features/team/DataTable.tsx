import type { ReactNode } from 'react';
import { ScrollFrame } from '../../ui/ScrollFrame';

export interface Column<T> {
  header: string;
  cell: (row: T, index: number) => ReactNode;
  /** 'num' right-aligns amounts; 'wrap' lets long text wrap. */
  className?: string;
  /** The cell's full text, as a tooltip where the cell is cut short. */
  text?: (row: T) => string;
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
 * A list table that stays usable on a phone: it scrolls sideways inside its frame (a shadow shows
 * which side has more) while the S/N and the second column (the name) stay pinned. Skeleton rows
 * stand in while a page loads.
 */
export function DataTable<T>({ label, columns, rows, rowKey, loading, empty, skeletonRows = 6 }: DataTableProps<T>) {
  const showEmpty = !loading && (rows?.length ?? 0) === 0;
  return (
    <ScrollFrame className="dt-frame" label={label}>
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
                    <td key={c.header} className={c.className} title={c.text?.(row)}>{c.cell(row, i)}</td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
      {showEmpty && <div className="dt__empty">{empty}</div>}
    </ScrollFrame>
  );
}

/** An e-mail that may break before its '@' when its column wraps. */
export function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at <= 0) return <>{email}</>;
  return <>{email.slice(0, at)}<wbr />{email.slice(at)}</>;
}
