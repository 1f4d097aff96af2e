import type { PayoutLine } from '@survey-bird/contracts';
import { formatNaira, formatNumber } from '../../ui/format';
import { useT } from '../../lib/i18n';

/** What a payout pays: one line per field user, with the bank details frozen when it was made. */
export function PayoutLines({ lines }: { lines: PayoutLine[] }) {
  const t = useT();
  return (
    <div className="payout-lines__frame" tabIndex={0} role="region" aria-label={t('office.payout.linesLabel')}>
      <table className="payout-lines">
        <thead>
          <tr><th>{t('office.responses.fieldUser')}</th><th>{t('office.payout.bank')}</th><th>{t('office.payout.accountNumber')}</th><th>{t('office.payout.accountName')}</th><th className="num">{t('office.responses.title')}</th><th className="num">{t('office.payout.amount')}</th></tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.fieldUserId}>
              <td>{l.fullName}</td><td>{l.bank}{l.bankCode ? ` (${l.bankCode})` : ''}</td><td>{l.accountNumber}</td><td>{l.accountName}</td>
              <td className="num">{formatNumber(l.responseCount)}</td><td className="num">{formatNaira(l.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
