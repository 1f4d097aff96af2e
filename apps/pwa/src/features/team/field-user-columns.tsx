import type { DeviceSummary, FieldUser } from '@survey-bird/contracts';
import { formatAgo, formatNaira, formatNumber, formatResponseDate } from '../../ui/format';
import { t } from '../../lib/i18n';
import { EmailText, type Column } from './DataTable';
import { serialNumber } from './paging';

const Missing = () => <span className="cell-muted">{t('common.na')}</span>;
const DAY_MS = 86_400_000;

/** Work sits on the phone (waiting, failed or photos) and it has not synced for the organization's number of days. */
export function syncOverdue(device: DeviceSummary | null | undefined, staleSyncDays: number, now = Date.now()): boolean {
  if (!device || device.waiting + device.failed + device.photosWaiting === 0) return false;
  const last = device.lastSyncAt ? Date.parse(device.lastSyncAt) : Number.NaN;
  return Number.isNaN(last) || now - last >= staleSyncDays * DAY_MS;
}

function LastSync({ device, staleSyncDays }: { device: DeviceSummary | null | undefined; staleSyncDays: number }) {
  if (!device) return <span className="cell-muted" title={t('office.team.notReported')}>{t('office.team.never')}</span>;
  const overdue = syncOverdue(device, staleSyncDays);
  return (
    <span className={overdue ? 'sync-overdue' : undefined} title={t('office.team.lastSyncTitle', { sync: formatResponseDate(device.lastSyncAt, new Date(), true), reported: formatResponseDate(device.reportedAt, new Date(), true) })}>
      {formatAgo(device.lastSyncAt)}
      {overdue && <span className="sync-overdue__note"> · {t('office.team.workWaiting')}</span>}
    </span>
  );
}

/**
 * The field-user table's columns shared by the organization's and the supervisor's pages (spec
 * screens 5 and 10); `staleSyncDays` is the organization's threshold, which the list reply carries.
 */
export function fieldUserColumns(page: number, staleSyncDays: number): Column<FieldUser>[] {
  const missing = <Missing />;
  return [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: t('office.team.fullName'), className: 'wrap wrap--name', cell: (r) => r.fullName },
    { header: t('office.team.phone'), cell: (r) => r.phoneNumber },
    { header: t('office.team.email'), className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: t('office.payout.bank'), className: 'wrap', cell: (r) => r.bank || missing },
    { header: t('office.team.accountNo'), cell: (r) => r.accountNumber || missing },
    { header: t('office.team.accountName'), className: 'wrap', cell: (r) => r.accountName || missing },
    { header: t('office.team.fee'), className: 'num', cell: (r) => formatNaira(r.outstanding) },
    { header: t('office.team.awaitingReview'), className: 'num', cell: (r) => formatNaira(r.awaitingReview) },
    { header: t('office.team.lastSync'), className: 'wrap', cell: (r) => <LastSync device={r.device} staleSyncDays={staleSyncDays} /> },
    {
      header: t('office.team.waitingOnPhone'),
      className: 'num',
      cell: (r) => (r.device ? `${formatNumber(r.device.waiting)}${r.device.photosWaiting ? ` · ${t('office.team.photos', { count: r.device.photosWaiting })}` : ''}` : missing),
    },
    { header: t('office.team.failed'), className: 'num', cell: (r) => (r.device ? <span className={r.device.failed ? 'sync-overdue' : undefined}>{formatNumber(r.device.failed)}</span> : missing) },
    { header: t('office.team.appVersion'), cell: (r) => r.device?.appVersion || missing },
    { header: t('office.responses.flags'), className: 'num', cell: (r) => (r.flags === undefined ? missing : <span className={r.flags ? 'flag-count' : undefined} title={t('office.team.openFlags')}>{formatNumber(r.flags)}</span>) },
  ];
}
