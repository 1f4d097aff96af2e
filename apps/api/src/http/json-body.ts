import type { FastifyInstance, FastifyRequest } from 'fastify';

const nulFree = new WeakSet<FastifyRequest>();
/** JSON can carry half of a surrogate pair only as an escape (raw text arrives as UTF-8). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * Fastify's own JSON parser (prototype and constructor poisoning refused), noting on the way
 * whether the raw text can hold a NUL. JSON carries one only as the escape \u0000 (a raw control
 * character is invalid JSON), so a body without that text needs no walk in route.ts: for a batch
 * of 50 responses the walk cost more than the check of params, query and headers together.
 *
 * A lone surrogate (an emoji cut in half by a phone's text limit, say) becomes U+FFFD, as SQLite
 * and PostgreSQL would store it anyway: the answer is kept, and no later encodeURIComponent or
 * UTF-8 encoder meets text it cannot handle.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string; // parseAs: 'string'
    if (text.includes('__proto__')) return parseWithProtoAnswers(request, text, parse, done);
    // JSON.stringify escapes only control characters and lone surrogates: most bodies have no \u.
    if (!text.includes('\\u')) {
      nulFree.add(request);
      return parse(request, text, done);
    }
    if (!text.includes('\\u0000')) nulFree.add(request);
    if (!SURROGATE_ESCAPE.test(text)) return parse(request, text, done);
    void parse(request, text, (err, value) => (err ? done(err, undefined) : done(null, wellFormed(value))));
  });
}

type Parse = ReturnType<FastifyInstance['getDefaultJsonParser']>;
type Done = NonNullable<Parameters<Parse>[2]>;

/**
 * The default parser refuses any `__proto__` key. A question may be named `__proto__`, so such a
 * key is let through only directly inside an `answers` object, where JSON.parse makes it an own
 * data property (it never sets a prototype) and the values can only be text or lists of text.
 * Anywhere else, and constructor.prototype anywhere, the default parser's refusal stands.
 */
function parseWithProtoAnswers(request: FastifyRequest, text: string, parse: Parse, done: Done): void {
  void parse(request, text, (err, value) => {
    if (!err) return done(null, value);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text, (key, v: unknown) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
        if (Object.hasOwn(v, '__proto__') && key !== 'answers') throw err;
        const ctor = Object.getOwnPropertyDescriptor(v, 'constructor')?.value as unknown;
        if (typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype')) throw err;
        return v;
      });
    } catch {
      return done(err, undefined);
    }
    if (!text.includes('\\u0000')) nulFree.add(request);
    done(null, SURROGATE_ESCAPE.test(text) ? wellFormed(parsed) : parsed);
  });
}

/** True only for a JSON body whose raw text had no \u0000 escape. */
export const bodyIsNulFree = (request: FastifyRequest): boolean => nulFree.has(request);

/** The parsed value with every string, keys included, made well-formed Unicode. */
export function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed();
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties: a `__proto__` key stays a key, never sets a prototype.
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.toWellFormed(), wellFormed(v)]));
}
