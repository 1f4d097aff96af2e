import { WEBHOOK_EVENTS, type Survey, type Webhook, type WebhookDelivery, type WebhookEvent } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { formatResponseDate } from '../../ui/format';
import { ActiveSurveyButton } from '../surveys/ActiveSurveyButton';
import { useActiveSurvey } from '../surveys/active-survey';
import { DataTable, type Column } from '../team/DataTable';
import { MgmtHead, NoActiveSurvey, RefreshButton } from '../team/Layout';
import { Pager } from '../team/ListControls';
import { usePagedList } from '../team/usePagedList';
import './webhooks.css';

const STATUS_LABEL: Record<WebhookDelivery['status'], string> = { pending: 'Retrying', delivered: 'Delivered', failed: 'Failed' };

/** The organization's Webhooks page for the active survey: add one, see each one's delivery log, retry a delivery. */
export function WebhooksPage() {
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <NoActiveSurvey heading="Webhooks" loading={loading}>
        <p className="empty-note__title">No survey yet</p>
        <p>Webhooks belong to a survey: create a survey first.</p>
      </NoActiveSurvey>
    );
  }
  return <SurveyWebhooks key={survey._id} survey={survey} />;
}

function SurveyWebhooks({ survey }: { survey: Survey }) {
  const list = usePagedList(({ signal }) => api.call('surveyWebhooks', { params: { id: survey._id }, signal }));
  const [open, setOpen] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const webhooks = list.data?.webhooks;

  async function remove(w: Webhook) {
    if (!window.confirm(`Delete the webhook to ${w.url}? Its delivery log goes with it.`)) return;
    await api.call('deleteWebhook', { params: { id: w._id } });
    if (open === w._id) setOpen(null);
    list.refresh();
  }

  // The state leads: the table pins its first column, so a phone keeps it in sight while the URL scrolls.
  const columns: Column<Webhook>[] = [
    { header: 'State', cell: (w) => (w.disabledAt ? <span className="hook-chip hook-chip--failed">Turned off</span> : w.failingSince ? <span className="hook-chip hook-chip--pending">Failing</span> : <span className="hook-chip hook-chip--delivered">Active</span>) },
    { header: 'URL', className: 'wrap', cell: (w) => <code className="hook-url">{w.url}</code>, text: (w) => w.url },
    { header: 'Events', className: 'wrap', cell: (w) => `${w.events.join(', ')}${w.withoutPersonal ? ' (without personal data)' : ''}` },
    { header: 'Added', cell: (w) => formatResponseDate(w.createdAt) },
    {
      header: 'Actions',
      cell: (w) => (
        <span className="hook-actions">
          <button type="button" className="btn btn--ghost btn--sm" aria-expanded={open === w._id} onClick={() => setOpen(open === w._id ? null : w._id)}>Deliveries</button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void remove(w)}>Delete</button>
        </span>
      ),
    },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title={`${survey.title} Webhooks`}
        sub="Survey Bird posts signed JSON to these addresses when a response arrives, is fixed, is reviewed or is paid, and retries for 24 hours."
        actions={
          <>
            <ActiveSurveyButton />
            <RefreshButton onClick={list.refresh} busy={list.loading} />
          </>
        }
      />
      <AddWebhook surveyId={survey._id} onAdded={(s) => { setSecret(s); list.refresh(); }} />
      {secret && (
        <div className="mgmt-panel hook-secret" role="status">
          <p>Signing secret (shown once; keep it with the receiver):</p>
          <code>{secret}</code>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => void navigator.clipboard?.writeText(secret)}>Copy</button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => setSecret(null)}>Done</button>
        </div>
      )}
      <div className="mgmt-panel">
        <DataTable label="Webhooks" columns={columns} rows={webhooks} rowKey={(w) => w._id} loading={list.loading} empty={<p>No webhook yet: add a URL above.</p>} />
      </div>
      {open && <DeliveryLog key={open} webhook={webhooks?.find((w) => w._id === open)} webhookId={open} />}
    </section>
  );
}

