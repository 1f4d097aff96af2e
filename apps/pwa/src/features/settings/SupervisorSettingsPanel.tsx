import type { CurrentUser, SupervisorSettings } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useState } from 'react';
import { api } from '../../api';
import { paths } from '../../lib/paths';
import { Modal } from '../../ui/Modal';
import { toast } from '../../lib/toast-store';
import '../capture/field-user.css';
import { useT } from '../../lib/i18n';

// Its module loads with the panel, not with every supervisor screen.
const LanguagePicker = lazy(() => import('../../ui/LanguagePicker'));

/** 'Settings' from the supervisor's side pane: the account and the daily sync e-mail. */
export default function SupervisorSettingsPanel({ user, onClose }: { user: CurrentUser; onClose: () => void }) {
  const t = useT();
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
      toast.success(on ? t('office.svSettings.digestOn') : t('office.svSettings.digestOff'));
    } catch {
      setSettings(before);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open title={t('office.svSettings.title')} onClose={onClose} className="modal--drawer">
      <dl className="settings">
        <div>
          <dt>{t('office.svSettings.signedInAs')}</dt>
          <dd>{user.fullName ? `${user.fullName} (${user.email})` : user.email}</dd>
        </div>
        <div>
          <dt>{t('language.label')}</dt>
          <dd><Suspense fallback={null}><LanguagePicker className="language-picker--bare" /></Suspense></dd>
        </div>
        <div>
          <dt id="sync-digest-label">{t('office.svSettings.digest')}</dt>
          <dd>
            <label className="settings__toggle">
              <input type="checkbox" role="switch" aria-labelledby="sync-digest-label" checked={settings?.syncDigest ?? false} disabled={!settings || busy} onChange={(e) => void setDigest(e.target.checked)} />
              <span>{settings === null ? t('office.flags.checking') : t('office.svSettings.digestHint')}</span>
            </label>
          </dd>
        </div>
      </dl>
      <div className="modal__actions">
        <Link to={paths.manageAccount} className="btn btn--ghost" onClick={onClose}>{t('account.manage')}</Link>
        <button type="button" className="btn btn--primary" onClick={onClose}>{t('common.done')}</button>
      </div>
    </Modal>
  );
}
