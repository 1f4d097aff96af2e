import type { CreatePayoutReply, HeldBucket, Payout, Survey } from '@survey-bird/contracts';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import { ApiError } from '../../api/client';
import { formatNaira, formatNumber, formatResponseDate } from '../../ui/format';
import { useT } from '../../lib/i18n';
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
  const t = useT();
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <NoActiveSurvey heading={t('nav.payouts')} loading={loading}>
        <p className="empty-note__title">{t('office.payout.noSurvey')}</p>
        <p>{readOnly ? t('office.payout.noSurveySupervisor') : t('office.payout.noSurveyOrg')}</p>
      </NoActiveSurvey>
    );
  }
  return <SurveyPayouts key={survey._id} survey={survey} readOnly={readOnly} />;
}

function SurveyPayouts({ survey, readOnly }: { survey: Survey; readOnly: boolean }) {
  const t = useT();
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
    { header: t('office.payout.amount'), cell: (p) => <button type="button" className="payout-open" aria-label={t('office.payout.open', { amount: formatNaira(p.total), when: formatResponseDate(p.createdAt) })} onClick={() => setOpen({ id: p._id })}>{formatNaira(p.total)}</button> },
    { header: t('office.responses.status'), cell: (p) => <span className={`payout-chip payout-chip--${p.status}`}>{t(PAYOUT_STATUS_LABEL[p.status])}</span> },
    { header: t('office.payout.created'), cell: (p) => formatResponseDate(p.createdAt) },
    { header: t('nav.short.fieldUsers'), className: 'num', cell: (p) => formatNumber(p.fieldUserCount) },
    { header: t('office.responses.title'), className: 'num', cell: (p) => formatNumber(p.responseCount) },
    { header: t('office.payout.referenceColumn'), className: 'wrap', cell: (p) => p.reference ?? <span className="cell-muted">-</span> },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title={t('office.payout.pageTitle', { survey: survey.title })}
        sub={readOnly ? t('office.payout.subSupervisor') : t('office.payout.subOrg')}
        actions={
          <>
            <ActiveSurveyButton />
            <RefreshButton onClick={list.refresh} busy={list.loading} />
            {!readOnly && <button type="button" className="btn btn--primary" disabled={creating} onClick={() => void create()}>{creating ? t('office.payout.creating') : t('office.payout.create')}</button>}
          </>
        }
      />
      <HeldSummary held={held} title={t('office.payout.heldNow')} />
      <div className="mgmt-panel">
        <DataTable label={t('nav.payouts')} columns={columns} rows={data?.payouts} rowKey={(p) => p._id} loading={list.loading}
          empty={<p>{readOnly ? t('office.payout.noneSupervisor') : t('office.payout.noneOrg')}</p>} />
        <Pager page={page} count={data?.payouts.length ?? 0} total={data?.totalCount ?? 0} hasPreviousPage={!!data?.hasPreviousPage} hasNextPage={!!data?.hasNextPage} onPage={list.setPage}>
          <span className="payout-totals">
            <span>{t('office.payout.draft')} <strong>{formatNaira(data?.totals.draft ?? 0)}</strong></span>
            <span>{t('office.payout.paid')} <strong>{formatNaira(data?.totals.paid ?? 0)}</strong></span>
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
