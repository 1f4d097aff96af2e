import { ApiMsg, Msg } from '@survey-bird/contracts';
import { serverText } from '../../lib/i18n';

/** A form check's words (the contracts' zod messages, English) in the user's language, by the message's code. */
export function issueText(message: string): string {
  const found = Object.entries(Msg).find(([, v]) => v === message) ?? Object.entries(ApiMsg).find(([, v]) => v === message);
  return serverText(message, found?.[0]);
}
