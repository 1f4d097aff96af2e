import { describe, expect, it } from 'vitest';
import { routes, type RouteDef } from './api.js';
import { API_BASE } from './constants.js';
import { ROLES } from './roles.js';

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

  it('declares a params schema exactly when the path has parameters', () => {
    for (const [name, r] of table) {
      expect(/:\w+/.test(r.path), name).toBe(r.params !== undefined);
    }
  });

  it('sends no body on GET', () => {
    for (const [name, r] of table) if (r.method === 'GET') expect(r.body, name).toBeUndefined();
  });
});
