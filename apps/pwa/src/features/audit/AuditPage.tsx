import { AUDIT_ACTIONS, type AuditEventRow, type AuditQuery } from '@survey-bird/contracts';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import { formatResponseDate } from '../../ui/format';
import { saveBlob } from '../insight/download';
import { useActiveSurvey } from '../surveys/active-survey';
import { DataTable, type Column } from '../team/DataTable';
import { MgmtHead, RefreshButton } from '../team/Layout';
import { Pager } from '../team/ListControls';
import { serialNumber } from '../team/paging';
import { usePagedList } from '../team/usePagedList';
import './audit.css';

/** `member.bank` as "Member bank": the filter's and the table's words for an action. */
const actionLabel = (a: string) => a.replace(/[._]/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

/** What changed, one `field: before → after` per changed field. */
function changeText(e: AuditEventRow): string {
  const keys = [...new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})])];
  const v = (x: unknown) => (x === undefined || x === null || x === '' ? '–' : typeof x === 'string' ? x : JSON.stringify(x));
  return keys.map((k) => (e.before && k in e.before ? `${k}: ${v(e.before[k])} → ${v(e.after?.[k])}` : `${k}: ${v(e.after?.[k])}`)).join('; ');
}

/** The organization's audit log: who did what and when, filtered, newest first, paged, exported as xlsx. */
export function AuditPage() {
  const { survey } = useActiveSurvey();
  const [action, setAction] = useState('');
  const [thisSurvey, setThisSurvey] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [actorId, setActorId] = useState('');
  const filters: Omit<AuditQuery, 'page'> = {
    ...(action ? { action: action as AuditQuery['action'] } : {}),
    ...(thisSurvey && survey ? { surveyId: survey._id } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(actorId ? { actorId } : {}),
  };
  const key = JSON.stringify(filters);
  const list = usePagedList(({ page, signal }) => api.call('audit', { query: { ...(JSON.parse(key) as typeof filters), page }, signal }));
  // A changed filter lists again from page 1 (the paged list refetches on its page and search only).
  const shown = useRef(key);
  const { setPage, refresh } = list;
  useEffect(() => {
    if (shown.current === key) return;
    shown.current = key;
    setPage(1);
    refresh();
  }, [key, setPage, refresh]);
  const data = list.data;
  const page = data?.page ?? list.page;
  const [exporting, setExporting] = useState(false);

  async function download() {
    setExporting(true);
    try {
      saveBlob(await api.call('auditExport', { query: filters }), `audit_${new Date().toISOString().slice(0, 10)}.xlsx`);
    } catch {
      // toasted by the API client
    } finally {
      setExporting(false);
    }
  }

  const columns: Column<AuditEventRow>[] = [
    { header: 'S/N', className: 'shrink', cell: (_r, i) => serialNumber(page, i) },
    { header: 'When', cell: (r) => formatResponseDate(r.at) },
    { header: 'Who', className: 'wrap', cell: (r) => <button type="button" className="cell-link" title="Only this person" onClick={() => setActorId(r.actorId ?? '')}>{r.actorName}</button>, text: (r) => r.actorEmail },
    { header: 'Action', cell: (r) => actionLabel(r.action) },
    { header: 'Survey', className: 'wrap', cell: (r) => r.surveyTitle ?? '–' },
    { header: 'Target', className: 'wrap', cell: (r) => r.targetLabel ?? r.targetId ?? '–' },
    { header: 'Change', className: 'wrap audit__change', cell: changeText },
    { header: 'IP', cell: (r) => r.ip ?? '–' },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title="Audit log"
        sub="Every change to people, money and surveys, and every export and office sign-in. Nobody can edit or delete an entry."
        actions={
          <>
            <RefreshButton onClick={list.refresh} busy={list.loading} />
            <button type="button" className="btn btn--primary" disabled={exporting} onClick={() => void download()}>Export xlsx</button>
          </>
        }
      />
      <form className="audit__filters" onSubmit={(e) => e.preventDefault()}>
        <label>Action
          <select value={action} onChange={(e) => setAction(e.target.value)}>
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => <option key={a} value={a}>{actionLabel(a)}</option>)}
          </select>
        </label>
        <label>From <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} /></label>
        <label>To <input type="date" value={to} onChange={(e) => setTo(e.target.value)} /></label>
        {survey && <label className="audit__check"><input type="checkbox" checked={thisSurvey} onChange={(e) => setThisSurvey(e.target.checked)} /> Only {survey.title}</label>}
        {actorId && <button type="button" className="btn btn--ghost" onClick={() => setActorId('')}>All people</button>}
      </form>
      <div className="mgmt-panel">
        <DataTable label="Audit log" columns={columns} rows={data?.events} rowKey={(r) => r._id} loading={list.loading}
          empty={<div className="empty-note"><p className="empty-note__title">Nothing recorded</p><p>No action matches these filters.</p></div>} />
        {data && <Pager page={page} count={data.events.length} total={data.totalCount} hasPreviousPage={data.hasPreviousPage} hasNextPage={data.hasNextPage} onPage={list.setPage} />}
      </div>
    </section>
  );
}
