import { describe, expect, it } from 'vitest';
import { exportFileName, formatBytes, formatCell, MISSING, tableQuestions } from './cells';

const ORIGIN = 'https://app.surveybird.ng';
const cell = (v: Parameters<typeof formatCell>[0]) => formatCell(v, ORIGIN);

describe('table cells', () => {
  it('shows N/A for a missing or empty answer', () => {
    for (const v of [undefined, null, '', '   ', [], ['', ' ']]) expect(cell(v)).toEqual({ kind: 'missing', text: 'N/A' });
  });

  it('joins checkbox answers with ", "', () => {
    expect(cell(['Rice', 'Beans', 'Garri'])).toEqual({ kind: 'text', text: 'Rice, Beans, Garri' });
    expect(cell(['https://a.example'])).toEqual({ kind: 'text', text: 'https://a.example' });
  });

  it('links values that are https URLs, and only those', () => {
    expect(cell('https://maps.example.com/?q=6.5,3.4')).toEqual({ kind: 'link', text: 'https://maps.example.com/?q=6.5,3.4', href: 'https://maps.example.com/?q=6.5,3.4' });
    expect(cell('http://plain.example.com')).toEqual({ kind: 'text', text: 'http://plain.example.com' });
    expect(cell('javascript:alert(1)')).toEqual({ kind: 'text', text: 'javascript:alert(1)' });
    expect(cell('see https://a.example')).toEqual({ kind: 'text', text: 'see https://a.example' });
  });

  it("opens the server's photos, relative or from a development host", () => {
    expect(cell('/api/v1/files/image/4f1c.jpg')).toEqual({ kind: 'photo', text: 'View photo', href: `${ORIGIN}/api/v1/files/image/4f1c.jpg` });
    expect(cell('http://localhost:3000/api/v1/files/image/4f1c.jpg')).toEqual({ kind: 'photo', text: 'View photo', href: 'http://localhost:3000/api/v1/files/image/4f1c.jpg' });
    expect(cell('javascript:fetch("/api/v1/files/image/x")').kind).toBe('text');
    expect(cell('/api/v1/files/image/').kind).toBe('text');
  });

  it('shows formula-looking text as the text itself', () => {
    for (const v of ['=HYPERLINK("https://evil.example","click")', '+2348030000000', '-5', '@SUM(A1:A2)', '<b>bold</b>']) {
      expect(cell(v)).toEqual({ kind: 'text', text: v });
    }
  });

  it('keeps a location string as text', () => {
    expect(cell('6.524379, 3.379206')).toEqual({ kind: 'text', text: '6.524379, 3.379206' });
  });
});

describe('hidden personal answers', () => {
  it('shows the mask as hidden, whatever the question type, and never as a link or text', () => {
    expect(formatCell('hidden: personal', 'https://sb.test', 'image')).toEqual({ kind: 'hidden', text: 'hidden: personal' });
    expect(formatCell('hidden: personal', 'https://sb.test', 'text answer').kind).toBe('hidden');
    expect(formatCell('hidden personal', 'https://sb.test', 'text answer').kind).toBe('text');
  });
});

describe('export file name', () => {
  it("is '{title}_responses.xlsx'", () => {
    expect(exportFileName('Retail outlet audit - Lagos')).toBe('Retail outlet audit - Lagos_responses.xlsx');
    expect(exportFileName('Ọjà survey')).toBe('Ọjà survey_responses.xlsx');
  });

  it('replaces characters a file name cannot hold', () => {
    expect(exportFileName('Q1/Q2: "water" points?')).toBe('Q1_Q2_ _water_ points__responses.xlsx');
    expect(exportFileName('  \u0007 ')).toBe('survey_responses.xlsx');
    expect(exportFileName('Ọjà survey', 'stata.zip')).toBe('Ọjà survey_responses.stata.zip');
  });
});

describe('export progress', () => {
  it('counts bytes, then KB and MB', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(12_700)).toBe('12.4 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});

describe('issue 17 types', () => {
  const origin = 'https://app.surveybird.ng';
  it('opens a signature like a photo, and shows typed answers as their text', () => {
    expect(formatCell('/api/v1/files/image/abc.png', origin, 'signature')).toEqual({ kind: 'photo', text: 'View signature', href: `${origin}/api/v1/files/image/abc.png` });
    expect(formatCell('+2348031234567', origin, 'phone')).toEqual({ kind: 'text', text: '+2348031234567' });
    expect(formatCell('-12.5', origin, 'decimal')).toEqual({ kind: 'text', text: '-12.5' });
    expect(formatCell('2026-03-14', origin, 'date')).toEqual({ kind: 'text', text: '2026-03-14' });
    expect(formatCell('ada@example.ng', origin, 'email')).toEqual({ kind: 'text', text: 'ada@example.ng' });
    expect(formatCell('AB123456', origin, 'barcode')).toEqual({ kind: 'text', text: 'AB123456' });
  });
  it('shows a note as N/A whatever is stored', () => {
    expect(formatCell('text', origin, 'note')).toEqual({ kind: 'missing', text: MISSING });
  });
  it('shows "photo uploading" for a photo question whose photo is still on the phone, plain text elsewhere', () => {
    expect(formatCell('pending upload', ORIGIN, 'image')).toEqual({ kind: 'pending', text: 'photo uploading' });
    expect(formatCell('pending upload', ORIGIN, 'live images')).toEqual({ kind: 'pending', text: 'photo uploading' });
    expect(formatCell('pending upload', ORIGIN, 'text')).toEqual({ kind: 'text', text: 'pending upload' });
  });
});

describe('tableQuestions', () => {
  it('keeps what the export\'s main sheet keeps: no group titles, no repeat members (nested ones too), the repeat itself', () => {
    const qs = [
      { id: 'v', type: 'text answer' }, { id: 'g', type: 'group' }, { id: 'h', type: 'text answer', parent: 'g' },
      { id: 'm', type: 'repeat', parent: 'g' }, { id: 'n', type: 'text answer', parent: 'm' }, { id: 'p', type: 'repeat', parent: 'm' }, { id: 's', type: 'decimal', parent: 'p' },
      { id: 't', type: 'calculate' },
    ];
    expect(tableQuestions(qs).map((q) => q.id)).toEqual(['v', 'h', 'm', 't']);
  });
});
