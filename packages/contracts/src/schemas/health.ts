import { z } from 'zod';

/** GET /healthz: the process is alive (nothing else is checked). */
export const HealthReply = z.object({ status: z.literal('ok') });
export type HealthReply = z.infer<typeof HealthReply>;

/**
 * GET /readyz with 200: the database answers and every migration this build knows has run.
 * flagBacklog: responses whose quality flags are still to be computed (a figure to watch, never a
 * reason for 503: the worker drains at least 240 a second under traffic).
 */
export const ReadyReply = z.object({ status: z.literal('ready'), engine: z.enum(['sqlite', 'postgres']), flagBacklog: z.number().int() });
export type ReadyReply = z.infer<typeof ReadyReply>;
