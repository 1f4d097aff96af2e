import { OfficeRole } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { NAV, navItems } from './SidePane';
import { paths } from '../lib/paths';
import { officeMay } from '../api';

describe('officeMay: what an office role sees, from the real route table', () => {
  it('hides review from analysts and finance, pay from analysts and reviewers, office users from all but owners', () => {
    expect(officeMay(OfficeRole.analyst, 'reviewResponses')).toBe(false);
    expect(officeMay(OfficeRole.finance, 'reviewResponses')).toBe(false);
    expect(officeMay(OfficeRole.reviewer, 'reviewResponses')).toBe(true);
    expect(officeMay(OfficeRole.reviewer, 'createPayout')).toBe(false);
    expect(officeMay(OfficeRole.finance, 'createPayout')).toBe(true);
    expect(officeMay(OfficeRole.analyst, 'surveySettings')).toBe(false);
    expect(officeMay(OfficeRole.admin, 'officeUsers')).toBe(false);
    expect(officeMay(OfficeRole.owner, 'officeUsers')).toBe(true);
  });

  it('leaves accounts without an office role to the route access, and routes without office roles open', () => {
    expect(officeMay(null, 'reviewResponses')).toBe(true);
    expect(officeMay(undefined, 'createPayout')).toBe(true);
    expect(officeMay(OfficeRole.analyst, 'currentUser')).toBe(true);
  });

  it('the side pane names a route for the Payouts, Bank changes and Office users links', () => {
    const links = NAV.organization.filter((i) => i.needs).map((i) => [i.label, i.needs]);
    expect(links).toEqual([['nav.payouts', 'payouts'], ['nav.bankChanges', 'bankChangeRequests'], ['nav.backchecks', 'surveyBackchecks'], ['nav.auditLog', 'audit'], ['nav.respondents', 'respondents'], ['nav.webhooks', 'surveyWebhooks'], ['nav.apiTokens', 'tokens'], ['nav.officeUsers', 'officeUsers']]);
    // Bank changes: owner, admin and finance (who pay), never an analyst or a reviewer.
    expect([OfficeRole.finance, OfficeRole.analyst, OfficeRole.reviewer].map((r) => officeMay(r, 'bankChangeRequests'))).toEqual([true, false, false]);
  });
});

describe('navItems: a field user sees Back-checks only as a back-checker', () => {
  // Labels are catalog ids (the shell shows them in the account's language).
  const labels = (backchecker: boolean, pathname = '/survey-bird/field-user') => navItems('field_user', null, backchecker, pathname).map((i) => i.label);
  it('hides the link from a field user who back-checks nowhere, shows it to one who does', () => {
    expect(labels(false)).toEqual(['nav.questions', 'nav.earnings', 'nav.myMap', 'nav.fieldUserSettings']);
    expect(labels(true)).toEqual(['nav.questions', 'nav.earnings', 'nav.myMap', 'nav.backchecks', 'nav.fieldUserSettings']);
  });
  it('keeps it while the field user is on the screen, and for every supervisor', () => {
    expect(labels(false, paths.fieldUserBackchecks)).toContain('nav.backchecks');
    expect(navItems('supervisor', null, false, '/').map((i) => i.label)).toContain('nav.backchecks');
  });
});
