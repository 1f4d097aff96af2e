import { z } from 'zod';

/** GET /healthz: the process is alive (nothing else is checked). */
export const HealthReply = z.object({ status: z.literal('ok') });
export type HealthReply = z.infer<typeof HealthReply>;

/** GET /readyz with 200: the database answers and every migration this build knows has run. */
export const ReadyReply = z.object({ status: z.literal('ready'), engine: z.enum(['sqlite', 'postgres']) });
export type ReadyReply = z.infer<typeof ReadyReply>;
