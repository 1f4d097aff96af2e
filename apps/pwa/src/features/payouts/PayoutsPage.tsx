import type { CreatePayoutReply, HeldBucket, Payout, Survey } from '@survey-bird/contracts';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import { ApiError } from '../../api/client';
import { formatNaira, formatResponseDate } from '../../ui/format';
import { ActiveSurveyButton } from '../surveys/ActiveSurveyButton';
import { useActiveSurvey } from '../surveys/active-survey';
import { DataTable, type Column } from '../team/DataTable';
import { MgmtHead, NoActiveSurvey, RefreshButton } from '../team/Layout';
import { Pager } from '../team/ListControls';
import { serialNumber } from '../team/paging';
import { usePagedList } from '../team/usePagedList';
import { PAYOUT_STATUS_LABEL } from './payout-calls';
import { HeldSummary } from './HeldSummary';
import { PayoutDialog } from './PayoutDialog';
import './payouts.css';

/** The organization's Payouts page for the active survey. */
export function PayoutsPage() {
  return <Payouts readOnly={false} />;
}

/** A supervisor's view of the same page: payouts of their field users, read-only. */
export function SupervisorPayoutsPage() {
  return <Payouts readOnly />;
}

function Payouts({ readOnly }: { readOnly: boolean }) {
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <NoActiveSurvey heading="Payouts" loading={loading}>
        <p className="empty-note__title">No survey yet</p>
        <p>Payouts belong to a survey: {readOnly ? 'once you supervise one, its payouts show here.' : 'create a survey first.'}</p>
      </NoActiveSurvey>
    );
  }
  return <SurveyPayouts key={survey._id} survey={survey} readOnly={readOnly} />;
}

function SurveyPayouts({ survey, readOnly }: { survey: Survey; readOnly: boolean }) {
  const list = usePagedList(({ page, signal }) => api.call('payouts', { query: { survey_id: survey._id, page }, signal }));
  const [open, setOpen] = useState<{ id: string; created?: CreatePayoutReply } | null>(null);
  const [creating, setCreating] = useState(false);
  // One key per "Create" press: a retry after a lost answer gets the same payout back.
  const key = useRef<string | null>(null);
  const data = list.data;
  const page = data?.page ?? list.page;
  // What a payout would leave out now (the survey's pay gate), shown before creating one.
  const [held, setHeld] = useState<HeldBucket[]>([]);
  const listed = list.data;
  useEffect(() => {
    if (readOnly) return;
    const controller = new AbortController();
    api.call('payoutHolds', { query: { survey_id: survey._id }, signal: controller.signal, handleErrors: false }).then((r) => setHeld(r.held), () => setHeld([]));
    return () => controller.abort();
  }, [survey._id, readOnly, listed]);

  async function create() {
    setCreating(true);
    key.current ??= crypto.randomUUID();
    try {
      const reply = await api.call('createPayout', { body: { survey_id: survey._id, key: key.current } });
      key.current = null;
      setOpen({ id: reply.payout._id, created: reply });
      list.refresh();
    } catch (err) {
      // A refusal (nothing to pay) is final for this key; a network failure keeps it for the retry.
      if (err instanceof ApiError && err.status !== 0) key.current = null;
    } finally {
      setCreating(false);
    }
  }

  // The amount opens the payout: it is the pinned column, so a phone reaches it without scrolling sideways.
  const columns: Column<Payout>[] = [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: 'Amount', cell: (p) => <button type="button" className="payout-open" aria-label={`Open payout of ${formatNaira(p.total)}, ${formatResponseDate(p.createdAt)}`} onClick={() => setOpen({ id: p._id })}>{formatNaira(p.total)}</button> },
    { header: 'Status', cell: (p) => <span className={`payout-chip payout-chip--${p.status}`}>{PAYOUT_STATUS_LABEL[p.status]}</span> },
    { header: 'Created', cell: (p) => formatResponseDate(p.createdAt) },
    { header: 'Field users', className: 'num', cell: (p) => p.fieldUserCount },
    { header: 'Responses', className: 'num', cell: (p) => p.responseCount },
    { header: 'Reference', className: 'wrap', cell: (p) => p.reference ?? <span className="cell-muted">-</span> },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title={`${survey.title} Payouts`}
        sub={readOnly ? 'Payouts to the field users assigned to you (read-only).' : 'Pay field users for their approved responses: create a payout, download the bank file, then mark it paid.'}
        actions={
          <>
            <ActiveSurveyButton />
            <RefreshButton onClick={list.refresh} busy={list.loading} />
            {!readOnly && <button type="button" className="btn btn--primary" disabled={creating} onClick={() => void create()}>{creating ? 'Creating…' : 'Create payout'}</button>}
          </>
        }
      />
      <HeldSummary held={held} title="Held for verification now" />
      <div className="mgmt-panel">
        <DataTable label="Payouts" columns={columns} rows={data?.payouts} rowKey={(p) => p._id} loading={list.loading}
          empty={<p>No payout yet{readOnly ? '' : ': Create payout pays every field user their approved, unpaid responses'}.</p>} />
        <Pager page={page} count={data?.payouts.length ?? 0} total={data?.totalCount ?? 0} hasPreviousPage={!!data?.hasPreviousPage} hasNextPage={!!data?.hasNextPage} onPage={list.setPage}>
          <span className="payout-totals">
            <span>Draft <strong>{formatNaira(data?.totals.draft ?? 0)}</strong></span>
            <span>Paid <strong>{formatNaira(data?.totals.paid ?? 0)}</strong></span>
          </span>
        </Pager>
      </div>
      {open && (
        <PayoutDialog id={open.id} surveyTitle={survey.title} readOnly={readOnly} created={open.created}
          onClose={() => setOpen(null)} onChanged={list.refresh} />
      )}
    </section>
  );
}
