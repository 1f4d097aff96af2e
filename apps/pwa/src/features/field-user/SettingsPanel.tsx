import { Limits, PhotoEncoding, type CurrentUser } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { requestPersistence } from '../../offline';
import { paths } from '../../routes/paths';
import { Modal } from '../../ui/Modal';
import { useOnline } from '../../ui/useOnline';
import { formatBytes, useOutboxState, useStorageEstimate, useSyncController } from './use-sync';
import './field-user.css';
import { accountKey } from '../../offline/account-key';

/**
 * The version this phone reports with its syncs (vite.config.ts defines it at build). Not read from
 * package.json?raw: that module went into a chunk of its own which imports the field-user screens
 * chunk, which imports it back; opening Settings before any other of those screens evaluated that
 * chunk first, and the version string was still undefined when the panel's module read it.
 */
const version = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev';

type Persisted = 'checking' | 'kept' | 'best-effort' | 'unsupported';

/** 'Field user settings' from the side pane: the account, what the phone keeps, and a Sync now. */
export default function SettingsPanel({ user, onClose }: { user: CurrentUser; onClose: () => void }) {
  const account = accountKey(user.email);
  const [persisted, setPersisted] = useState<Persisted>('checking');
  const [asking, setAsking] = useState(false);
  const outbox = useOutboxState(account);
  const storage = useStorageEstimate(outbox.waiting);
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
    <Modal open title="Field user settings" onClose={onClose} className="modal--drawer">
      <dl className="settings">
        <div>
          <dt>Signed in as</dt>
          <dd>{user.fullName ? `${user.fullName} (${user.email})` : user.email}</dd>
        </div>
        <div>
          <dt>Responses on this phone</dt>
          <dd>{outbox.waiting > 0 ? `${outbox.waiting} saved on this phone, waiting to send` : 'Nothing waiting to send'}{outbox.failed > 0 && ` · ${outbox.failed} failed`}</dd>
        </div>
        <div>
          <dt>Storage used</dt>
          <dd className={storage?.nearlyFull ? 'settings__warn' : undefined}>
            {storage === undefined ? 'Checking…' : storage === null ? 'This browser does not say' : `${formatBytes(storage.usage)} of ${formatBytes(storage.quota)}${storage.nearlyFull ? ' — nearly full, sync before taking more photos' : ''}`}
          </dd>
        </div>
        <div>
          <dt>Persistent storage</dt>
          <dd>
            {persisted === 'checking' && 'Checking…'}
            {persisted === 'kept' && 'Granted: the browser will not clear your saved responses'}
            {persisted === 'unsupported' && 'Not available in this browser'}
            {persisted === 'best-effort' && (
              <span className="settings__inline">
                Not granted: the browser may clear data when space runs low.
                <button type="button" className="btn btn--ghost btn--sm" onClick={() => void ask()} disabled={asking}>Request persistent storage</button>
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>Photos</dt>
          <dd>Kept as taken when already small (a JPEG, PNG or WebP of at most {PhotoEncoding.standard.maxEdge} px on the longer side, {PhotoEncoding.high.maxEdge} px for a survey set to high photo quality); larger photos are shrunk on the phone to a JPEG of that size. The server takes up to {formatBytes(Limits.maxImageBytes)}.</dd>
        </div>
        <div>
          <dt>Send photos on Wi-Fi only</dt>
          <dd>
            <label className="settings__inline">
              <input type="checkbox" checked={wifiOnly} onChange={(e) => toggleWifiOnly(e.target.checked)} />
              Hold photos until this phone is on Wi-Fi
            </label>
            Responses are always sent at once: the office sees and counts them, with &quot;photo uploading&quot; until the photos follow.
            {!typeKnown && ' This browser does not say which network it is on, so photos are never held here.'}
          </dd>
        </div>
        <div>
          <dt>App version</dt>
          <dd>Survey Bird {version}</dd>
        </div>
      </dl>
      <div className="modal__actions">
        <Link to={paths.manageAccount} className="btn btn--ghost" onClick={onClose}>Manage Account</Link>
        <button type="button" className="btn btn--ghost" onClick={() => void syncNow()} disabled={!online || running}>{running ? 'Syncing…' : 'Sync now'}</button>
        <button type="button" className="btn btn--primary" onClick={onClose}>Done</button>
      </div>
    </Modal>
  );
}
