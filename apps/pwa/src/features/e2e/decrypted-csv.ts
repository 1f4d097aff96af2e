import { answerOf, type ResponseRow, type Survey } from '@survey-bird/contracts';
import { formatCell, tableQuestions } from '../insight/cells';

const quote = (text: string) => (/[",\r\n]/.test(text) || /^[=+\-@\t]/.test(text) ? `"${(/^[=+\-@\t]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"` : text);

/**
 * Opened rows as CSV, made in the browser (the server cannot read the answers): one line per
 * response, the table's columns. Cells that a spreadsheet would run as a formula are quoted with a
 * leading apostrophe, as the server's export does.
 */
export function decryptedCsv(survey: Pick<Survey, 'questions'>, rows: readonly ResponseRow[]): string {
  const questions = tableQuestions(survey.questions);
  const head = ['Response id', 'Field user', 'Field user email', 'Captured', 'Received', 'Status', ...questions.map((q) => q.text)];
  const lines = rows.map((r) => [r._id, r.fieldUser?.fullName ?? r.fullName, r.fieldUser?.email ?? r.email, r.capturedAt ?? '', r.createdAt, r.status, ...questions.map((q) => {
    const cell = formatCell(answerOf(r.answers, q.text), undefined, q.type);
    return cell.kind === 'missing' ? '' : 'href' in cell ? cell.href : cell.text;
  })]);
  return `\ufeff${[head, ...lines].map((line) => line.map((v) => quote(String(v))).join(',')).join('\r\n')}\r\n`;
}
