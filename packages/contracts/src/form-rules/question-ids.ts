// With the evaluator (zod-free, loaded lazily by the phone's form with it).

/**
 * Every question with its stable id. Questions stored before ids get `q1`, `q2`... by
 * position, at read time on the server and on the phone alike: a stored survey's questions never
 * move, so these ids never change. A new question without an id gets the same kind, skipping any
 * id already taken.
 */
export function withQuestionIds<Q extends { text: string; id?: string | undefined }>(questions: readonly Q[]): (Q & { id: string })[] {
  const taken = new Set<string>();
  for (const q of questions) if (q.id !== undefined) taken.add(q.id);
  return questions.map((q, i) => {
    if (q.id !== undefined) return q as Q & { id: string };
    let id = `q${i + 1}`;
    for (let n = 2; taken.has(id); n++) id = `q${i + 1}_${n}`;
    taken.add(id);
    return { ...q, id };
  });
}
