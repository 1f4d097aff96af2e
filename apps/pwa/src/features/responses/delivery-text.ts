import { Msg } from '@survey-bird/contracts';
import { msgId, t } from '../../lib/i18n';

/** offline/outbox.ts deliveryLabel's English words (tests and the office read them) in the user's language. */
const IDS: Record<string, string> = {
  [Msg.savedOnPhone]: msgId('msg.savedOnPhone'),
  [Msg.receivedByServer]: msgId('msg.receivedByServer'),
  paid: msgId('review.paid'),
  'awaiting review': msgId('review.pending'),
  approved: msgId('review.approved'),
  'returned for fixing': msgId('review.returned'),
  rejected: msgId('review.rejected'),
  failed: msgId('review.failed'),
};

export const deliveryText = (label: string): string => (IDS[label] ? t(IDS[label]) : label);
