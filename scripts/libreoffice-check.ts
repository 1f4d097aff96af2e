/**
 * CI step: a real spreadsheet program opens our export. Builds the app on a fresh SQLite file,
 * stores responses (one with a formula-looking answer), downloads the xlsx, converts it with
 * `libreoffice --headless --convert-to csv` and checks the header, the row count and the text.
 *
 *   npx tsx scripts/libreoffice-check.ts      (needs Debian's libreoffice-calc-nogui)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApp, call } from '../apps/api/test/helpers.js';
import { addMember, addResponse, createOrganization, createSurvey } from '../apps/api/test/fixtures.js';

const ROWS = 25;
const t = await buildTestApp();
let failed = false;
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  failed ||= !ok;
};
try {
  const org = await createOrganization(t.app, 'LibreOffice Check');
  const survey = await createSurvey(t.app, org.id, { title: 'Spreadsheet check' });
  const member = await addMember(t.app, survey.id, org.id, { fullName: 'Ada Obi' });
  for (let i = 0; i < ROWS; i++) {
    const outlet = i === 0 ? '=HYPERLINK("http://evil.example")' : i === 1 ? '+2348122223333' : `Outlet ${i}`;
    await addResponse(t.app, member, { id: survey.id, organizationId: org.id }, { fullName: 'Ada Obi', answers: { 'Name of outlet': outlet, 'Outlet type': 'Kiosk', 'Brands stocked': ['Alpha', 'Beta'] }, createdAt: Date.now() - i * 60_000 });
  }
  const res = await call(t.app, org.token, { method: 'GET', url: `/api/v1/survey/organization/response/download/${survey.id}` });
  check(res.statusCode === 200, `export answered ${res.statusCode}`);
  const dir = mkdtempSync(join(tmpdir(), 'sb-lo-'));
  const xlsx = join(dir, 'export.xlsx');
  writeFileSync(xlsx, res.rawPayload);
  const lo = spawnSync('libreoffice', ['--headless', '--norestore', `-env:UserInstallation=file://${dir}/profile`, '--convert-to', 'csv', '--outdir', dir, xlsx], { encoding: 'utf8', timeout: 120_000 });
  check(lo.status === 0, `libreoffice converted the file (${lo.status}) ${lo.stderr.trim()}`);
  const csv = readFileSync(join(dir, 'export.csv'), 'utf8').trim().split(/\r?\n/);
  // The sheet opens with the survey title, then the header row, then one row per response.
  const header = csv.findIndex((line) => line.startsWith('S/N,'));
  check(header >= 0, `a header row starting S/N (${csv[header] ?? csv[0]})`);
  check(csv[header]!.includes('Field user,Field user email,Captured at,Received at,Version,Revision,Status,Reviewed by,Reviewed at,Payout reference,Name of outlet,Outlet type,Brands stocked'), 'the table columns in question order');
  check(csv.length - header - 1 === ROWS, `${ROWS} response rows (found ${csv.length - header - 1})`);
  check(csv.some((line) => line.includes('=HYPERLINK(""http://evil.example"")')), 'the formula-looking answer is plain text');
  check(csv.some((line) => line.includes('"Alpha, Beta"')), 'checkbox answers joined by commas');
  check(csv.some((line) => line.includes(',+2348122223333,')) && !csv.some((line) => line.includes("'+234")), 'a phone number in +234 form as typed, with no quote');
} finally {
  await t.close();
}
process.exit(failed ? 1 : 0);
