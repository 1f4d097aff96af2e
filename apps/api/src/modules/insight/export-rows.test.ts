import { describe, expect, it } from 'vitest';
import { DATE_MARK, LINK_MARK, MISSING_MARK, NUMBER_MARK, TIME_MARK, answerCell, exportColumns } from './export-rows.js';

const URL = 'https://api.surveybird.ng';

describe('export cells of the issue 17 types', () => {
  it('links a signature like a photo', () => {
    expect(answerCell('/api/v1/files/image/abc.png', URL, 'signature')).toBe(`${LINK_MARK}${URL}/api/v1/files/image/abc.png`);
  });
  it('signs a stored photo\'s link, relative or absolute, and never an outside one', () => {
    const sign = (id: string) => `exp=9&sig=${id.length}`;
    expect(answerCell('/api/v1/files/image/abc.png', URL, 'image', sign)).toBe(`${LINK_MARK}${URL}/api/v1/files/image/abc.png?exp=9&sig=7`);
    expect(answerCell(`${URL}/api/v1/files/image/abcd`, URL, 'image', sign)).toBe(`${LINK_MARK}${URL}/api/v1/files/image/abcd?exp=9&sig=4`);
    expect(answerCell('https://example.com/api/v1/files/image/abc', URL, 'text', sign)).toBe(`${LINK_MARK}https://example.com/api/v1/files/image/abc`);
  });
  it('marks a valid number as a number cell, even negative, and quotes anything else that starts like a formula', () => {
    expect(answerCell('-5', URL, 'number')).toBe(`${NUMBER_MARK}-5`);
    expect(answerCell('-2.75', URL, 'decimal')).toBe(`${NUMBER_MARK}-2.75`);
    expect(answerCell('-2+3', URL, 'number')).toBe("'-2+3");
    expect(answerCell('-5', URL, 'text answer')).toBe('-5');
    expect(answerCell('-5+1', URL, 'text answer')).toBe("'-5+1");
  });
  it('keeps a number of more than 15 digits (beyond what Excel holds exactly) as text', () => {
    expect(answerCell('123456789012345', URL, 'number')).toBe(`${NUMBER_MARK}123456789012345`);
    expect(answerCell('1234567890123456', URL, 'number')).toBe('1234567890123456');
  });
  it('marks dates and times for date cells, and writes e-mails, barcodes and phone numbers as text, unquoted', () => {
    expect(answerCell('2026-03-14', URL, 'date')).toBe(`${DATE_MARK}2026-03-14`);
    expect(answerCell('09:30', URL, 'time')).toBe(`${TIME_MARK}09:30`);
    expect(answerCell('14/03/2026', URL, 'date')).toBe('14/03/2026');
    expect(answerCell('ada@example.ng', URL, 'email')).toBe('ada@example.ng');
    expect(answerCell('AB123456', URL, 'barcode')).toBe('AB123456');
    expect(answerCell('+2348031234567', URL, 'phone')).toBe('+2348031234567');
  });
  it('never lets an answer forge a mark', () => {
    for (const mark of [NUMBER_MARK, DATE_MARK, TIME_MARK, LINK_MARK]) expect(answerCell(`${mark}12`, URL, 'text answer').startsWith(mark)).toBe(false);
  });
  it('writes N/A for a note', () => {
    expect(answerCell('anything', URL, 'note')).toBe(MISSING_MARK);
    expect(answerCell(undefined, URL, 'number')).toBe(MISSING_MARK);
  });
});

describe('a form with groups and repeats on the main sheet', () => {
  it('has a column per question answered at the response\'s level, a repeat as its count', () => {
    const questions = [
      { id: 'hh', text: 'Household', type: 'group' },
      { id: 'head', text: 'Head', type: 'text answer', parent: 'hh' },
      { id: 'members', text: 'Member', type: 'repeat' },
      { id: 'name', text: 'Name', type: 'text answer', parent: 'members' },
      { id: 'total', text: 'Total', type: 'calculate' },
    ];
    expect(exportColumns([{ version: 1, questions }]).headers).toEqual(['Head', 'Member', 'Total']);
    expect(answerCell([{ Name: 'Musa' }, { Name: 'Aisha' }], 'https://x.ng', 'repeat')).toBe('2 members');
    expect(answerCell(['Rice', 'Beans'], 'https://x.ng', 'checkbox')).toBe('Rice, Beans');
  });
});
