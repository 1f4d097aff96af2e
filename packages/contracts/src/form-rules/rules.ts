import { z } from 'zod';

/**
 * Skip logic and constraints a question may carry: the shapes the builder writes, the
 * API stores and the evaluator (evaluate.ts) reads. Conditions name earlier questions by id.
 */
export const ConditionOp = {
  equals: 'equals',
  notEquals: 'notEquals',
  includes: 'includes',
  greaterThan: 'greaterThan',
  lessThan: 'lessThan',
  answered: 'answered',
} as const;
export type ConditionOp = (typeof ConditionOp)[keyof typeof ConditionOp];
const OPS = Object.values(ConditionOp) as [ConditionOp, ...ConditionOp[]];

export const Condition = z.object({
  question: z.string().min(1).max(64),
  op: z.enum(OPS, { error: 'Unknown condition' }),
  value: z.union([z.string().max(500), z.number()]).optional(),
});
export type Condition = z.infer<typeof Condition>;

export const ShowIf = z.object({
  combine: z.enum(['all', 'any']).default('all'),
  conditions: z.array(Condition).min(1, 'Add at least one condition').max(20, 'At most 20 conditions'),
});
export type ShowIf = z.infer<typeof ShowIf>;

/** min/max: numbers for number and decimal questions, `YYYY-MM-DD` for dates. */
export const Constraint = z.object({
  min: z.union([z.number(), z.string().max(10)]).optional(),
  max: z.union([z.number(), z.string().max(10)]).optional(),
  minLength: z.number().int().min(0).max(10_000).optional(),
  maxLength: z.number().int().min(1).max(10_000).optional(),
  notInFuture: z.boolean().optional(),
  message: z.string().trim().max(200).optional(),
});
export type Constraint = z.infer<typeof Constraint>;
