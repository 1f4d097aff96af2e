/**
 * Candidate (a): the `xpath` package over an `@xmldom/xmldom` document built from the answers,
 * with the ODK functions the workload uses added as custom functions (the rest of ODK's library
 * would add to its size). ${q} becomes /data/q, or ../q inside the repeat, before parsing.
 */
import { DOMImplementation, type XDocument, type XElement } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { BENCH_ANSWERS, BENCH_EXPRESSIONS, timeIt } from './expressions-workload.ts';

type X = { stringValue(): string; numberValue(): number; booleanValue(): boolean };
const REPEATED = new Set(['item_name', 'qty', 'price']);

export function toXml(answers: Record<string, unknown>): XDocument {
  const doc = new DOMImplementation().createDocument(null, 'data', null);
  const fill = (parent: XElement, obj: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(obj)) {
      if (Array.isArray(v)) {
        for (const inst of v as Record<string, unknown>[]) {
          const el = doc.createElement(k);
          fill(el, inst);
          parent.appendChild(el);
        }
      } else {
        const el = doc.createElement(k);
        el.appendChild(doc.createTextNode(String(v ?? '')));
        parent.appendChild(el);
      }
    }
  };
  fill(doc.documentElement, answers);
  return doc;
}

const tokens = (s: string) => s.split(/\s+/).filter(Boolean);
const today = () => '2024-03-02';
export const ODK_FUNCTIONS: Record<string, (c: unknown, ...a: X[]) => unknown> = {
  selected: (_, list, v) => tokens(list!.stringValue()).includes(v!.stringValue().trim()),
  'count-selected': (_, list) => tokens(list!.stringValue()).length,
  regex: (_, s, p) => new RegExp(p!.stringValue()).test(s!.stringValue()),
  if: (_, c, a, b) => (c!.booleanValue() ? a : b),
  coalesce: (_, a, b) => (a!.stringValue() !== '' ? a!.stringValue() : b!.stringValue()),
  today,
  int: (_, x) => Math.trunc(x!.numberValue()),
  round: (_, x, d) => (d ? Math.round(x!.numberValue() * 10 ** d.numberValue()) / 10 ** d.numberValue() : Math.round(x!.numberValue())),
  substr: (_, s, a, b) => s!.stringValue().slice(a!.numberValue(), b?.numberValue()),
  'format-date': (_, d, f) => f!.stringValue().replace('%Y', d!.stringValue().slice(0, 4)).replace('%m', d!.stringValue().slice(5, 7)),
  max: (_, ns) => Math.max(...((ns as unknown as { toUnsortedArray(): { textContent: string }[] }).toUnsortedArray().map((n) => Number(n.textContent)))),
};

export function translate(source: string, perInstance: boolean): string {
  return source.replace(/\$\{([^}]+)\}/g, (_, name: string) => (REPEATED.has(name) ? (perInstance ? `../${name}` : `/data/items/${name}`) : name === 'items' ? '/data/items' : `/data/${name}`));
}

export function run(): { validateUs: number; evalOnlyUs: number; compileUs: number; evaluations: number } {
  const compiled = BENCH_EXPRESSIONS.map((b) => ({ ...b, parsed: xpath.parse(translate(b.source, b.perInstance ?? false)) }));
  let evaluations = 0;
  const evaluateAll = (doc: XDocument) => {
    evaluations = 0;
    const data = doc.documentElement;
    const byName = new Map<string, XElement>();
    for (const el of Array.from(data.childNodes)) if (el.nodeName) byName.set(el.nodeName, el);
    for (const b of compiled) {
      if (!b.perInstance) {
        b.parsed.evaluate({ node: byName.get(b.question) ?? data, functions: ODK_FUNCTIONS });
        evaluations++;
        continue;
      }
      for (const inst of Array.from(data.getElementsByTagName('items'))) {
        b.parsed.evaluate({ node: inst.getElementsByTagName('qty')[0], functions: ODK_FUNCTIONS });
        evaluations++;
      }
    }
  };
  const doc = toXml(BENCH_ANSWERS);
  return {
    validateUs: timeIt(() => evaluateAll(toXml(BENCH_ANSWERS))).us,
    evalOnlyUs: timeIt(() => evaluateAll(doc)).us,
    compileUs: timeIt(() => {
      for (const b of BENCH_EXPRESSIONS) xpath.parse(translate(b.source, b.perInstance ?? false));
    }).us,
    evaluations,
  };
}
