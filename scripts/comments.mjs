// The comments of a source file, for the comment checks of `npm run lint`: TypeScript's scanner
// finds them (so a `//` inside a string or a regular expression is not one), CSS by its `/* */`.
import ts from 'typescript';

/** Every comment of `text` as `{ text, pos }`, `pos` its offset in the file. */
export function commentsOf(path, text) {
  if (path.endsWith('.css')) return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => ({ text: m[0], pos: m.index }));
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Map();
  const collect = (ranges) => {
    for (const r of ranges ?? []) seen.set(r.pos, { text: text.slice(r.pos, r.end), pos: r.pos });
  };
  const visit = (node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return [...seen.values()];
}

/** The 1-based line of offset `pos` in `text`. */
export function lineAt(text, pos) {
  return text.slice(0, pos).split('\n').length;
}
