const pad = (n: number) => String(n).padStart(2, '0');

/** Manage Survey's line under a title: 'Created: 03/11/2026 at 18:05' (local time), or '' for a bad date. */
export function createdLabel(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `Created: ${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} at ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** How deep each entry sits in groups and repeats (its `parent` chain), by index: 0 at the top. */
export function nestingDepths(questions: readonly { id?: string | undefined; parent?: string | undefined }[]): number[] {
  const depth = new Map<string, number>();
  return questions.map((q) => {
    const d = q.parent !== undefined ? (depth.get(q.parent) ?? -1) + 1 : 0;
    if (q.id !== undefined) depth.set(q.id, d);
    return d;
  });
}
