import { PayoutMsg, type PayoutDetail } from '@survey-bird/contracts';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PayoutDialog } from './PayoutDialog';

vi.mock('../../api', () => ({ api: { call: vi.fn() }, ApiError: class extends Error {} }));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const payout = (status: PayoutDetail['status']): PayoutDetail => ({
  _id: 'p1', survey_id: 's1', status, total: 300, responseCount: 3, fieldUserCount: 1, reference: null,
  createdAt: '2026-11-20T08:00:00.000Z', paidAt: null, cancelledAt: status === 'cancelled' ? '2026-11-21T08:00:00.000Z' : null,
  lines: [{ fieldUserId: 'm1', fullName: 'Ada Obi', email: 'ada@team.ng', bank: 'Zenith Bank', bankCode: '057', accountNumber: '0123456789', accountName: 'Ada Obi', amount: 300, responseCount: 3 }],
});

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

function render(status: PayoutDetail['status']) {
  const host = document.body.appendChild(document.createElement('div'));
  root = createRoot(host);
  act(() => root!.render(createElement(PayoutDialog, { id: 'p1', surveyTitle: 'Wells', readOnly: false, created: { payout: payout(status), skipped: [], held: [] }, onClose: () => undefined, onChanged: () => undefined })));
  return [...document.querySelectorAll('button')].filter((b) => b.textContent?.startsWith('Download'));
}

describe('the bank file of a payout', () => {
  it('is not offered for a cancelled payout, and the dialog says why', () => {
    const downloads = render('cancelled');
    expect(downloads).toHaveLength(2);
    for (const b of downloads) {
      expect(b.disabled).toBe(true);
      expect(document.getElementById(b.getAttribute('aria-describedby')!)?.textContent).toBe(PayoutMsg.cancelledNoDownload);
    }
  });

  it('is offered for a draft', () => {
    const downloads = render('draft');
    expect(downloads.map((b) => b.disabled)).toEqual([false, false]);
    expect(document.body.textContent).not.toContain(PayoutMsg.cancelledNoDownload);
  });
});
