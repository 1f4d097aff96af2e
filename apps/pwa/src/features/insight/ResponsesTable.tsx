import { Limits, answerOf, type ResponseRow, type RouteName, type Survey } from '@survey-bird/contracts';
import { useId, useState } from 'react';
import { formatResponseDate } from '../../ui/format';
import { ScrollFrame } from '../../ui/ScrollFrame';
import { capturedOrReceived, orderByCaptureWithinBatches } from './capture-order';
import { formatCell, type Cell } from './cells';
import type { ExportRoute } from './download';
import { ExportButton } from './ExportButton';
import { ChevronLeftIcon, ChevronRightIcon, ExternalIcon, ImageIcon, MonitorIcon, RefreshIcon, SearchIcon } from './icons';
import { useDebounced, useResponses } from './use-insight';

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
 * The Responses table (spec screens 1 and 9): refresh, 'Search anything...', Export, a page
 * indicator with arrows, and columns S/N, Field user, Field user email, Date (captured on the
 * phone; receipt time on hover and, on wide screens, in a Received column), then one per question.
 * Key it by survey id so another survey starts on page 1 with an empty search.
 */
export function ResponsesTable({ survey, route, exportRoute, reload, onRefresh }: ResponsesTableProps) {
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim());
  const [paging, setPaging] = useState({ query: '', page: 1 });
  const page = paging.query === query ? paging.page : 1;
  const { data, loading } = useResponses(route, survey._id, query, page, reload);
  const searchId = useId();
  const titleId = useId();
  const now = new Date();

  const rows = orderByCaptureWithinBatches(data?.responses ?? []);
  const shownPage = data?.page ?? page;
  const from = rows.length ? (shownPage - 1) * Limits.pageSize + 1 : 0;
  const to = from ? from + rows.length - 1 : 0;
  const questions = survey.questions;

  return (
    <section className="insight-panel responses" aria-labelledby={titleId}>
      <div className="responses__bar">
        <div className="responses__heading">
          <h2 id={titleId} className="insight-panel__title">Responses</h2>
          <button type="button" className="icon-btn responses__refresh" aria-label="Refresh responses" title="Refresh" onClick={onRefresh} disabled={loading}>
            <RefreshIcon size={18} className={loading ? 'is-spinning' : undefined} />
          </button>
        </div>
        <div className="responses__tools">
          <div className="insight-search">
            <label htmlFor={searchId} className="insight-sr">Search responses</label>
            <SearchIcon size={18} className="insight-search__icon" />
            <input id={searchId} type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Search anything..." autoComplete="off" enterKeyHint="search" />
          </div>
          <ExportButton route={exportRoute} surveyId={survey._id} title={survey.title} searchQuery={query} />
        </div>
      </div>

      <p className="responses__notice">
        <MonitorIcon size={18} />
        <span>This table has many columns: open it on a desktop, or use Export to read it in Excel.</span>
      </p>

      <ScrollFrame className="responses__frame" label="Responses table (scrolls sideways)">
        <table className="responses__table" aria-busy={loading}>
          <thead>
            <tr>
              <th scope="col" className="responses__sn">S/N</th>
              <th scope="col">Field user</th>
              <th scope="col">Field user email</th>
              <th scope="col">Date</th>
              <th scope="col" className="responses__received">Received</th>
              {questions.map((q) => <th key={q.text} scope="col">{q.text}</th>)}
            </tr>
          </thead>
          <tbody>
            {loading
              ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                  <tr key={`skeleton-${i}`} className="responses__skeleton" aria-hidden="true">
                    {Array.from({ length: 5 + questions.length }, (_, j) => <td key={j} className={j === 4 ? 'responses__received' : undefined}><span className="insight-skeleton" /></td>)}
                  </tr>
                ))
              : rows.map((row, i) => (
                  <ResponseTableRow key={row._id} row={row} sn={from + i} questions={questions} now={now} />
                ))}
          </tbody>
        </table>
        {!loading && rows.length === 0 && (
          <p className="responses__empty">
            {query ? `No response matches "${query}".` : 'No responses yet. They appear here as soon as field users submit them.'}
          </p>
        )}
      </ScrollFrame>

      <div className="responses__pager">
        <span className="responses__count" aria-live="polite">
          {rows.length ? `Showing ${from} - ${to} of ${(data?.totalCount ?? 0).toLocaleString('en-NG')}` : loading ? 'Loading…' : 'Showing 0 of 0'}
        </span>
        <div className="responses__arrows">
          <button type="button" className="icon-btn" aria-label="Previous page" disabled={loading || !data?.hasPreviousPage} onClick={() => setPaging({ query, page: shownPage - 1 })}>
            <ChevronLeftIcon />
          </button>
          <span className="responses__page">Page {shownPage}</span>
          <button type="button" className="icon-btn" aria-label="Next page" disabled={loading || !data?.hasNextPage} onClick={() => setPaging({ query, page: shownPage + 1 })}>
            <ChevronRightIcon />
          </button>
        </div>
      </div>
    </section>
  );
}

function ResponseTableRow({ row, sn, questions, now }: { row: ResponseRow; sn: number; questions: Survey['questions']; now: Date }) {
  return (
    <tr>
      <td className="responses__sn">{sn}</td>
      <td className="responses__name">{row.fieldUser?.fullName || row.fullName || 'N/A'}</td>
      <td>{row.fieldUser?.email || row.email || 'N/A'}</td>
      <td className="responses__date" title={`Received by the server ${formatResponseDate(row.createdAt, now, true)}`}>{formatResponseDate(capturedOrReceived(row), now, true)}</td>
      <td className="responses__date responses__received">{formatResponseDate(row.createdAt, now, true)}</td>
      {questions.map((q) => <td key={q.text}><CellView cell={formatCell(answerOf(row.answers, q.text), undefined, q.type)} /></td>)}
    </tr>
  );
}

function CellView({ cell }: { cell: Cell }) {
  switch (cell.kind) {
    case 'missing':
      return <span className="resp-na">{cell.text}</span>;
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
