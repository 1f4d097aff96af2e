import { Msg } from '@survey-bird/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { toasts } from '../../lib/toast-store';
import { noticeIfUpdated } from './survey-updated';
import { accountKey } from '../../session/account-key';

const shown = () => toasts.get().filter((t) => t.text === Msg.surveyUpdated).length;

beforeEach(() => {
  localStorage.clear();
  toasts.set([]);
});

describe('"This survey was updated"', () => {
  it('says nothing at the first sight of a survey, once when a higher version arrives, and not again for it', () => {
    noticeIfUpdated(accountKey('ada@x.ng'), 's1', 1);
    expect(shown()).toBe(0);
    noticeIfUpdated(accountKey('ada@x.ng'), 's1', 2);
    expect(shown()).toBe(1);
    toasts.set([]);
    noticeIfUpdated(accountKey('ada@x.ng'), 's1', 2);
    expect(shown()).toBe(0);
    // Another account on the same phone keeps its own record.
    noticeIfUpdated(accountKey('bola@x.ng'), 's1', 2);
    expect(shown()).toBe(0);
  });
});
