import { describe, expect, it } from 'vitest';
import { VerifiedTokens } from './auth.js';

describe('VerifiedTokens', () => {
  const claims = (exp: number) => ({ sid: 's', sub: 'u', exp });

  it('remembers a checked token until its exp, then forgets it', () => {
    const tokens = new VerifiedTokens();
    tokens.set('a.b.c', claims(1_000));
    expect(tokens.get('a.b.c', 999_999)).toEqual(claims(1_000));
    expect(tokens.get('a.b.c', 1_000_000)).toBeUndefined();
    expect(tokens.get('a.b.c', 0)).toBeUndefined();
    expect(tokens.get('x.y.z', 0)).toBeUndefined();
  });

  it('holds at most its cap, dropping the oldest', () => {
    const tokens = new VerifiedTokens(2);
    tokens.set('one', claims(10));
    tokens.set('two', claims(10));
    tokens.set('three', claims(10));
    expect(tokens.get('one', 0)).toBeUndefined();
    expect(tokens.get('two', 0)).toBeDefined();
    expect(tokens.get('three', 0)).toBeDefined();
  });
});
