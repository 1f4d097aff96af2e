import { MAX_TOKEN_DAYS, ODATA_PAGE } from '@survey-bird/contracts';

/**
 * The text at the top of /api/docs: how to authenticate (a session or an API token), how lists
 * page, how the changes cursor mirrors a survey, and the OData feed. Each operation's `security`
 * says whether it takes an API token (route.ts, from the contracts' `token`).
 */
export const API_DESCRIPTION = `Generated from packages/contracts.

## Authentication
- **Session**: \`POST /api/v1/user/login\` answers a \`token\` (a JWT, 30 days); send \`Authorization: Bearer <token>\`.
- **API token** (\`apiToken\`): an office user makes one on the API tokens screen or with \`POST /api/v1/tokens\`
  (\`{ "name": "...", "surveyId": "optional", "expiresAt": "2027-03-01" }\`). The reply holds the token (\`sb_...\`) once;
  the server keeps only its hash. Send \`Authorization: Bearer sb_...\`. A token works only on operations whose
  security lists \`apiToken\` (survey list, responses, the changes feed, a response, exports, payouts list, photos,
  OData) and is refused with 403 everywhere else: it reads, it never writes. It acts as its maker, with the office
  role and surveys they have at each use, narrowed to its survey; it expires (at most ${MAX_TOKEN_DAYS} days) and
  \`DELETE /api/v1/tokens/{id}\` revokes it at once. Its first use each day (UTC) is written to the audit log, and
  its last use time is shown in the list.
- **OData** (\`odataBasic\`): HTTP Basic with any user name and the API token as the password (what Power BI and
  Excel send); the feed answers 401 with a Basic challenge.

## Paging
Lists take \`page\` (from 1, 20 a page) and answer \`page\`, \`totalCount\`, \`hasNextPage\`, \`hasPreviousPage\`.
The responses table also takes \`after=<nextCursor>\` from the previous page, so page 500 costs what page 1 does.

## Changes cursor (mirroring a survey)
\`GET /api/v1/survey/{id}/responses?since=<cursor>\` answers \`{ responses, nextCursor, hasMore }\`: every response
created or changed (revised, reviewed, paid) after the cursor, oldest change first, up to 1,000 a page (\`limit\`).
Start without \`since\`, keep \`nextCursor\` (it is the same cursor when nothing changed), call again while \`hasMore\`.
A response changed again comes again: upsert by \`_id\`. Nothing is skipped or repeated while responses arrive.

\`\`\`
curl -H "Authorization: Bearer sb_..." "https://HOST/api/v1/survey/SURVEY/responses?since=CURSOR"
\`\`\`

## OData v4
\`/api/v1/odata/{surveyId}/\`: the service document, \`$metadata\`, \`Responses\` and one \`Responses_<repeat id>\` set per
repeat, oldest received first, ${ODATA_PAGE.toLocaleString('en')} rows a page with \`@odata.nextLink\`; \`$top\`, \`$skip\`,
\`$count=true\`, \`/$count\`, and \`$filter\` on \`ReceivedAt\` (eq, ne, gt, ge, lt, le, joined by and).`;

export const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A session token from /api/v1/user/login' },
  apiToken: { type: 'http', scheme: 'bearer', bearerFormat: 'sb_...', description: 'An API token (read routes marked apiToken only)' },
  odataBasic: { type: 'http', scheme: 'basic', description: 'OData: any user name, the API token as the password' },
} as const;
