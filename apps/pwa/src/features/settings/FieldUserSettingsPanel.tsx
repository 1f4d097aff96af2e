import { Limits, PhotoEncoding, type CurrentUser } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useState } from 'react';
import { requestPersistence } from '../../offline';
import { paths } from '../../lib/paths';
import { Modal } from '../../ui/Modal';
import { useOnline } from '../../ui/useOnline';
import { formatBytes, UNSENT_WARN_MS, unsentAgeText, useOutboxState, useStorageEstimate, useSyncController, useUnsentAge } from '../sync/use-sync';
import { KeptMapsSetting } from '../maps/KeptMapsSetting';
import '../capture/field-user.css';
import { accountKey } from '../../session/account-key';
import { useT } from '../../lib/i18n';
import { BRAND } from '../../ui/Logo';

// Its own chunk: the field-user screens' chunk (Earnings, Responses) stays within their budget.
const LanguagePicker = lazy(() => import('../../ui/LanguagePicker'));

// Save to file (its passphrase crypto and Dexie export) loads when Settings opens, not with the Earnings and Responses screens.
const SaveToFileSection = lazy(() => import('./SaveToFileSection').then((m) => ({ default: m.SaveToFileSection })));

/**
 * The version this phone reports with its syncs (vite.config.ts defines it at build). Not read from
 * package.json?raw: that module went into a chunk of its own which imports the field-user screens
 * chunk, which imports it back; opening Settings before any other of those screens evaluated that
 * chunk first, and the version string was still undefined when the panel's module read it.
 */
const version = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev';

type Persisted = 'checking' | 'kept' | 'best-effort' | 'unsupported';

/** 'Field user settings' from the side pane: the account, what the phone keeps, and a Sync now. */
export default function FieldUserSettingsPanel({ user, onClose }: { user: CurrentUser; onClose: () => void }) {
  const t = useT();
  const account = accountKey(user.email);
  const [persisted, setPersisted] = useState<Persisted>('checking');
  const [asking, setAsking] = useState(false);
  const outbox = useOutboxState(account);
  const storage = useStorageEstimate(outbox.waiting);
  const unsentAge = useUnsentAge(account, outbox.waiting + outbox.failed);
  const { running, syncNow } = useSyncController();
  const online = useOnline();
  const [wifiOnly, setWifiOnly] = useState(false);
  const [typeKnown, setTypeKnown] = useState(true);
  // The sync run's own module (offline/index.ts says why it is not re-exported there).
  const wifi = () => import('../../offline/sync-wifi');
  useEffect(() => {
    void wifi().then(async (w) => {
      setTypeKnown(w.connectionType() !== undefined);
      setWifiOnly(await w.photosOnWifiOnly());
    });
  }, []);
  const toggleWifiOnly = (on: boolean) => {
    setWifiOnly(on);
    void wifi().then((w) => w.setPhotosOnWifiOnly(on));
  };

  useEffect(() => {
    const storageApi = navigator.storage;
    if (!storageApi?.persisted) return setPersisted('unsupported');
    void storageApi.persisted().then((kept) => setPersisted(kept ? 'kept' : 'best-effort'), () => setPersisted('unsupported'));
  }, []);

  const ask = async () => {
    setAsking(true);
    setPersisted((await requestPersistence()) ? 'kept' : 'best-effort');
    setAsking(false);
  };

  return (
    <Modal open title={t('settings.title')} onClose={onClose} className="modal--drawer">
      <dl className="settings">
        <div>
          <dt>{t('settings.signedInAs')}</dt>
          <dd>{user.fullName ? `${user.fullName} (${user.email})` : user.email}</dd>
        </div>
        <div>
          <dt>{t('language.label')}</dt>
          <dd><Suspense fallback={null}><LanguagePicker className="language-picker--bare" /></Suspense></dd>
        </div>
        <div>
          <dt>{t('settings.onPhone')}</dt>
          <dd>
            {outbox.waiting > 0 ? t('settings.waiting', { count: outbox.waiting }) : t('sync.nothingWaiting')}{outbox.failed > 0 && ` · ${t('settings.failed', { count: outbox.failed })}`}
            {unsentAge !== null && unsentAge > UNSENT_WARN_MS && <span className="settings__warn" data-testid="unsent-old"> — {t('settings.notSentFor', { age: unsentAgeText(unsentAge) })}</span>}
          </dd>
        </div>
        <div>
          <dt>{t('settings.storageUsed')}</dt>
          <dd className={storage?.nearlyFull ? 'settings__warn' : undefined}>
            {storage === undefined ? t('settings.checking') : storage === null ? t('settings.browserSilent') : `${t('settings.usedOf', { used: formatBytes(storage.usage), quota: formatBytes(storage.quota) })}${storage.nearlyFull ? ` — ${t('settings.nearlyFull')}` : ''}`}
          </dd>
        </div>
        <div>
          <dt>{t('settings.persistent')}</dt>
          <dd>
            {persisted === 'checking' && t('settings.checking')}
            {persisted === 'kept' && t('settings.granted')}
            {persisted === 'unsupported' && t('settings.unavailable')}
            {persisted === 'best-effort' && (
              <span className="settings__inline">
                {t('settings.notGranted')}
                <button type="button" className="btn btn--ghost btn--sm" onClick={() => void ask()} disabled={asking}>{t('settings.request')}</button>
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('settings.photos')}</dt>
          <dd>{t('settings.photosText', { standard: PhotoEncoding.standard.maxEdge, high: PhotoEncoding.high.maxEdge, max: formatBytes(Limits.maxImageBytes) })}</dd>
        </div>
        <div>
          <dt>{t('settings.wifiOnly')}</dt>
          <dd>
            <label className="settings__inline">
              <input type="checkbox" checked={wifiOnly} onChange={(e) => toggleWifiOnly(e.target.checked)} />
              {t('settings.holdPhotos')}
            </label>
            {t('settings.wifiNote')}
            {!typeKnown && ` ${t('settings.wifiUnknown')}`}
          </dd>
        </div>
        <Suspense fallback={null}>
          <SaveToFileSection account={account} email={user.email} unsent={outbox.waiting + outbox.failed} onLoaded={() => void syncNow()} />
        </Suspense>
        <div>
          <dt>{t('settings.mapsKept')}</dt>
          <dd><KeptMapsSetting /></dd>
        </div>
        <div>
          <dt>{t('settings.version')}</dt>
          <dd>{BRAND} {version}</dd>
        </div>
      </dl>
      <div className="modal__actions">
        <Link to={paths.manageAccount} className="btn btn--ghost" onClick={onClose}>{t('account.manage')}</Link>
        <button type="button" className="btn btn--ghost" onClick={() => void syncNow()} disabled={!online || running}>{running ? t('sync.syncing') : t('sync.now')}</button>
        <button type="button" className="btn btn--primary" onClick={onClose}>{t('common.done')}</button>
      </div>
    </Modal>
  );
}
