import { Limits, RESPONSE_STATUSES, answerOf, type ResponseRow, type ResponseStatus, type RouteName, type Survey } from '@survey-bird/contracts';
import { lazy, type MouseEvent, Suspense, useId, useMemo, useState } from 'react';
import { formatNumber, formatResponseDate } from '../../ui/format';
import { useT } from '../../lib/i18n';
import { ScrollFrame } from '../../ui/ScrollFrame';
import { HiddenPersonal } from '../privacy/HiddenPersonal';
import { capturedOrReceived, orderByCaptureWithinBatches } from './capture-order';
import { formatCell, tableQuestions, type Cell } from './cells';
import type { ExportRoute } from './download';
import { ExportButton } from './ExportButton';
import { ChevronLeftIcon, ChevronRightIcon, ExternalIcon, ImageIcon, MonitorIcon, RefreshIcon, SearchIcon } from './icons';
import { useDebounced, useResponses } from './use-insight';
import { ReviewBar } from '../review/ReviewBar';
import { FlagChips } from '../review/FlagChips';
import { FLAGGED_FILTERS, filterQuery, type FlaggedFilter } from '../review/flag-labels';
import { StatusChip, STATUS_LABEL } from '../review/StatusChip';

// The detail view (answers, flags, audio, back-check, erase) loads when a response is opened, not with the list.
const ResponseDetail = lazy(() => import('../review/ResponseDetail').then((m) => ({ default: m.ResponseDetail })));

// The key file's panel loads only for an end-to-end encrypted survey.
const EncryptedPanel = lazy(() => import('../e2e/EncryptedPanel').then((m) => ({ default: m.EncryptedPanel })));

type ResponsesRoute = Extract<RouteName, 'organizationResponses' | 'supervisorResponses'>;

interface ResponsesTableProps {
  survey: Survey;
  route: ResponsesRoute;
  exportRoute: ExportRoute;
  reload: number;
  onRefresh: () => void;
}

const SKELETON_ROWS = 6;

/**
 * The Responses table (spec screens 1 and 9): refresh, 'Search anything...', the status filter,
 * Export, a page indicator with arrows, and columns: a check box (bulk review), S/N,
 * Field user, Field user email, Date (captured on the phone; receipt time on hover and, on wide
 * screens, in a Received column), Status, Flags, then one per question. The flag filter
 * sits beside the status filter and goes to the list and the export as `flagged`, like `status`. A row opens its detail view.
 * Key it by survey id so another survey starts on page 1 with an empty search.
 */
