import { Role } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { homeFor, paths, safeRedirect } from './paths';

describe('homeFor', () => {
  it('maps each role to its home', () => {
    expect(homeFor(Role.nothing)).toBe('/welcome-page');
    expect(homeFor(Role.fieldUser)).toBe('/survey-bird/field-user');
    expect(homeFor(Role.supervisor)).toBe('/survey-bird/supervisor/insight');
    expect(homeFor(Role.organization)).toBe('/survey-bird/organization/insight');
    expect(homeFor(Role.masterAdmin)).toBe('/survey-bird/master-admin');
  });
  it('sends missing and unknown roles to the organization insight', () => {
    expect(homeFor(undefined)).toBe(paths.orgInsight);
    expect(homeFor(Role.customerService)).toBe(paths.orgInsight);
    expect(homeFor('admin')).toBe(paths.orgInsight);
  });
});

describe('safeRedirect', () => {
  it('keeps local paths and drops others', () => {
    expect(safeRedirect('/survey-bird/field-user?x=1')).toBe('/survey-bird/field-user?x=1');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect(undefined)).toBe('/');
  });
});
