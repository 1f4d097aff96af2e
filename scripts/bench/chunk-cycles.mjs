/**
 * The chunk import cycles of a Vite manifest (`.vite/manifest.json`): one per group of chunks that
 * reach each other by static imports (Tarjan's strongly connected components), with a path around
 * it from its first chunk; [] when the chunk graph is acyclic. Dynamic imports are left out: they run
 * after the importing chunk has finished loading, so they cannot see a value before it is defined.
 */
export function chunkCycles(m) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const imports = (k) => (m[k]?.imports ?? []).filter((d) => d in m);
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of imports(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || imports(v).includes(v)) groups.push(new Set(group));
  };
  for (const k of Object.keys(m)) if (!index.has(k)) visit(k);
  // A path around each group: from its first chunk, follow imports inside the group back to it.
  return groups.map((g) => {
    const start = [...g][0];
    const path = [start];
    const seen = new Set([start]);
    const walk = (k) => {
      for (const d of imports(k)) {
        if (d === start) return true;
        if (!g.has(d) || seen.has(d)) continue;
        seen.add(d);
        path.push(d);
        if (walk(d)) return true;
        path.pop();
      }
      return false;
    };
    walk(start);
    return { path, members: [...g] };
  });
}

