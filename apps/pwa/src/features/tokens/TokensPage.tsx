import { Limits, MAX_TOKEN_DAYS, type ApiToken, type Survey } from '@survey-bird/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';
import { formatResponseDate } from '../../ui/format';
import { DataTable, type Column } from '../team/DataTable';
import { MgmtHead, RefreshButton } from '../team/Layout';
import { Pager } from '../team/ListControls';
import { usePagedList } from '../team/usePagedList';
import './tokens.css';

const DAY_MS = 86_400_000;
const PAGE_SIZE = Limits.pageSize;
/** A new token's expiry unless changed: 90 days, long enough for a quarter's dashboards. */
const DEFAULT_DAYS = 90;
const dayInput = (ms: number) => new Date(ms).toISOString().slice(0, 10);

type State = 'Active' | 'Expired' | 'Revoked';
const stateOf = (t: ApiToken, now: number): State => (t.revokedAt ? 'Revoked' : Date.parse(t.expiresAt) <= now ? 'Expired' : 'Active');
const CHIP: Record<State, string> = { Active: 'token-chip--active', Expired: 'token-chip--expired', Revoked: 'token-chip--revoked' };

/**
 * API tokens for scripts, Power BI and Excel: make one (shown once, with Copy), see each one's last
 * use, revoke it. A token reads what its maker reads and never changes anything.
 */
export function TokensPage() {
  const list = usePagedList(({ page, signal }) => api.call('tokens', { query: { page }, signal }));
  const [made, setMade] = useState<{ secret: string; surveyId: string | null } | null>(null);
  const data = list.data;
  const now = Date.now();

  async function revoke(t: ApiToken) {
    if (!window.confirm(`Revoke the token "${t.name}"? Scripts and reports using it stop at once.`)) return;
    try {
      await api.call('revokeToken', { params: { id: t._id } });
      toast.success('Token revoked');
      list.refresh();
    } catch {
      // Toasted by the client's failure handler.
    }
  }

  const columns: Column<ApiToken>[] = [
    // The table pins S/N and the name, so a phone keeps the name in sight while the rest scrolls.
    { header: 'S/N', cell: (_t, i) => ((data?.page ?? 1) - 1) * PAGE_SIZE + i + 1 },
    { header: 'Name', className: 'wrap wrap--name', cell: (t) => t.name, text: (t) => t.name },
    { header: 'State', cell: (t) => <span className={`token-chip ${CHIP[stateOf(t, now)]}`}>{stateOf(t, now)}</span> },
    { header: 'Token', cell: (t) => <code>{t.hint}</code> },
    { header: 'Survey', className: 'wrap', cell: (t) => t.surveyTitle ?? <span className="cell-muted">All your surveys</span> },
    { header: 'Made by', className: 'wrap', cell: (t) => t.createdBy },
    { header: 'Last used', cell: (t) => (t.lastUsedAt ? formatResponseDate(t.lastUsedAt) : <span className="cell-muted">Never</span>) },
    { header: 'Expires', cell: (t) => formatResponseDate(t.expiresAt) },
    { header: '', cell: (t) => (t.revokedAt ? null : <button type="button" className="btn btn--ghost btn--sm" onClick={() => void revoke(t)} aria-label={`Revoke ${t.name}`}>Revoke</button>) },
  ];

  return (
    <section className="mgmt">
      <MgmtHead
        title="API tokens"
        sub="Keys for scripts, Power BI and Excel. A token reads the surveys you read (or one of them) and never changes anything."
        actions={<RefreshButton onClick={list.refresh} busy={list.loading} />}
      />
      <NewToken onMade={(secret, surveyId) => { setMade({ secret, surveyId }); list.refresh(); }} />
      {made && <MadeToken secret={made.secret} surveyId={made.surveyId} onDone={() => setMade(null)} />}
      <div className="mgmt-panel">
        <DataTable label="API tokens" columns={columns} rows={data?.tokens} rowKey={(t) => t._id} loading={list.loading} empty={<p>No token yet: make one above.</p>} />
        <Pager page={data?.page ?? list.page} count={data?.tokens.length ?? 0} total={data?.totalCount ?? 0} hasPreviousPage={!!data?.hasPreviousPage} hasNextPage={!!data?.hasNextPage} onPage={list.setPage} />
      </div>
    </section>
  );
}

function NewToken({ onMade }: { onMade: (secret: string, surveyId: string | null) => void }) {
  const [name, setName] = useState('');
  const [surveyId, setSurveyId] = useState('');
  const [expires, setExpires] = useState(() => dayInput(Date.now() + DEFAULT_DAYS * DAY_MS));
  const [surveys, setSurveys] = useState<Survey[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    api.call('organizationSurveys', { query: { page: 1 }, signal: controller.signal }).then((r) => setSurveys(r.survey), () => undefined);
    return () => controller.abort();
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const reply = await api.call('createToken', { body: { name: name.trim(), expiresAt: expires, ...(surveyId ? { surveyId } : {}) } });
      setName('');
      onMade(reply.secret, reply.token.surveyId);
    } catch {
      // Toasted by the client's failure handler (the server's words: a past expiry, too many tokens).
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="mgmt-panel token-form" onSubmit={(e) => void submit(e)}>
      <label>
        <span>Name</span>
        <input required maxLength={100} value={name} placeholder="Power BI dashboard" onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        <span>Survey</span>
        <select aria-label="Survey" value={surveyId} onChange={(e) => setSurveyId(e.target.value)}>
          <option value="">All your surveys</option>
          {surveys.map((s) => <option key={s._id} value={s._id}>{s.title}</option>)}
        </select>
      </label>
      <label>
        <span>Expires</span>
        <input type="date" required value={expires} min={dayInput(Date.now() + DAY_MS)} max={dayInput(Date.now() + MAX_TOKEN_DAYS * DAY_MS)} onChange={(e) => setExpires(e.target.value)} />
      </label>
      <button type="submit" className="btn btn--primary" disabled={busy}>{busy ? 'Making…' : 'Make token'}</button>
    </form>
  );
}

function MadeToken({ secret, surveyId, onDone }: { secret: string; surveyId: string | null; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const origin = window.location.origin;

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      toast.error('Copy failed: select the token and copy it by hand');
    }
  }

  return (
    <div className="mgmt-panel token-made" role="status">
      <p className="token-made__lead">Your new token. Copy it now: it is not shown again.</p>
      <div className="token-made__row">
        <code className="token-made__secret" aria-label="New API token">{secret}</code>
        <button type="button" className="btn btn--primary btn--sm" onClick={() => void copy()}>{copied ? 'Copied' : 'Copy'}</button>
        <button type="button" className="btn btn--ghost btn--sm" onClick={onDone}>Done</button>
      </div>
      <p className="token-made__hint">In a script: <code>{`curl -H "Authorization: Bearer sb_…" ${origin}/api/v1/survey/organization`}</code></p>
      {surveyId && <p className="token-made__hint">In Power BI or Excel (From OData feed, Basic, the token as password): <code>{`${origin}/api/v1/odata/${surveyId}/`}</code></p>}
    </div>
  );
}
