import type { PayoutDetail } from '@survey-bird/contracts';
import { api } from '../../api';
import { saveBlob } from '../insight/download';

export type PayoutFile = 'xlsx' | 'csv';

/** The bank transfer file; the CSV is the transfers part (the xlsx also has the responses sheet). */
export async function downloadPayout(payout: PayoutDetail | { _id: string; createdAt: string }, surveyTitle: string, format: PayoutFile): Promise<void> {
  const blob = await api.call('payoutDownload', { params: { id: payout._id }, query: { format, part: 'transfers' } });
  saveBlob(blob, `${surveyTitle} payout ${payout.createdAt.slice(0, 10)}.${format}`);
}

export const PAYOUT_STATUS_LABEL = { draft: 'Draft', paid: 'Paid', cancelled: 'Cancelled' } as const;
