import { describe, expect, it } from 'vitest';
import { routes, type RouteDef } from './api.js';
import { API_BASE } from './constants.js';
import { OFFICE_ROLES, OfficeRole, ROLES, Role } from './roles.js';

const table = Object.entries(routes as Record<string, RouteDef>);

describe('the route table', () => {
  it('names each method and path once', () => {
    const keys = table.map(([, r]) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps every path under the API base (but a load balancer\'s probes) and every access known', () => {
    for (const [name, r] of table) {
      if (r.path !== '/healthz' && r.path !== '/readyz') expect(r.path.startsWith(`${API_BASE}/`), name).toBe(true);
      if (typeof r.access !== 'string') {
        expect(r.access.length, name).toBeGreaterThan(0);
        for (const role of r.access) expect(ROLES, name).toContain(role);
      } else {
        expect(['public', 'user'], name).toContain(r.access);
      }
      expect(r.summary.length, name).toBeGreaterThan(0);
    }
  });

  it('names the office roles of every route open to organizations, and of no other; the owner may call each', () => {
    for (const [name, r] of table) {
      const forOffice = typeof r.access !== 'string' && (r.access as readonly string[]).includes(Role.organization);
      expect(r.office !== undefined, name).toBe(forOffice);
      if (!r.office) continue;
      expect(r.office.length, name).toBeGreaterThan(0);
      expect(r.office, name).toContain(OfficeRole.owner);
      for (const role of r.office) expect(OFFICE_ROLES, name).toContain(role);
    }
  });

  it('gives each office role what it is for', () => {
    const can = (role: OfficeRole) => table.filter(([, r]) => r.office?.includes(role)).map(([name]) => name);
    expect(can(OfficeRole.analyst)).not.toContain('reviewResponses');
    expect(can(OfficeRole.analyst)).toContain('organizationExport');
    expect(can(OfficeRole.finance)).toEqual(expect.arrayContaining(['createPayout', 'payoutDownload', 'markPayoutPaid', 'cancelPayout', 'organizationResponses']));
    expect(can(OfficeRole.finance)).not.toContain('reviewResponses');
    expect(can(OfficeRole.reviewer)).toEqual(expect.arrayContaining(['reviewResponses', 'dismissFlag', 'responseDetail']));
    expect(can(OfficeRole.reviewer)).not.toContain('createPayout');
    expect(can(OfficeRole.admin)).not.toContain('inviteOfficeUser');
    expect(can(OfficeRole.owner)).toContain('inviteOfficeUser');
  });

  it('declares a params schema exactly when the path has parameters', () => {
    for (const [name, r] of table) {
      expect(/:\w+/.test(r.path), name).toBe(r.params !== undefined);
    }
  });

  it('sends no body on GET', () => {
    for (const [name, r] of table) if (r.method === 'GET') expect(r.body, name).toBeUndefined();
  });
});
