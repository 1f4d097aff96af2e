/**
 * Bulk invitation of 500 field users from one CSV: the preview (`?dryRun=true`, every row checked,
 * nothing written) in < 2 s and the commit (one transaction per row with its audit event and its
 * mail in the mail queue, sent after the reply) in < 10 s, against the demo organization's survey on a fresh server. Each
 * round uploads a new file (new e-mails), so every commit invites all 500. Quick mode (CI): 50 rows, one round.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QUICK, json, loginToken, median, startApi, type Finding } from './lib.js';

const ROWS = QUICK ? 50 : 500;
const HEAD = 'Full name,Email,Phone number,Bank,Account number,Account name,Rate,Supervisor email';

function file(tag: string): Buffer {
  const lines = [HEAD];
  for (let i = 0; i < ROWS; i++) lines.push(`Enumerator ${i} ${tag},e${i}.${tag}@bench.ng,0803${String(i).padStart(7, '0')},Zenith Bank,${String(1_000_000_000 + i)},Enumerator ${i},150,`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

function multipart(surveyId: string, data: Buffer): { body: Buffer; type: string } {
  const boundary = `----bench${randomUUID()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="survey_id"\r\n\r\n${surveyId}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="team.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

export async function benchBulkInvite(): Promise<{ findings: Finding[]; lines: string[] }> {
  const rounds = QUICK ? 1 : 3;
  const api = await startApi({ SEED_DEMO: 'true' });
  try {
    const logins = JSON.parse(readFileSync(join(api.dataDir, 'demo-logins.json'), 'utf8')) as { role: string; email: string; password: string }[];
    const owner = logins.find((l) => l.role === 'organization')!;
    const auth = { authorization: `Bearer ${await loginToken(api.url, owner.email, owner.password)}` };
    const surveys = await json<{ survey: { _id: string }[] }>(`${api.url}/api/v1/survey/organization`, { headers: auth });
    const surveyId = surveys.survey[0]!._id;
    const preview: number[] = [];
    const commit: number[] = [];
    let invited = 0;
    for (let r = 0; r < rounds; r++) {
      const { body, type } = multipart(surveyId, file(`r${r}${randomUUID().slice(0, 4)}`));
      const post = async (dryRun: boolean) => {
        const t0 = performance.now();
        const res = await fetch(`${api.url}/api/v1/field-user/bulk${dryRun ? '?dryRun=true' : ''}`, { method: 'POST', headers: { ...auth, 'content-type': type }, body: new Uint8Array(body) });
        const reply = (await res.json()) as { invited: number; rows: { status: string }[] };
        if (res.status !== 200) throw new Error(`bulk invite: ${res.status} ${JSON.stringify(reply)}`);
        return { ms: performance.now() - t0, reply };
      };
      const p = await post(true);
      if (p.reply.rows.filter((row) => row.status === 'new').length !== ROWS) throw new Error('bulk preview: not every row is new');
      preview.push(p.ms);
      const c = await post(false);
      commit.push(c.ms);
      invited = c.reply.invited;
    }
    const p = median(preview);
    const c = median(commit);
    return {
      findings: [
        { target: `Bulk invitations. Preview of ${ROWS} rows (CSV, every row checked, nothing written) in < 2 s`, measured: `${(p / 1000).toFixed(2)} s (median of ${rounds})`, holds: p < 2000 },
        { target: `Bulk invitations. Commit of ${ROWS} rows (a transaction per row with its audit event and queued mail) in < 10 s`, measured: `${(c / 1000).toFixed(2)} s (median of ${rounds}; ${invited} invited)`, holds: invited === ROWS && c < 10_000 },
      ],
      lines: [`SQLite bulk invitations: ${ROWS} new field users per file to the demo survey, preview then commit, ${rounds} round(s)`],
    };
  } finally {
    await api.stop();
  }
}