export function ResponsesTable({ survey, route, exportRoute, reload, onRefresh }: ResponsesTableProps) {
  const t = useT();
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim());
  const [status, setStatus] = useState<ResponseStatus | ''>('');
  const [flagged, setFlagged] = useState<FlaggedFilter>('');
  const filters = filterQuery(status, flagged);
  const list = `${query}|${status}|${flagged}`;
  const [paging, setPaging] = useState({ list: '|', page: 1 });
  const page = paging.list === list ? paging.page : 1;
  // A verdict reloads the rows (their chips change) without the parent's refresh.
  const [reviewed, setReviewed] = useState(0);
  const { data, loading } = useResponses(route, survey._id, query, page, reload + reviewed, filters);
  const [selection, setSelection] = useState<{ key: string; ids: Set<string> }>({ key: '', ids: new Set() });
  const selectionKey = `${list}|${page}|${reload}|${reviewed}`;
  const selected = selection.key === selectionKey ? selection.ids : new Set<string>();
  const [open, setOpen] = useState<string | null>(null);
  const searchId = useId();
  const statusId = useId();
  const flaggedId = useId();
  const titleId = useId();
  const now = new Date();

  const ordered = useMemo(() => orderByCaptureWithinBatches(data?.responses ?? []), [data]);
  // An encrypted survey's rows as its panel opened them with the survey key (for these rows only).
  const [opened, setOpened] = useState<{ from: ResponseRow[]; rows: ResponseRow[] } | null>(null);
  const rows = opened?.from === ordered ? opened.rows : ordered;
  const encrypted = Boolean(survey.encryptionKey) || ordered.some((r) => r.encrypted);
  const shownPage = data?.page ?? page;
  const from = rows.length ? (shownPage - 1) * Limits.pageSize + 1 : 0;
  const to = from ? from + rows.length - 1 : 0;
  // The export's main sheet: answers at the response's level (no group titles, no repeat members: a repeat is its count).
  const questions = useMemo(() => tableQuestions(survey.questions), [survey.questions]);

  return (
    <section className="insight-panel responses" aria-labelledby={titleId}>
      <div className="responses__bar">
        <div className="responses__heading">
          <h2 id={titleId} className="insight-panel__title">{t('office.responses.title')}</h2>
          <button type="button" className="icon-btn responses__refresh" aria-label={t('office.responses.refreshLabel')} title={t('office.responses.refresh')} onClick={onRefresh} disabled={loading}>
            <RefreshIcon size={18} className={loading ? 'is-spinning' : undefined} />
          </button>
        </div>
        <div className="responses__tools">
          <div className="insight-search">
            <label htmlFor={searchId} className="insight-sr">{t('office.responses.searchLabel')}</label>
            <SearchIcon size={18} className="insight-search__icon" />
            <input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('office.responses.search')} autoComplete="off" enterKeyHint="search" />
          </div>
          <label htmlFor={statusId} className="insight-sr">{t('office.responses.status')}</label>
          <select id={statusId} className="responses__status-filter" value={status} onChange={(e) => setStatus(e.target.value as ResponseStatus | '')}>
            <option value="">{t('office.responses.allStatuses')}</option>
            {RESPONSE_STATUSES.map((s) => <option key={s} value={s}>{t(STATUS_LABEL[s])}</option>)}
          </select>
          <label htmlFor={flaggedId} className="insight-sr">{t('office.responses.flags')}</label>
          <select id={flaggedId} className="responses__status-filter" value={flagged} onChange={(e) => setFlagged(e.target.value as FlaggedFilter)}>
            {FLAGGED_FILTERS.map((f) => <option key={f.value} value={f.value}>{t(f.label)}</option>)}
          </select>
          <ExportButton route={exportRoute} surveyId={survey._id} title={survey.title} searchQuery={query} filters={filters} />
        </div>
      </div>

      <ReviewBar
        surveyId={survey._id}
        searchQuery={query}
        selected={[...selected]}
        // Review by search covers every pending match, flagged or not: offered only when the table shows exactly that.
        pendingFilter={status === 'pending' && !flagged && (data?.totalCount ?? 0) > 0}
        onDone={() => setReviewed((n) => n + 1)}
        onClear={() => setSelection({ key: '', ids: new Set() })}
      />

      {encrypted && <Suspense fallback={null}><EncryptedPanel survey={survey} route={route} rows={ordered} onOpened={setOpened} /></Suspense>}

      <p className="responses__notice">
        <MonitorIcon size={18} />
        <span>{t('office.responses.manyColumns')}</span>
      </p>

      <ScrollFrame className="responses__frame" label={t('office.responses.tableLabel')}>
        <table className="responses__table" aria-busy={loading}>
          <thead>
            <tr>
              <th scope="col" className="responses__pick">
                <input type="checkbox" aria-label={t('office.responses.selectPage')} checked={rows.length > 0 && rows.every((r) => selected.has(r._id))}
                  onChange={(e) => setSelection({ key: selectionKey, ids: e.target.checked ? new Set(rows.map((r) => r._id)) : new Set() })} />
              </th>
              <th scope="col" className="responses__sn">S/N</th>
              <th scope="col">{t('office.responses.fieldUser')}</th>
              <th scope="col">{t('office.responses.fieldUserEmail')}</th>
              <th scope="col">{t('office.responses.date')}</th>
              <th scope="col" className="responses__received">{t('office.responses.received')}</th>
              <th scope="col">{t('office.responses.status')}</th>
              <th scope="col">{t('office.responses.flags')}</th>
              {questions.map((q) => <th key={q.id ?? q.text} scope="col">{q.text}</th>)}
            </tr>
          </thead>
          <tbody>
            {loading
              ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                  <tr key={`skeleton-${i}`} className="responses__skeleton" aria-hidden="true">
                    {Array.from({ length: 8 + questions.length }, (_, j) => <td key={j} className={j === 5 ? 'responses__received' : undefined}><span className="insight-skeleton" /></td>)}
                  </tr>
                ))
              : rows.map((row, i) => (
                  <ResponseTableRow key={row._id} row={row} sn={from + i} questions={questions} now={now} picked={selected.has(row._id)}
                    onPick={(on) => {
                      const ids = new Set(selected);
                      if (on) ids.add(row._id);
                      else ids.delete(row._id);
                      setSelection({ key: selectionKey, ids });
                    }}
                    onOpen={() => setOpen(row._id)} />
                ))}
          </tbody>
        </table>
        {!loading && rows.length === 0 && (
          <p className="responses__empty">
            {query || status || flagged
              ? (query
                ? t('office.responses.noneMatchingQuery', { flagged: flagged || 'any', status: status || 'any', query })
                : t('office.responses.noneMatching', { flagged: flagged || 'any', status: status || 'any' }))
              : t('office.responses.none')}
          </p>
        )}
      </ScrollFrame>

      <div className="responses__pager">
        <span className="responses__count" aria-live="polite">
          {rows.length ? t('office.responses.showing', { from: formatNumber(from), to: formatNumber(to), total: formatNumber(data?.totalCount ?? 0) }) : loading ? t('common.loading') : t('office.responses.showingNone')}
        </span>
        <div className="responses__arrows">
          <button type="button" className="icon-btn" aria-label={t('office.responses.previous')} disabled={loading || !data?.hasPreviousPage} onClick={() => setPaging({ list, page: shownPage - 1 })}>
            <ChevronLeftIcon />
          </button>
          <span className="responses__page">{t('office.responses.page', { page: shownPage })}</span>
          <button type="button" className="icon-btn" aria-label={t('office.responses.next')} disabled={loading || !data?.hasNextPage} onClick={() => setPaging({ list, page: shownPage + 1 })}>
            <ChevronRightIcon />
          </button>
        </div>
      </div>
      {open && <Suspense fallback={null}><ResponseDetail id={open} survey={survey} onClose={() => setOpen(null)} onChanged={() => setReviewed((n) => n + 1)} /></Suspense>}
    </section>
  );
}

