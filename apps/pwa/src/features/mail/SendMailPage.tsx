import { Msg, SendMailBody, type Organization } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { MailIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { MgmtHead } from '../team/Layout';
import { SearchBox } from '../team/ListControls';
import { usePagedList } from '../team/usePagedList';
import './mail.css';

type Audience = 'one' | 'all';

/** Mail one organization's owner, chosen from a searchable list, or every organization (POST /organization/mail). */
export function SendMailPage() {
  const [audience, setAudience] = useState<Audience>('one');
  const [chosen, setChosen] = useState<Organization | null>(null);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (audience === 'one' && !chosen) return toast.error('Choose an organization');
    const parsed = SendMailBody.safeParse({ organization_id: audience === 'one' ? chosen?._id : undefined, subject, body });
    if (!parsed.success) return toast.error(parsed.error.issues[0]?.message ?? Msg.unexpectedError);
    setBusy(true);
    try {
      const reply = await api.call('sendMail', { body: parsed.data });
      toast.success(`${reply.msg} to ${reply.recipients === 1 ? '1 organization' : `${reply.recipients} organizations`}`);
      setSubject('');
      setBody('');
    } catch {
      // toasted by the API client
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="mgmt mail">
      <MgmtHead title="Send mail" sub="Write to one organization's owner, or to every organization at once." />
      <form className="card form mail__form" onSubmit={(e) => void submit(e)} noValidate inert={busy}>
        <fieldset className="mail__audience">
          <legend>To</legend>
          <label className="check"><input type="radio" name="audience" checked={audience === 'one'} onChange={() => setAudience('one')} /> One organization</label>
          <label className="check"><input type="radio" name="audience" checked={audience === 'all'} onChange={() => setAudience('all')} /> All organizations</label>
        </fieldset>
        {audience === 'one' && <OrganizationChooser chosen={chosen} onChoose={setChosen} />}
        <div className="field">
          <label htmlFor="mail-subject">Subject</label>
          <input id="mail-subject" value={subject} maxLength={200} onChange={(e) => setSubject(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="mail-body">Message</label>
          <textarea id="mail-body" className="mail__body" value={body} onChange={(e) => setBody(e.target.value)} />
        </div>
        <div className="modal__actions">
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy ? <Spinner label="Sending" /> : <MailIcon size={18} />} {audience === 'all' ? 'Send to all organizations' : 'Send'}
          </button>
        </div>
      </form>
    </section>
  );
}

function OrganizationChooser({ chosen, onChoose }: { chosen: Organization | null; onChoose: (o: Organization) => void }) {
  const list = usePagedList(({ page, searchQuery, signal }) => api.call('allOrganizations', { query: { page, searchQuery }, signal }));
  const organizations = list.data?.organizations ?? [];
  return (
    <div className="field">
      <span className="mail__label">Organization</span>
      {chosen && <p className="mail__chosen">Sending to <strong>{chosen.organization_name}</strong> ({chosen.email})</p>}
      <SearchBox value={list.search} onChange={list.setSearch} placeholder="Search organizations" label="Search organizations" />
      <ul className="pick-list mail__list" aria-label="Organizations" aria-busy={list.loading}>
        {list.loading
          ? [0, 1, 2, 3].map((i) => <li key={i} className="pick-list__placeholder" aria-hidden="true"><span className="skeleton-bar" /></li>)
          : organizations.map((o) => (
              <li key={o._id}>
                <button type="button" className={`pick-list__item${o._id === chosen?._id ? ' is-active' : ''}`} aria-pressed={o._id === chosen?._id} onClick={() => onChoose(o)}>
                  <span className="pick-list__title">{o.organization_name}</span>
                  <span className="pick-list__meta">{o.email}</span>
                </button>
              </li>
            ))}
      </ul>
      {!list.loading && organizations.length === 0 && (
        <p className="pick-list__empty">{list.query ? `No organization found with "${list.query}" keywords` : 'You have not added any organization yet...'}</p>
      )}
      {(list.data?.hasPreviousPage || list.data?.hasNextPage) && (
        <div className="pick-list__paging">
          <button type="button" className="btn btn--ghost btn--sm" disabled={!list.data?.hasPreviousPage} onClick={() => list.setPage(list.page - 1)}>prev</button>
          <button type="button" className="btn btn--ghost btn--sm" disabled={!list.data?.hasNextPage} onClick={() => list.setPage(list.page + 1)}>more</button>
        </div>
      )}
    </div>
  );
}
