import { z } from 'zod';
import { ApiMsg } from '../api-messages.js';
import { Id } from './common.js';

/** Rows per OData page when the client asks for more (or for all): the rest follows @odata.nextLink. */
export const ODATA_PAGE = 1000;

export const EntitySetParams = z.object({ surveyId: Id, entitySet: z.string().min(1).max(200) });

const whole = (max: number) => z.coerce.number({ error: ApiMsg.odataQuery }).int(ApiMsg.odataQuery).min(0, ApiMsg.odataQuery).max(max, ApiMsg.odataQuery);

/**
 * The OData system query options the feed serves. $filter is parsed by the server (receipt time
 * only); $skiptoken is the server's own paging key, handed out in @odata.nextLink. Options it does
 * not serve ($select, $orderby, $format...) are ignored: every row carries every column.
 */
export const EntitySetQuery = z.object({
  $top: whole(1_000_000_000).optional(),
  $skip: whole(1_000_000_000).optional(),
  $count: z.enum(['true', 'false'], { error: ApiMsg.odataQuery }).optional(),
  $filter: z.string({ error: ApiMsg.odataQuery }).max(1000, ApiMsg.odataQuery).optional(),
  $skiptoken: z.string({ error: ApiMsg.odataQuery }).regex(/^\d{1,15}\.[\w-]{1,64}$/, ApiMsg.odataQuery).optional(),
});
export type EntitySetQuery = z.infer<typeof EntitySetQuery>;
