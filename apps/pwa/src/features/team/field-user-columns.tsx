import type { DeviceSummary, FieldUser } from '@survey-bird/contracts';
import { formatAgo, formatNaira, formatResponseDate } from '../../ui/format';
import { EmailText, type Column } from './DataTable';
import { serialNumber } from './paging';

const missing = <span className="cell-muted">N/A</span>;
const DAY_MS = 86_400_000;

/** Work sits on the phone (waiting, failed or photos) and it has not synced for the organization's number of days. */
export function syncOverdue(device: DeviceSummary | null | undefined, staleSyncDays: number, now = Date.now()): boolean {
  if (!device || device.waiting + device.failed + device.photosWaiting === 0) return false;
  const last = device.lastSyncAt ? Date.parse(device.lastSyncAt) : Number.NaN;
  return Number.isNaN(last) || now - last >= staleSyncDays * DAY_MS;
}

function LastSync({ device, staleSyncDays }: { device: DeviceSummary | null | undefined; staleSyncDays: number }) {
  if (!device) return <span className="cell-muted" title="This phone has not reported yet">Never</span>;
  const overdue = syncOverdue(device, staleSyncDays);
  return (
    <span className={overdue ? 'sync-overdue' : undefined} title={`Last sync ${formatResponseDate(device.lastSyncAt, new Date(), true)}; reported ${formatResponseDate(device.reportedAt, new Date(), true)}`}>
      {formatAgo(device.lastSyncAt)}
      {overdue && <span className="sync-overdue__note"> · work waiting</span>}
    </span>
  );
}

/**
 * The field-user table's columns shared by the organization's and the supervisor's pages (spec
 * screens 5 and 10); `staleSyncDays` is the organization's threshold, which the list reply carries.
 */
export function fieldUserColumns(page: number, staleSyncDays: number): Column<FieldUser>[] {
  return [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: 'Full Name', className: 'wrap wrap--name', cell: (r) => r.fullName },
    { header: 'Phone Number', cell: (r) => r.phoneNumber },
    { header: 'Email Address', className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: 'Bank', className: 'wrap', cell: (r) => r.bank || missing },
    { header: 'Account No.', cell: (r) => r.accountNumber || missing },
    { header: 'Account Name', className: 'wrap', cell: (r) => r.accountName || missing },
    { header: 'Fee', className: 'num', cell: (r) => formatNaira(r.outstanding) },
    { header: 'Awaiting review', className: 'num', cell: (r) => formatNaira(r.awaitingReview) },
    { header: 'Last sync', className: 'wrap', cell: (r) => <LastSync device={r.device} staleSyncDays={staleSyncDays} /> },
    {
      header: 'Waiting on phone',
      className: 'num',
      cell: (r) => (r.device ? `${r.device.waiting}${r.device.photosWaiting ? ` · ${r.device.photosWaiting} photo${r.device.photosWaiting === 1 ? '' : 's'}` : ''}` : missing),
    },
    { header: 'Failed', className: 'num', cell: (r) => (r.device ? <span className={r.device.failed ? 'sync-overdue' : undefined}>{r.device.failed}</span> : missing) },
    { header: 'App version', cell: (r) => r.device?.appVersion || missing },
    { header: 'Flags', className: 'num', cell: (r) => (r.flags === undefined ? missing : <span className={r.flags ? 'flag-count' : undefined} title="Open quality flags on their responses">{r.flags}</span>) },
  ];
}
