import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every stylesheet stays in the page once a lazy route has loaded it, so a class one file styles
 * must not be styled by another: the landing page's `.q` once laid out the form's questions.
 */
const root = join(import.meta.dirname, '..');

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? cssFiles(join(dir, e.name)) : e.name.endsWith('.css') ? [join(dir, e.name)] : []));
}

/** The class each rule's selectors start with (inside @media too; keyframe steps and at-rules skipped). */
function leadingClasses(css: string): Set<string> {
  const out = new Set<string>();
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const m of text.matchAll(/([^{};]+)\{/g)) {
    for (const selector of m[1]!.split(',')) {
      const lead = /^\s*\.([a-zA-Z][\w-]*)/.exec(selector);
      if (lead) out.add(lead[1]!);
    }
  }
  return out;
}

describe('stylesheets', () => {
  it('finds the leading class of each rule', () => {
    expect([...leadingClasses('.q { x: 1 } @media (min-width: 1px) { .a .b, .c:hover { y: 2 } }')]).toEqual(['q', 'a', 'c']);
  });

  it('no two stylesheets style rules that start with the same class', () => {
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const file of cssFiles(root)) {
      const name = relative(root, file);
      for (const cls of leadingClasses(readFileSync(file, 'utf8'))) {
        const first = owner.get(cls);
        if (first && first !== name) clashes.push(`.${cls} in ${first} and ${name}`);
        else owner.set(cls, name);
      }
    }
    expect(clashes).toEqual([]);
  });
});