function AddWebhook({ surveyId, onAdded }: { surveyId: string; onAdded: (secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['response.created']);
  const [withoutPersonal, setWithoutPersonal] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const reply = await api.call('createWebhook', { params: { id: surveyId }, body: { url: url.trim(), events, withoutPersonal } });
      setUrl('');
      onAdded(reply.secret);
    } catch {
      // Toasted by the client's failure handler (the server's words: a private address, a bad URL).
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="mgmt-panel hook-form" onSubmit={(e) => void submit(e)}>
      <label className="hook-form__url">
        <span>Receiver URL</span>
        <input type="url" required value={url} placeholder="https://example.org/survey-bird" onChange={(e) => setUrl(e.target.value)} />
      </label>
      <fieldset className="hook-form__events">
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((ev) => (
          <label key={ev}>
            <input type="checkbox" checked={events.includes(ev)} onChange={(e) => setEvents(e.target.checked ? [...events, ev] : events.filter((x) => x !== ev))} /> {ev}
          </label>
        ))}
      </fieldset>
      <label className="hook-form__personal"><input type="checkbox" checked={withoutPersonal} onChange={(e) => setWithoutPersonal(e.target.checked)} /> Without personal data (personal answers arrive as "hidden: personal")</label>
      <button type="submit" className="btn btn--primary" disabled={busy || events.length === 0}>{busy ? 'Adding…' : 'Add webhook'}</button>
    </form>
  );
}

function DeliveryLog({ webhook, webhookId }: { webhook: Webhook | undefined; webhookId: string }) {
  const list = usePagedList(({ page, signal }) => api.call('webhookDeliveries', { params: { id: webhookId }, query: { page }, signal }));
  const [retrying, setRetrying] = useState<string | null>(null);
  const data = list.data;

  async function retry(d: WebhookDelivery) {
    setRetrying(d._id);
    try {
      await api.call('retryDelivery', { params: { id: webhookId, deliveryId: d._id } });
      list.refresh();
    } catch {
      // Toasted by the client's failure handler.
    } finally {
      setRetrying(null);
    }
  }

  const columns: Column<WebhookDelivery>[] = [
    { header: 'Status', cell: (d) => <span className={`hook-chip hook-chip--${d.status}`}>{STATUS_LABEL[d.status]}</span> },
    { header: 'Event', cell: (d) => d.event },
    { header: 'Reply', className: 'num', cell: (d) => d.lastStatusCode ?? <span className="cell-muted">-</span> },
    { header: 'Error', className: 'wrap', cell: (d) => d.lastError ?? <span className="cell-muted">-</span> },
    { header: 'Attempts', className: 'num', cell: (d) => d.attempts },
    { header: 'Last attempt', cell: (d) => (d.lastAttemptAt ? formatResponseDate(d.lastAttemptAt) : <span className="cell-muted">Not yet</span>) },
    { header: 'Event id', className: 'wrap', cell: (d) => <code>{d.eventId}</code> },
    { header: '', cell: (d) => (d.status === 'delivered' && !webhook?.disabledAt) || d.status !== 'delivered' ? <button type="button" className="btn btn--ghost btn--sm" disabled={retrying === d._id} onClick={() => void retry(d)}>Retry</button> : null },
  ];

  return (
    <div className="mgmt-panel hook-log">
      <h2 className="hook-log__title">Deliveries to {webhook?.url ?? 'this webhook'}</h2>
      <DataTable label="Deliveries" columns={columns} rows={data?.deliveries} rowKey={(d) => d._id} loading={list.loading} empty={<p>No delivery yet: events show here once they happen.</p>} />
      <Pager page={data?.page ?? list.page} count={data?.deliveries.length ?? 0} total={data?.totalCount ?? 0} hasPreviousPage={!!data?.hasPreviousPage} hasNextPage={!!data?.hasNextPage} onPage={list.setPage} />
    </div>
  );
}
