// Free of zod, like ids.ts and links.ts: the phone's form imports it without the response schemas
// (importing it from schemas/response.ts put zod on the form's route: 175 KB against its 150 KB budget).

type AnswerValue = string | string[];

/** The answer to one question: own properties only, so `constructor` or `toString` is unanswered, not a function. */
export const answerOf = <A extends AnswerValue>(answers: Record<string, A>, question: string): A | undefined =>
  Object.hasOwn(answers, question) ? answers[question] : undefined;
