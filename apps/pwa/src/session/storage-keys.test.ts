import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { accountKey } from './account-key';
// eslint-disable-next-line no-restricted-imports -- the registry's check needs the IndexedDB table names, which offline/db.ts owns.
import { db } from '../offline/db';
import { metaKey, StorageKey } from './storage-keys';

/**
 * storage-keys.ts is the one list of what the PWA keeps on the phone: no other module spells a
 * localStorage or IndexedDB `meta` key, so a key cannot be added, or two modules share one, unseen.
 */
const root = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

const STORAGE_CALLS = new Set(['getItem', 'setItem', 'removeItem']);
const META_CALLS = new Set(['get', 'put', 'delete']);

/** The key each storage call in `text` uses: the argument of getItem/setItem/removeItem and of meta.get/put/delete. */
function keyArguments(file: ts.SourceFile): ts.Expression[] {
  const keys: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.arguments[0]) {
      const name = node.expression.name.text;
      const receiver = node.expression.expression;
      const onMeta = (ts.isPropertyAccessExpression(receiver) && receiver.name.text === 'meta') || (ts.isIdentifier(receiver) && receiver.text === 'meta');
      const arg = node.arguments[0];
      if (STORAGE_CALLS.has(name) || (onMeta && META_CALLS.has(name) && name !== 'put')) keys.push(arg);
      if (onMeta && name === 'put' && ts.isObjectLiteralExpression(arg)) {
        for (const p of arg.properties) {
          if (ts.isPropertyAssignment(p) && p.name.getText(file) === 'key') keys.push(p.initializer);
          if (ts.isShorthandPropertyAssignment(p) && p.name.text === 'key') keys.push(p.name);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return keys;
}

/** The body of a constant or function named `name` in the file, if it has one. */
function definition(file: ts.SourceFile, name: string): ts.Expression | undefined {
  let found: ts.Expression | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name && node.initializer) found = node.initializer;
    ts.forEachChild(node, visit);
  };
  visit(file);
  if (found && (ts.isArrowFunction(found) || ts.isFunctionExpression(found)) && !ts.isBlock(found.body)) return found.body;
  return found;
}

/** True when the key is spelled in the file (a literal, or built from one) rather than taken from the registry. */
function spelledHere(file: ts.SourceFile, expr: ts.Expression, depth = 0): boolean {
  if (depth > 5) return false;
  if (ts.isStringLiteralLike(expr) || ts.isTemplateExpression(expr)) return true;
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr)) return spelledHere(file, expr.expression, depth + 1);
  if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.PlusToken) return spelledHere(file, expr.left, depth + 1) || spelledHere(file, expr.right, depth + 1);
  const name = ts.isIdentifier(expr) ? expr.text : ts.isCallExpression(expr) && ts.isIdentifier(expr.expression) ? expr.expression.text : undefined;
  const body = name === undefined ? undefined : definition(file, name);
  return body !== undefined && spelledHere(file, body, depth + 1);
}

/**
 * Every key string the registry holds: fixed ones whole, parameterised ones up to their first
 * parameter. The IndexedDB tables' names are left out: 'accounts' names both a localStorage key
 * and a table, and a literal table name is a table.
 */
function registryStrings(): { exact: string[]; prefixes: string[] } {
  const tables = new Set(db.tables.map((t) => t.name));
  const exact: string[] = [];
  const prefixes: string[] = [];
  const mark = '\u0000';
  for (const value of [...Object.values(StorageKey), ...Object.values(metaKey)]) {
    if (typeof value === 'string') {
      if (!tables.has(value)) exact.push(value);
    }
    else prefixes.push((value as (...a: string[]) => string)(mark, mark, mark, mark).split(mark)[0]!);
  }
  return { exact, prefixes };
}

function problemsIn(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const where = (node: ts.Node) => `${relative(root, path)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
  const problems = keyArguments(file)
    .filter((key) => spelledHere(file, key))
    .map((key) => `${where(key)}: storage key '${key.getText(file)}' is not taken from storage-keys.ts`);
  const { exact, prefixes } = registryStrings();
  const visit = (node: ts.Node): void => {
    const literal = ts.isStringLiteralLike(node) || ts.isTemplateHead(node);
    if (literal && !ts.isImportDeclaration(node.parent) && (exact.includes(node.text) || prefixes.some((p) => node.text.startsWith(p)))) {
      problems.push(`${where(node)}: '${node.text}' restates a key of storage-keys.ts`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return problems;
}

describe('storage keys', () => {
  it('keeps the strings phones in the field already hold', () => {
    const ada = accountKey(' Ada@X.ng');
    expect({ ...StorageKey, surveyDraft: [StorageKey.surveyDraft(ada), StorageKey.surveyDraft(ada, 's1')] }).toEqual({
      accounts: 'accounts',
      lastUser: 'survey-bird.last-user',
      activeSurvey: 'survey-bird.active-survey',
      deviceId: 'deviceId',
      surveyDraft: ['survey-bird.survey-draft:ada@x.ng', 'survey-bird.survey-draft:ada@x.ng:s1'],
      seenSurveyVersions: 'survey-bird.seen-survey-versions',
      formLanguage: 'survey-bird.form-language',
      appLanguage: 'survey-bird.app-language',
    });
    expect([metaKey.lease(ada), metaKey.lastSyncAt(ada), metaKey.changesCursor(ada), metaKey.earnings(ada), metaKey.myResponses(ada)]).toEqual([
      'lease:ada@x.ng',
      'lastSyncAt:ada@x.ng',
      'changesCursor:ada@x.ng',
      'earnings:ada@x.ng',
      'myResponses:ada@x.ng',
    ]);
    expect([metaKey.photoMode, metaKey.photosWifiOnly, metaKey.tusUpload(ada, 'r1', 'q1', 'p1')]).toEqual(['photoMode', 'photosWifiOnly', 'tus:ada@x.ng|r1|q1|p1']);
  });

  it('finds a key spelled outside the registry', () => {
    const spelled = [
      `localStorage.setItem('theme', 'dark');`,
      `const KEY = 'photosWifiOnly';\nawait db.meta.get(KEY);`,
      `const KEY = 'x:';\nconst keyOf = (a: string) => KEY + a;\nconst key = keyOf(a);\nawait db.meta.put({ key, value: 1 });`,
      `await db.meta.delete(\`lease:\${account}\`);`,
      `const prefix = 'tus:';`,
    ];
    expect(spelled.map((text) => problemsIn(join(root, 'x.ts'), text).length)).toEqual([1, 2, 1, 2, 1]);
    expect(problemsIn(join(root, 'x.ts'), `localStorage.setItem(StorageKey.lastUser, v);\nawait db.meta.get(metaKey.lease(account));\nconst key = metaKey.photoMode;\nawait db.meta.put({ key, value: 1 });`)).toEqual([]);
  });

  it('is the only module that spells a key', () => {
    const problems = sourceFiles(root)
      .filter((path) => relative(root, path) !== 'session/storage-keys.ts')
      .flatMap((path) => problemsIn(path, readFileSync(path, 'utf8')));
    expect(problems).toEqual([]);
  });
});
