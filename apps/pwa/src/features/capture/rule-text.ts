import { Msg } from '@survey-bird/contracts';
import { hasMessage, t } from '../../lib/i18n';

/**
 * The form's rules (contracts form-rules and form-engine, shared with the server) write their
 * problems in English; the form shows each in the user's language through the catalog's `msg.<code>`
 * of the same message (codes as in contracts message-codes.ts). The rules' own tables are registered
 * by the lazy rules chunk when it loads (form-rules.ts), so the form's route does not carry them and
 * the chunks import no cycle. A survey's own constraint message, written by its author, stays as written.
 */
const byText = new Map<string, string>();

export function registerMessages(prefix: string, table: Readonly<Record<string, unknown>>): void {
  for (const [key, text] of Object.entries(table)) if (typeof text === 'string' && !byText.has(text)) byText.set(text, prefix + key);
}
registerMessages('', Msg);

export function ruleText(problem: string): string {
  const code = byText.get(problem);
  return code && hasMessage(`msg.${code}`) ? t(`msg.${code}`) : problem;
}
