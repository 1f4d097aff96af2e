import { useId, type ReactNode } from 'react';
import { ChevronLeftIcon, ChevronRightIcon, SearchIcon } from './icons';
import { showingText } from './paging';
import { useT } from '../../lib/i18n';

export function SearchBox({ value, onChange, placeholder, label = 'Search' }: { value: string; onChange: (v: string) => void; placeholder: string; label?: string }) {
  const id = useId();
  return (
    <div className="searchbox">
      <label htmlFor={id} className="visually-hidden">{label}</label>
      <SearchIcon className="searchbox__icon" />
      <input id={id} type="search" value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} autoComplete="off" enterKeyHint="search" />
    </div>
  );
}

interface PagerProps {
  page: number;
  count: number;
  total: number;
  hasPreviousPage: boolean;
  hasNextPage: boolean;
  onPage: (page: number) => void;
  /** 'Showing:' (Manage Survey) instead of the team screens' 'Showing'. */
  colon?: boolean;
  children?: ReactNode;
}

/** 'Showing 1 - n of total' with previous/next arrows, inactive when there is no such page. */
export function Pager({ page, count, total, hasPreviousPage, hasNextPage, onPage, colon, children }: PagerProps) {
  const t = useT();
  return (
    <div className="pager">
      {children}
      <span className="pager__text" aria-live="polite">{showingText(page, count, total, colon)}</span>
      <div className="pager__arrows">
        <button type="button" className="icon-btn pager__btn" aria-label={t('pager.previous')} disabled={!hasPreviousPage} onClick={() => onPage(page - 1)}>
          <ChevronLeftIcon />
        </button>
        <button type="button" className="icon-btn pager__btn" aria-label={t('pager.next')} disabled={!hasNextPage} onClick={() => onPage(page + 1)}>
          <ChevronRightIcon />
        </button>
      </div>
    </div>
  );
}
