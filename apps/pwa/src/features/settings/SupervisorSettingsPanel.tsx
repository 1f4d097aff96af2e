import type { CurrentUser, SupervisorSettings } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { paths } from '../../lib/paths';
import { Modal } from '../../ui/Modal';
import { toast } from '../../lib/toast-store';
import '../capture/field-user.css';

/** 'Settings' from the supervisor's side pane: the account and the daily sync e-mail. */
export default function SupervisorSettingsPanel({ user, onClose }: { user: CurrentUser; onClose: () => void }) {
  const [settings, setSettings] = useState<SupervisorSettings | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const ac = new AbortController();
    api.call('supervisorSettings', { signal: ac.signal }).then(setSettings, () => undefined);
    return () => ac.abort();
  }, []);

  async function setDigest(on: boolean) {
    const before = settings;
    // The switch moves at once; a refusal puts it back (the API client shows the reason).
    if (before) setSettings({ ...before, syncDigest: on });
    setBusy(true);
    try {
      setSettings(await api.call('updateSupervisorSettings', { body: { syncDigest: on } }));
      toast.success(on ? 'You will get the daily sync e-mail' : 'The daily sync e-mail is off');
    } catch {
      setSettings(before);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open title="Supervisor settings" onClose={onClose} className="modal--drawer">
      <dl className="settings">
        <div>
          <dt>Signed in as</dt>
          <dd>{user.fullName ? `${user.fullName} (${user.email})` : user.email}</dd>
        </div>
        <div>
          <dt id="sync-digest-label">Daily sync e-mail</dt>
          <dd>
            <label className="settings__toggle">
              <input type="checkbox" role="switch" aria-labelledby="sync-digest-label" checked={settings?.syncDigest ?? false} disabled={!settings || busy} onChange={(e) => void setDigest(e.target.checked)} />
              <span>{settings === null ? 'Checking…' : 'Each morning, e-mail me the field users assigned to me whose phones have not synced for the number of days my organization set, or hold failed responses.'}</span>
            </label>
          </dd>
        </div>
      </dl>
      <div className="modal__actions">
        <Link to={paths.manageAccount} className="btn btn--ghost" onClick={onClose}>Manage Account</Link>
        <button type="button" className="btn btn--primary" onClick={onClose}>Done</button>
      </div>
    </Modal>
  );
}
