import type { PayoutLine } from '@survey-bird/contracts';
import { formatNaira } from '../../ui/format';

/** What a payout pays: one line per field user, with the bank details frozen when it was made. */
export function PayoutLines({ lines }: { lines: PayoutLine[] }) {
  return (
    <div className="payout-lines__frame" tabIndex={0} role="region" aria-label="Payout lines (scrolls sideways)">
      <table className="payout-lines">
        <thead>
          <tr><th>Field user</th><th>Bank</th><th>Account number</th><th>Account name</th><th className="num">Responses</th><th className="num">Amount</th></tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.fieldUserId}>
              <td>{l.fullName}</td><td>{l.bank}{l.bankCode ? ` (${l.bankCode})` : ''}</td><td>{l.accountNumber}</td><td>{l.accountName}</td>
              <td className="num">{l.responseCount}</td><td className="num">{formatNaira(l.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
