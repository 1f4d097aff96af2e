import { describe, expect, it } from 'vitest';
import type { EarningsLine } from '../../offline';
import { formatResponseDate } from '../../ui/format';
import { timesText } from './earnings-times';

const T = { captured: '2026-11-20T09:59:00.000Z', submitted: '2026-11-20T10:00:00.000Z', reviewed: '2026-11-21T10:00:00.000Z', fixed: '2026-11-22T10:00:00.000Z', paid: '2026-11-23T10:00:00.000Z' };
const f = formatResponseDate;
const line = (extra: Partial<EarningsLine>): EarningsLine => ({
  id: 'r1', surveyId: 's1', status: 'approved', comment: null, revision: 1, paid: false, amount: 150,
  capturedAt: T.captured, submittedAt: T.submitted, reviewedAt: null, fixedAt: null, paidAt: null, answers: undefined, fixQueued: false, ...extra,
});

describe('timesText: each time on an Earnings line says what it is', () => {
  it('never calls the review or payment time "Submitted"', () => {
    expect(timesText(line({ reviewedAt: T.reviewed }))).toBe(`Submitted ${f(T.submitted)} · Approved ${f(T.reviewed)}`);
    expect(timesText(line({ status: 'returned', reviewedAt: T.reviewed }))).toBe(`Submitted ${f(T.submitted)} · Returned ${f(T.reviewed)}`);
    expect(timesText(line({ status: 'rejected', reviewedAt: T.reviewed }))).toBe(`Submitted ${f(T.submitted)} · Rejected ${f(T.reviewed)}`);
    expect(timesText(line({ paid: true, reviewedAt: T.reviewed, paidAt: T.paid }))).toBe(`Submitted ${f(T.submitted)} · Approved ${f(T.reviewed)} · Paid ${f(T.paid)}`);
    expect(timesText(line({ status: 'pending', revision: 2, fixedAt: T.fixed }))).toBe(`Submitted ${f(T.submitted)} · Fix received ${f(T.fixed)}`);
  });

  it('says captured when the server has not received it, or when only the phone knows when it was taken', () => {
    expect(timesText(line({ status: 'sending', submittedAt: null }))).toBe(`Captured ${f(T.captured)}, not sent yet`);
    expect(timesText(line({ submittedAt: null, reviewedAt: T.reviewed }))).toBe(`Captured ${f(T.captured)} · Approved ${f(T.reviewed)}`);
    expect(timesText(line({ submittedAt: null, capturedAt: null, paid: true, paidAt: T.paid }))).toBe(`Paid ${f(T.paid)}`);
  });
});
