import type { ReactNode } from 'react';
import { DataTable, type Column } from './DataTable';
import { Pager, SearchBox } from './ListControls';
import { useT } from '../../lib/i18n';

interface ListState {
  search: string;
  setSearch(value: string): void;
  query: string;
  loading: boolean;
  setPage(page: number): void;
}

interface PageInfo {
  totalCount: number;
  hasPreviousPage: boolean;
  hasNextPage: boolean;
}

interface UserListPanelProps<Row> {
  list: ListState;
  page: number;
  /** The page's paging fields; null until the first page arrives. */
  info: PageInfo | null;
  rows: Row[] | undefined;
  columns: Column<Row>[];
  /** The table's accessible name. */
  label: string;
  searchLabel: string;
  placeholder: string;
  /** What an empty list shows when nothing is searched; a search that finds nothing has the spec's text. */
  empty: ReactNode;
  /** Beside the pager (a total due). */
  children?: ReactNode;
}

/** The body of a screen that lists users: search box, table and pager, on one page of a server list. */
export function UserListPanel<Row extends { _id: string }>({ list, page, info, rows, columns, label, searchLabel, placeholder, empty, children }: UserListPanelProps<Row>) {
  const t = useT();
  return (
    <div className="mgmt-panel">
      <div className="toolbar">
        <SearchBox value={list.search} onChange={list.setSearch} placeholder={placeholder} label={searchLabel} />
      </div>
      <DataTable
        label={label}
        columns={columns}
        rows={rows}
        rowKey={(r) => r._id}
        loading={list.loading}
        empty={list.query ? <p>{t('office.team.noUserFound', { query: list.query })}</p> : empty}
      />
      <Pager page={page} count={rows?.length ?? 0} total={info?.totalCount ?? 0} hasPreviousPage={!!info?.hasPreviousPage} hasNextPage={!!info?.hasNextPage} onPage={list.setPage}>
        {children}
      </Pager>
    </div>
  );
}
