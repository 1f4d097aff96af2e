import type { RespondentMatch, RespondentsReply } from '@survey-bird/contracts';
import { lazy, Suspense, useState } from 'react';
import { api } from '../../api';
import { formatResponseDate } from '../../ui/format';
import { Modal } from '../../ui/Modal';
import { saveBlob } from '../insight/download';
import { STATUS_LABEL } from '../review/StatusChip';
import { DataTable, type Column } from '../team/DataTable';
import { MgmtHead } from '../team/Layout';
import { Pager } from '../team/ListControls';
import { serialNumber } from '../team/paging';
import './privacy.css';

// The erase form is shared with the response's detail view and loads with it, when asked for.
const EraseForm = lazy(() => import('./EraseForm').then((m) => ({ default: m.EraseForm })));

/** Searches shorter than this would list nearly every response (the API refuses them too). */
const MIN_SEARCH = 3;

/**
 * A respondent's data across every survey: found by a name or phone number they gave, exported as
 * one workbook (their subject-access copy) or erased response by response, each with its reason.
 */
export function RespondentsPage() {
  const [search, setSearch] = useState('');
  const [asked, setAsked] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<RespondentsReply | null>(null);
  const [loading, setLoading] = useState(false);
  const [erasing, setErasing] = useState<RespondentMatch | null>(null);
  const [exporting, setExporting] = useState(false);

  async function load(term: string, at: number) {
    setLoading(true);
    try {
      setData(await api.call('respondents', { query: { search: term, page: at } }));
      setAsked(term);
      setPage(at);
    } catch {
      // Toasted by the API client.
    } finally {
      setLoading(false);
    }
  }

  async function download() {
    setExporting(true);
    try {
      saveBlob(await api.call('respondentExport', { query: { search: asked } }), `respondent_${new Date().toISOString().slice(0, 10)}.xlsx`);
    } catch {
      // Toasted by the API client.
    } finally {
      setExporting(false);
    }
  }

  const columns: Column<RespondentMatch>[] = [
    { header: 'S/N', className: 'shrink', cell: (_r, i) => serialNumber(page, i) },
    { header: 'Survey', cell: (r) => r.surveyTitle },
    { header: 'Received', cell: (r) => formatResponseDate(r.createdAt) },
    { header: 'Field user', className: 'wrap', cell: (r) => r.fieldUser },
    { header: 'Status', cell: (r) => `${STATUS_LABEL[r.status]}${r.paid ? ', paid' : ''}` },
    { header: 'Matched', className: 'wrap', cell: (r) => (r.matched.length === 0 ? '–' : <ul className="respondents__matched">{r.matched.map((m) => <li key={m}>{m}</li>)}</ul>), text: (r) => r.matched.join('; ') },
    {
      header: 'Personal data', cell: (r) => (r.erasedAt
        ? <span className="resp-na">Erased {formatResponseDate(r.erasedAt)}</span>
        : <button type="button" className="btn btn--danger-outline btn--sm" onClick={() => setErasing(r)}>Erase…</button>),
      text: (r) => (r.erasedAt ? 'Erased' : 'Held'),
    },
  ];

  const ready = search.trim().length >= MIN_SEARCH;
  return (
    <section className="mgmt">
      <MgmtHead
        title="Respondents"
        sub="Find every response of one respondent by a name or phone number they gave: export all that is held about them, or erase their personal data."
        actions={asked && data && data.totalCount > 0 ? <button type="button" className="btn btn--primary" disabled={exporting} onClick={() => void download()}>{exporting ? 'Exporting…' : 'Export all (xlsx)'}</button> : undefined}
      />
      <form className="respondents__search" role="search" onSubmit={(e) => { e.preventDefault(); if (ready) void load(search.trim(), 1); }}>
        <input type="search" aria-label="Name or phone number" placeholder="Name or phone number, e.g. 0803 123 4567" value={search} maxLength={200} onChange={(e) => setSearch(e.target.value)} />
        <button type="submit" className="btn btn--primary" disabled={!ready || loading}>Search</button>
      </form>
      <p className="respondents__hint">A local number (0803…) also finds its +234 form. The search reads answers only, never the field users' own names.</p>
      <div className="mgmt-panel">
        {asked ? (
          <>
            <DataTable label="Responses of the respondent" columns={columns} rows={data?.responses} rowKey={(r) => r._id} loading={loading}
              empty={<div className="empty-note"><p className="empty-note__title">No response holds “{asked}”</p><p>Try the phone number as written on the form, or part of the name.</p></div>} />
            {data && <Pager page={page} count={data.responses.length} total={data.totalCount} hasPreviousPage={data.hasPreviousPage} hasNextPage={data.hasNextPage} onPage={(p) => void load(asked, p)} />}
          </>
        ) : <div className="empty-note"><p className="empty-note__title">Search for a respondent</p><p>Type at least {MIN_SEARCH} characters of a name or phone number.</p></div>}
      </div>
      {erasing && (
        <Modal open title={`Erase personal data: ${erasing.surveyTitle}`} onClose={() => setErasing(null)}>
          <div className="modal__body">
            <Suspense fallback={null}><EraseForm responseId={erasing._id} onCancel={() => setErasing(null)} onErased={() => { setErasing(null); void load(asked, page); }} /></Suspense>
          </div>
        </Modal>
      )}
    </section>
  );
}