/** Opens the detail view unless the click was on a control or link inside the row. */
function openUnlessControl(e: MouseEvent, open: () => void) {
  if ((e.target as HTMLElement).closest('a, button, input, label')) return;
  open();
}

function ResponseTableRow({ row, sn, questions, now, picked, onPick, onOpen }: {
  row: ResponseRow; sn: number; questions: Survey['questions']; now: Date; picked: boolean; onPick: (on: boolean) => void; onOpen: () => void;
}) {
  const t = useT();
  const name = row.fieldUser?.fullName || row.fullName || t('common.na');
  return (
    <tr className="responses__row" onClick={(e) => openUnlessControl(e, onOpen)}>
      <td className="responses__pick"><input type="checkbox" aria-label={t('office.responses.selectOne', { sn })} checked={picked} onChange={(e) => onPick(e.target.checked)} /></td>
      <td className="responses__sn">{sn}</td>
      <td className="responses__name"><button type="button" className="responses__open" onClick={onOpen} title={t('office.responses.open')}>{name}</button></td>
      <td>{row.fieldUser?.email || row.email || t('common.na')}</td>
      <td className="responses__date" title={t('office.responses.receivedTitle', { when: formatResponseDate(row.createdAt, now, true) })}>{formatResponseDate(capturedOrReceived(row), now, true)}</td>
      <td className="responses__date responses__received">{formatResponseDate(row.createdAt, now, true)}</td>
      <td><StatusChip status={row.status} /></td>
      <td><FlagChips row={row} /></td>
      {questions.map((q) => <td key={q.id ?? q.text}><CellView cell={formatCell(answerOf(row.answers, q.text), undefined, q.type)} /></td>)}
    </tr>
  );
}

function CellView({ cell }: { cell: Cell }) {
  switch (cell.kind) {
    case 'missing':
      return <span className="resp-na">{cell.text}</span>;
    case 'pending':
      return <span className="resp-na resp-pending">{cell.text}</span>;
    case 'hidden':
      return <HiddenPersonal />;
    case 'photo':
      return (
        <a className="resp-link" href={cell.href} target="_blank" rel="noopener noreferrer">
          <ImageIcon size={16} />{cell.text}
        </a>
      );
    case 'link':
      return (
        <a className="resp-link resp-link--url" href={cell.href} target="_blank" rel="noopener noreferrer" title={cell.href}>
          <span>{cell.text}</span><ExternalIcon size={14} />
        </a>
      );
    default:
      return <span className="resp-text">{cell.text}</span>;
  }
}
