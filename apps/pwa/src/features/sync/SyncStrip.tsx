import { Link } from '@tanstack/react-router';
import { loginHref } from '../../lib/navigate';
import { paths } from '../../lib/paths';
import { formatResponseDate } from '../../ui/format';
import { OfflineIcon } from '../../ui/icons';
import { useOnline } from '../../ui/useOnline';
import { useActiveSurvey } from '../surveys/active-survey';
import { formatBytes, UNSENT_WARN_MS, unsentAgeText, useOutboxState, useStorageEstimate, useSyncController, useUnsentAge } from './use-sync';
import type { AccountKey } from '../../session/account-key';
import { useT } from '../../lib/i18n';

/**
 * What the phone holds and whether the server has it, always in view on the field-user screens:
 * responses waiting, the last successful sync, Sync now (the outbox and the survey list), offline,
 * responses returned for fixing (Fix and resubmit is on the Earnings screen), and storage health.
 */
export function SyncStrip({ account, email, showResponsesLink = true }: { account: AccountKey; email: string; showResponsesLink?: boolean }) {
  const t = useT();
  const online = useOnline();
  const outbox = useOutboxState(account);
  const { running, photos, syncNow } = useSyncController();
  // A sync also asks for the survey list: a new version or a close reaches the phone.
  const { refresh } = useActiveSurvey();
  const storage = useStorageEstimate(`${outbox.waiting}/${outbox.synced}`);
  const unsentAge = useUnsentAge(account, outbox.waiting + outbox.failed);

  const headline = !outbox.loaded ? t('sync.checking') : outbox.waiting > 0 ? t('sync.savedOnPhone', { count: outbox.waiting }) : t('sync.nothingWaiting');
  return (
    <section className={`sync-strip${online ? '' : ' sync-strip--offline'}${outbox.waiting > 0 ? ' sync-strip--waiting' : ''}`} aria-label={t('sync.status')}>
      <div className="sync-strip__row">
        <span className={`sync-strip__net${online ? '' : ' is-offline'}`}>
          {online ? <span className="sync-strip__dot" aria-hidden="true" /> : <OfflineIcon size={16} />}
          {online ? t('common.online') : t('common.offline')}
        </span>
        <div className="sync-strip__main" role="status" aria-live="polite">
          <strong className="sync-strip__count" data-testid="waiting">{headline}</strong>
          {/* 'Not synced yet' only once something was queued: on a new phone the headline says all there is. */}
          {(outbox.lastSyncAt || outbox.waiting > 0 || outbox.failed > 0) && (
            <span className="sync-strip__last">
              {outbox.lastSyncAt ? t('sync.last', { when: formatResponseDate(new Date(outbox.lastSyncAt).toISOString()) }) : t('sync.notYet')}
            </span>
          )}
        </div>
        <button type="button" className="btn btn--ghost sync-strip__btn" onClick={() => void Promise.all([syncNow(), refresh()])} disabled={!online || running}>
          {running ? t('sync.syncing') : t('sync.now')}
        </button>
      </div>
      {photos && (
        <p className="sync-strip__last">
          {t('sync.photosLeft', { count: photos.photos, size: formatBytes(photos.bytesLeft) })} <progress value={photos.fraction} />
        </p>
      )}
      {outbox.authRequired && (
        <p className="sync-strip__note sync-strip__note--danger" role="alert">
          {t('sync.signInFirst', { count: outbox.waiting })}{' '}
          <a href={loginHref(email, paths.fieldUser)}>{t('sync.signInAgain')}</a>
        </p>
      )}
      {outbox.failed > 0 && (
        <p className="sync-strip__note sync-strip__note--danger">
          {t('sync.needAttention', { count: outbox.failed })}{' '}
          {showResponsesLink && <Link to={paths.fieldUserResponse}>{t('sync.openResponses')}</Link>}
        </p>
      )}
      {outbox.returned > 0 && (
        <p className="sync-strip__note sync-strip__note--returned" data-testid="returned">
          {t('sync.returned', { count: outbox.returned })}{' '}
          <Link to={paths.fieldUserEarnings}>{t('sync.fix', { count: outbox.returned })}</Link>
        </p>
      )}
      {unsentAge !== null && unsentAge > UNSENT_WARN_MS && (
        <p className="sync-strip__note sync-strip__note--danger" data-testid="unsent-old">
          {t('sync.unsentOld', { age: unsentAgeText(unsentAge) })}
        </p>
      )}
      {/* Its line is kept while the estimate is read (after the form renders), so the form does not move down. */}
      {storage === undefined && <p className="sync-strip__storage" aria-hidden="true">&nbsp;</p>}
      {storage && (
        <p className={`sync-strip__storage${storage.nearlyFull ? ' is-full' : ''}`}>
          {storage.nearlyFull
            ? t('sync.storageFull', { used: formatBytes(storage.usage), quota: formatBytes(storage.quota) })
            : t('sync.storageUsed', { used: formatBytes(storage.usage), quota: formatBytes(storage.quota) })}
        </p>
      )}
      {showResponsesLink && outbox.failed === 0 && outbox.loaded && (outbox.waiting > 0 || outbox.synced > 0) && (
        <Link to={paths.fieldUserResponse} className="sync-strip__link">{t('sync.seeResponses')}</Link>
      )}
    </section>
  );
}
