import { describe, expect, it } from 'vitest';
import { checkCase, CONFORMANCE } from './conformance.js';

describe('conformance table (XPath 1.0 and the ODK XForms spec)', () => {
  it('holds at least 300 cases', () => {
    expect(CONFORMANCE.length).toBeGreaterThanOrEqual(300);
  });
  it.each(CONFORMANCE.map((k) => [k.expr, k] as const))('%s', (_, k) => {
    expect(checkCase(k)).toBeNull();
  });
});
