import { Msg } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { loginHref } from '../../routes/navigate';
import { paths } from '../../routes/paths';
import { formatResponseDate } from '../../ui/format';
import { OfflineIcon } from '../../ui/icons';
import { useOnline } from '../../ui/useOnline';
import { useActiveSurvey } from '../surveys/active-survey';
import { formatBytes, useOutboxState, useStorageEstimate, useSyncController } from './use-sync';
import type { AccountKey } from '../../offline/account-key';

/**
 * What the phone holds and whether the server has it, always in view on the field-user screens:
 * responses waiting, the last successful sync, Sync now (the outbox and the survey list), offline,
 * responses returned for fixing (Fix and resubmit is on the Earnings screen), and storage health.
 */
export function SyncStrip({ account, email, showResponsesLink = true }: { account: AccountKey; email: string; showResponsesLink?: boolean }) {
  const online = useOnline();
  const outbox = useOutboxState(account);
  const { running, photos, syncNow } = useSyncController();
  // A sync also asks for the survey list: a new version or a close reaches the phone.
  const { refresh } = useActiveSurvey();
  const storage = useStorageEstimate(`${outbox.waiting}/${outbox.synced}`);

  const headline = !outbox.loaded ? 'Checking this phone…' : outbox.waiting > 0 ? `${outbox.waiting} ${Msg.savedOnPhone}` : 'Nothing waiting to send';
  return (
    <section className={`sync-strip${online ? '' : ' sync-strip--offline'}${outbox.waiting > 0 ? ' sync-strip--waiting' : ''}`} aria-label="Sync status">
      <div className="sync-strip__row">
        <span className={`sync-strip__net${online ? '' : ' is-offline'}`}>
          {online ? <span className="sync-strip__dot" aria-hidden="true" /> : <OfflineIcon size={16} />}
          {online ? 'Online' : 'Offline'}
        </span>
        <div className="sync-strip__main" role="status" aria-live="polite">
          <strong className="sync-strip__count" data-testid="waiting">{headline}</strong>
          {/* 'Not synced yet' only once something was queued: on a new phone the headline says all there is. */}
          {(outbox.lastSyncAt || outbox.waiting > 0 || outbox.failed > 0) && (
            <span className="sync-strip__last">
              {outbox.lastSyncAt ? `Last sync ${formatResponseDate(new Date(outbox.lastSyncAt).toISOString())}` : 'Not synced yet'}
            </span>
          )}
        </div>
        <button type="button" className="btn btn--ghost sync-strip__btn" onClick={() => void Promise.all([syncNow(), refresh()])} disabled={!online || running}>
          {running ? 'Syncing…' : 'Sync now'}
        </button>
      </div>
      {photos && (
        <p className="sync-strip__last">
          {photos.photos === 1 ? '1 photo' : `${photos.photos} photos`}, {formatBytes(photos.bytesLeft)} left <progress value={photos.fraction} />
        </p>
      )}
      {outbox.authRequired && (
        <p className="sync-strip__note sync-strip__note--danger" role="alert">
          The server asked you to sign in again before it takes {outbox.waiting === 1 ? 'the waiting response' : `the ${outbox.waiting} waiting responses`}.{' '}
          <a href={loginHref(email, paths.fieldUser)}>Sign in again</a>
        </p>
      )}
      {outbox.failed > 0 && (
        <p className="sync-strip__note sync-strip__note--danger">
          {outbox.failed === 1 ? '1 response needs your attention.' : `${outbox.failed} responses need your attention.`}{' '}
          {showResponsesLink && <Link to={paths.fieldUserResponse}>Open responses</Link>}
        </p>
      )}
      {outbox.returned > 0 && (
        <p className="sync-strip__note sync-strip__note--returned" data-testid="returned">
          {outbox.returned === 1 ? '1 response returned for fixing.' : `${outbox.returned} responses returned for fixing.`}{' '}
          <Link to={paths.fieldUserEarnings}>{outbox.returned === 1 ? 'Fix it' : 'Fix them'}</Link>
        </p>
      )}
      {/* Its line is kept while the estimate is read (after the form renders), so the form does not move down. */}
      {storage === undefined && <p className="sync-strip__storage" aria-hidden="true">&nbsp;</p>}
      {storage && (
        <p className={`sync-strip__storage${storage.nearlyFull ? ' is-full' : ''}`}>
          {storage.nearlyFull
            ? `Phone storage is nearly full (${formatBytes(storage.usage)} of ${formatBytes(storage.quota)}). Sync before taking more photos.`
            : `Storage used: ${formatBytes(storage.usage)} of ${formatBytes(storage.quota)}`}
        </p>
      )}
      {showResponsesLink && outbox.failed === 0 && outbox.loaded && (outbox.waiting > 0 || outbox.synced > 0) && (
        <Link to={paths.fieldUserResponse} className="sync-strip__link">See your responses</Link>
      )}
    </section>
  );
}
