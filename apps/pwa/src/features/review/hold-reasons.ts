import type { HoldReason } from '@survey-bird/contracts';
import { msgId, t } from '../../lib/i18n';

/** Why a response is held from payouts, for the office (contracts' HoldReasonText in English). */
const HOLD_REASON: Record<HoldReason, string> = {
  not_reviewed: msgId('office.hold.notReviewed'),
  audio_not_reviewed: msgId('office.hold.audioNotReviewed'),
  backcheck: msgId('office.hold.backcheck'),
};

export const holdReasonText = (reason: HoldReason): string => t(HOLD_REASON[reason]);
