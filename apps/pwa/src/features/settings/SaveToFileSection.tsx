import { Msg } from '@survey-bird/contracts';
import { useState, type FormEvent } from 'react';
import { api } from '../../api';
import { confirmDialog } from '../../lib/dialog-store';
import { navigateTo } from '../../lib/navigate';
import { paths } from '../../lib/paths';
import { toast } from '../../lib/toast-store';
import type { AccountKey } from '../../session/account-key';
import { removeAccount } from '../../session/account-list';
import { getAccounts, setAccounts } from '../../session/account-storage';
import { Spinner } from '../../ui/Spinner';
import { t, useT } from '../../lib/i18n';

/** The save-to-file module is the Settings screen's alone: loaded when used, never with the form. */
const saveFile = () => import('../../offline/save-file');


function download(file: Blob, name: string) {
  const url = URL.createObjectURL(file);
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Settings rows for what only this phone holds: save every unsent response, photo and draft to one
 * passphrase-encrypted file, load such a file (this phone or another, same person), and remove
 * the account and its data from this phone (its key is destroyed: docs/security.md).
 */
export function SaveToFileSection({ account, email, unsent, onLoaded }: { account: AccountKey; email: string; unsent: number; onLoaded: () => void }) {
  useT();
  const [pass, setPass] = useState('');
  const [again, setAgain] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [loadPass, setLoadPass] = useState('');
  const [busy, setBusy] = useState<'save' | 'load' | 'remove' | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (pass !== again) return setSaveError(t('settings.file.differ'));
    setBusy('save');
    setSaveError(null);
    try {
      const m = await saveFile();
      const saved = await m.saveUnsentToFile(account, pass);
      download(saved.file, m.saveFileName(account));
      setPass('');
      setAgain('');
      toast.success(t('settings.file.saved', { responses: saved.responses, photos: saved.photos, drafts: saved.drafts }));
    } catch (err) {
      setSaveError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const load = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return setLoadError(t('settings.file.chooseFirst'));
    setBusy('load');
    setLoadError(null);
    try {
      const r = await (await saveFile()).loadUnsentFromFile(account, file, loadPass);
      setLoadPass('');
      const parts = [t('settings.file.loaded', { responses: r.added, photos: r.photos })];
      if (r.drafts) parts.push(t('settings.file.drafts', { count: r.drafts }));
      if (r.alreadyHere) parts.push(t('settings.file.alreadyHere', { count: r.alreadyHere }));
      if (r.draftsKept) parts.push(t('settings.file.draftsKept', { count: r.draftsKept }));
      toast.success(t('settings.file.loadedAll', { parts: parts.join('; ') }));
      onLoaded();
    } catch (err) {
      setLoadError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    const ok = await confirmDialog({
      title: t('settings.remove.title', { email }),
      body: `${unsent > 0 ? `${t('settings.remove.unsent', { count: unsent })} ` : ''}${t('settings.remove.body')}`,
      action: t('settings.remove.action'),
      cancel: t('common.cancel'),
      tone: 'danger',
    });
    if (!ok) return;
    setBusy('remove');
    const stored = getAccounts().find((a) => a.email.trim().toLowerCase() === account);
    if (stored) await api.call('signOut', { token: stored.token, handleErrors: false }).catch(() => undefined);
    await import('../../offline/forget').then((m) => m.forgetAccountData(account));
    setAccounts(removeAccount(getAccounts(), email));
    setBusy(null);
    toast.success(Msg.accountSignedOut);
    navigateTo(paths.landing);
  };

  return (
    <>
      <div>
        <dt>{t('settings.file.save')}</dt>
        <dd>
          <form className="settings__inline settings__form" onSubmit={(e) => void save(e)} aria-label={t('settings.file.saveLabel')}>
            <span>{t('settings.file.saveHint')}</span>
            <input type="password" autoComplete="new-password" placeholder={t('settings.file.passphraseHint')} aria-label={t('settings.file.passphrase')} value={pass} onChange={(e) => setPass(e.target.value)} minLength={8} required />
            <input type="password" autoComplete="new-password" placeholder={t('settings.file.passphraseAgain')} aria-label={t('settings.file.passphraseAgain')} value={again} onChange={(e) => setAgain(e.target.value)} required />
            {saveError && <span className="settings__warn" role="alert">{saveError}</span>}
            <button type="submit" className="btn btn--ghost btn--sm" disabled={busy !== null}>{busy === 'save' ? <Spinner label={t('common.saving')} /> : null} {t('settings.file.save')}</button>
          </form>
        </dd>
      </div>
      <div>
        <dt>{t('settings.file.load')}</dt>
        <dd>
          <form className="settings__inline settings__form" onSubmit={(e) => void load(e)} aria-label={t('settings.file.loadLabel')}>
            <input type="file" accept=".sbsave,application/octet-stream" aria-label={t('settings.file.fileLabel')} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
            <input type="password" autoComplete="current-password" placeholder={t('settings.file.passphraseOf')} aria-label={t('settings.file.passphraseOf')} value={loadPass} onChange={(e) => setLoadPass(e.target.value)} required />
            {loadError && <span className="settings__warn" role="alert">{loadError}</span>}
            <button type="submit" className="btn btn--ghost btn--sm" disabled={busy !== null}>{busy === 'load' ? <Spinner label={t('common.loading')} /> : null} {t('settings.file.loadButton')}</button>
          </form>
        </dd>
      </div>
      <div>
        <dt>{t('settings.remove.action')}</dt>
        <dd>
          <span className="settings__inline">
            {t('settings.remove.hint')}
            <button type="button" className="btn btn--danger-outline btn--sm" onClick={() => void remove()} disabled={busy !== null}>{t('settings.remove.button')}</button>
          </span>
        </dd>
      </div>
    </>
  );
}
