import { i18n } from '@lingui/core';
import type { PayoutDetail, ResponseDetailReply, TopPerformerReply } from '@survey-bird/contracts';
import { act, createElement, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages as en } from '../../locales/en/messages.po';
import { messages as ha } from '../../locales/ha/messages.po';
import { readCatalog } from '../../../i18n/catalogs';
import { HeldSummary } from '../payouts/HeldSummary';
import { PayoutDialog } from '../payouts/PayoutDialog';
import { EraseForm } from '../privacy/EraseForm';
import { HiddenPersonal } from '../privacy/HiddenPersonal';
import { FlagChips } from '../review/FlagChips';
import { FlagsSection } from '../review/FlagsSection';
import { ReviewActions } from '../review/ReviewActions';
import { StatusChip } from '../review/StatusChip';
import { CoverageChart } from './CoverageChart';
import { StatCards } from './StatCards';

vi.mock('../../api', () => ({ api: { call: vi.fn(() => new Promise(() => undefined)) }, ApiError: class extends Error {} }));
// A reviewer's office role: the verdict and dismiss buttons show.
vi.mock('../accounts/session', () => ({ useOfficeMay: () => true }));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Data as the server sends it, in words that are no catalog's (a flag's reason is the server's).
const cards: TopPerformerReply = { totalResponses: 1234, flaggedResponses: 3, activeFieldUsers: 5, topPerformer: 'Amina Bello' } as TopPerformerReply;
const detail = {
  _id: 'r1', survey_id: 's1', answers: {}, fieldUser: { fullName: 'Amina Bello', email: 'amina@kano.ng' }, status: 'pending', comment: null, paid: false,
  createdAt: '2026-11-20T08:00:00.000Z', audit: [], meta: { photos: [] }, audioAudit: null, held: [], checking: false,
  flags: [{ flag: 'too_fast', reason: '40 s', otherResponseId: null, dismissed: null }],
} as unknown as ResponseDetailReply;
const payout: PayoutDetail = {
  _id: 'p1', survey_id: 's1', status: 'draft', total: 12500, responseCount: 3, fieldUserCount: 1, reference: null,
  createdAt: '2026-11-20T08:00:00.000Z', paidAt: null, cancelledAt: null,
  lines: [{ fieldUserId: 'm1', fullName: 'Amina Bello', email: 'amina@kano.ng', bank: 'Zenith', bankCode: '057', accountNumber: '0123456789', accountName: 'Amina Bello', amount: 12500, responseCount: 3 }],
};

const screens = (): ReactElement[] => [
  createElement(StatCards, { cards, loading: false, expected: 2000 }),
  createElement(CoverageChart, { responses: 1234, expected: null, loading: false }),
  createElement(StatusChip, { status: 'returned' }),
  createElement(FlagChips, { row: { checking: false, flags: detail.flags } }),
  createElement(ReviewActions, { onVerdict: async () => undefined }),
  createElement(FlagsSection, { detail, onDismissed: () => undefined }),
  createElement(HeldSummary, { held: [{ reason: 'not_reviewed', count: 2, amount: 1000 }], title: 'Held' }),
  createElement(HiddenPersonal),
  createElement(EraseForm, { responseId: 'r1', onErased: () => undefined, onCancel: () => undefined }),
  createElement(PayoutDialog, { id: 'p1', surveyTitle: 'Kano', readOnly: false, created: { payout, skipped: [], held: [] }, onClose: () => undefined, onChanged: () => undefined }),
];

let root: Root | null = null;
beforeEach(() => {
  const host = document.body.appendChild(document.createElement('div'));
  root = createRoot(host);
});
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
  act(() => i18n.loadAndActivate({ locale: 'en', locales: ['en-NG'], messages: en }));
});

function render(): void {
  act(() => root!.render(createElement('div', null, ...screens())));
}

/** Everything a user reads or hears: the text, and the labels, titles and placeholders. */
function shown(): string {
  const attrs = [...document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')]
    .flatMap((e) => ['aria-label', 'title', 'placeholder', 'alt'].map((a) => e.getAttribute(a) ?? ''));
  return [document.body.textContent ?? '', ...attrs].join('\n');
}

describe('office screens in Hausa', () => {
  it('show the Hausa catalog\'s words and none of the English ones', () => {
    act(() => i18n.loadAndActivate({ locale: 'ha', locales: ['en-NG'], messages: ha }));
    render();
    const text = shown();
    for (const words of ['Jimillar amsoshi', 'Ma\'aikatan fili masu aiki', 'Alamun inganci', 'Sauri da yawa', 'Amince', 'Mayar', 'Duba wannan biyan kuɗi', 'Daftari', 'Sauke CSV', 'mai dubawa bai amince ba tukuna', 'An mayar', 'Goge bayanan sirri']) {
      expect(text, words).toContain(words);
    }
    // Each English text of the catalog (one a translator changed) is absent: a screen showing it was not translated.
    const hausa = new Map(readCatalog('ha').entries.map((e) => [e.id, e.str]));
    const english = readCatalog('en').entries.filter((e) => !e.str.includes('{') && e.str.length >= 6 && hausa.get(e.id) !== e.str);
    const leaked = english.filter((e) => text.includes(e.str)).map((e) => `${e.id}: ${e.str}`);
    expect(leaked).toEqual([]);
    // Words no Hausa sentence has, wherever they came from (a string written in the code, not the catalog).
    expect(text.match(/\b(the|your|this|response|responses|payout|survey|flags?|approve|reject|download|cancel|total)\b/gi)).toBeNull();
  });

  it('switch language while shown, numbers and naira by the locale', () => {
    render();
    expect(shown()).toContain('Total responses');
    expect(shown()).toContain('1,234');
    expect(shown()).toContain('₦12,500');
    act(() => i18n.loadAndActivate({ locale: 'ha', locales: ['en-NG'], messages: ha }));
    expect(shown()).toContain('Jimillar amsoshi');
    expect(shown()).not.toContain('Total responses');
    expect(shown()).toContain('₦12,500');
  });
});
