import { describe, expect, it } from 'vitest';
import { LINK_MARK, MISSING, answerCell } from './export-rows.js';

const URL = 'https://api.surveybird.ng';

describe('export cells of the issue 17 types', () => {
  it('links a signature like a photo', () => {
    expect(answerCell('/api/v1/files/image/abc.png', URL, 'signature')).toBe(`${LINK_MARK}${URL}/api/v1/files/image/abc.png`);
  });
  it('keeps a valid number as written, even negative, and quotes anything else that starts like a formula', () => {
    expect(answerCell('-5', URL, 'number')).toBe('-5');
    expect(answerCell('-2.75', URL, 'decimal')).toBe('-2.75');
    expect(answerCell('-2+3', URL, 'number')).toBe("'-2+3");
    expect(answerCell('-5', URL, 'text answer')).toBe("'-5");
  });
  it('writes dates, times, e-mails and barcodes as text, and a phone number guarded', () => {
    expect(answerCell('2026-03-14', URL, 'date')).toBe('2026-03-14');
    expect(answerCell('09:30', URL, 'time')).toBe('09:30');
    expect(answerCell('ada@example.ng', URL, 'email')).toBe('ada@example.ng');
    expect(answerCell('AB123456', URL, 'barcode')).toBe('AB123456');
    expect(answerCell('+2348031234567', URL, 'phone')).toBe("'+2348031234567");
  });
  it('writes N/A for a note', () => {
    expect(answerCell('anything', URL, 'note')).toBe(MISSING);
    expect(answerCell(undefined, URL, 'number')).toBe(MISSING);
  });
});
