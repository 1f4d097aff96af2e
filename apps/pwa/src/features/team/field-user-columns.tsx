import type { FieldUser } from '@survey-bird/contracts';
import { formatNaira } from '../../ui/format';
import { EmailText, type Column } from './DataTable';
import { serialNumber } from './paging';

const missing = <span className="cell-muted">N/A</span>;

/** The field-user table's columns shared by the organization's and the supervisor's pages (spec screens 5 and 10). */
export function fieldUserColumns(page: number): Column<FieldUser>[] {
  return [
    { header: 'S/N', cell: (_, i) => serialNumber(page, i) },
    { header: 'Full Name', className: 'wrap wrap--name', cell: (r) => r.fullName },
    { header: 'Phone Number', cell: (r) => r.phoneNumber },
    { header: 'Email Address', className: 'wrap wrap--email', text: (r) => r.email, cell: (r) => <EmailText email={r.email} /> },
    { header: 'Bank', className: 'wrap', cell: (r) => r.bank || missing },
    { header: 'Account No.', cell: (r) => r.accountNumber || missing },
    { header: 'Account Name', className: 'wrap', cell: (r) => r.accountName || missing },
    { header: 'Fee', className: 'num', cell: (r) => formatNaira(r.outstanding) },
    { header: 'Awaiting review', className: 'num', cell: (r) => (r.awaitingReview ? formatNaira(r.awaitingReview) : missing) },
  ];
}
