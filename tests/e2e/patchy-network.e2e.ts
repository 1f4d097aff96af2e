import { PENDING_PHOTO_LABEL, QuestionType, routes } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, openBrowser, PHONE, type Browser } from './harness/browser';
import { apiLogin, apiPost, createOrganizationUser, createTeamMember, type TestUser } from './harness/users';
import { FieldUserFormPage } from './pages/FieldUserFormPage';
import { InsightPage } from './pages/InsightPage';
import { LoginPage } from './pages/LoginPage';

/**
 * Issue 19 on a real phone screen: the response reaches the office before its photo, and a photo
 * upload cut half way goes on from the server's offset. The phone talks to the server through a
 * streaming proxy that can drop the link in the middle of a photo's body (the harness proxy buffers
 * whole requests, so it cannot).
 */
const env = inject('env');
const TITLE = 'Market stall check';
const Q = { name: 'Stall name', photo: 'Stall photo' } as const;

interface LinkControl {
  baseUrl: string;
  /** Drop the link half way through the next photo body. */
  cutNext: boolean;
  /** Stall the next photo body half way (the link hangs) until the phone gives up on it. */
  stallNext: boolean;
  /** Refuse photo bodies (the link is too poor): they never reach the server. */
  holdPhotos: boolean;
  /** Upload-Offset of every photo body that reached the server, and what the server said on HEAD. */
  patchOffsets: number[];
  /** [upload URL, Upload-Offset] of every photo body that reached the server. */
  patches: [string, number][];
  headOffsets: number[];
  close(): Promise<void>;
}

async function startLink(target: string): Promise<LinkControl> {
  const upstream = new URL(target);
  const link: LinkControl = { baseUrl: '', cutNext: false, stallNext: false, holdPhotos: false, patchOffsets: [], patches: [], headOffsets: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const isPhotoBody = req.method === 'PATCH' && (req.url ?? '').startsWith(routes.resumableCreate.path);
    // A photo sent whole (the service worker's Background Sync) would bypass what this test watches.
    const isWholePhoto = req.method === 'POST' && req.url === routes.uploadImage.path;
    if (isWholePhoto || (isPhotoBody && link.holdPhotos)) {
      req.socket.destroy();
      return;
    }
    if (isPhotoBody) {
      link.patchOffsets.push(Number(req.headers['upload-offset']));
      link.patches.push([req.url ?? '', Number(req.headers['upload-offset'])]);
    }
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (up) => {
      if (req.method === 'HEAD' && up.headers['upload-offset'] !== undefined) link.headOffsets.push(Number(up.headers['upload-offset']));
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    const total = Number(req.headers['content-length'] ?? 0);
    const cut = isPhotoBody && (link.cutNext || link.stallNext);
    const stall = cut && link.stallNext;
    if (cut) link.cutNext = link.stallNext = false;
    // A stalled body ends when the phone drops it (a reload): the server keeps what it got.
    if (stall) req.on('close', () => out.destroy());
    let seen = 0;
    let dropped = false;
    req.on('data', (chunk: Buffer) => {
      if (dropped) return;
      if (cut && seen + chunk.length >= total / 2) {
        dropped = true;
        out.write(chunk.subarray(0, Math.max(0, Math.floor(total / 2) - seen)), () => stall || setTimeout(() => {
          out.destroy();
          req.socket.destroy();
        }, 200));
        return;
      }
      seen += chunk.length;
      out.write(chunk);
    });
    req.on('end', () => dropped || out.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  link.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  link.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return link;
}

function serverRows(surveyId: string) {
  const db = new Database(join(env.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const responses = db.prepare('select answers from responses where survey_id = ?').all(surveyId) as { answers: string }[];
    const files = db.prepare('select size from files where survey_id = ?').all(surveyId) as { size: number }[];
    return { answers: responses.map((r) => JSON.parse(r.answers) as Record<string, unknown>), files };
  } finally {
    db.close();
  }
}

describe('patchy network: responses first, photos after, uploads that resume', () => {
  let phone: Browser;
  let office: Browser;
  let link: LinkControl;
  let form: FieldUserFormPage;
  let surveyId: string;
  let org: TestUser;

  beforeAll(async () => {
    org = await createOrganizationUser(env, 'patchy-org');
    surveyId = (await apiPost<{ survey: { _id: string } }>(env, '/survey/create', {
      title: TITLE,
      description: 'A stall and its photo.',
      questions: [
        { text: Q.name, type: QuestionType.text, compulsory: true, options: [] },
        { text: Q.photo, type: QuestionType.liveImages, compulsory: false, options: [] },
      ],
    }, await apiLogin(env, org))).survey._id;
    const fieldUser = await createTeamMember(env, org, surveyId, 'field-user');
    link = await startLink(env.baseUrl);
    phone = await openBrowser(PHONE);
    await phone.context.grantPermissions(['camera'], { origin: link.baseUrl });
    form = new FieldUserFormPage(phone.page, link.baseUrl);
    await new LoginPage(phone.page, link.baseUrl).signIn(fieldUser.email, fieldUser.password);
    office = await openBrowser(DESKTOP);
    await new LoginPage(office.page, env.baseUrl).signIn(org.email, org.password);
  });
  afterAll(async () => {
    await phone?.close();
    await office?.close();
    await link?.close();
  });

  it('shows the office the response with "photo uploading" before its photo; the cut photo resumes from the server\'s offset and arrives once', async () => {
    link.holdPhotos = true;
    await form.open(TITLE);
    await form.fillText(Q.name, 'Mama Nkechi');
    await form.takePicture(Q.photo);
    await form.submit();

    // The response is on the server while its photo is not.
    await expect.poll(() => serverRows(surveyId).answers.length, { timeout: 30_000 }).toBe(1);
    expect(serverRows(surveyId).files).toHaveLength(0);
    const insight = await new InsightPage(office.page, env.baseUrl).open();
    await insight.waitForRows(1);
    await expect.poll(() => insight.rows().first().innerText()).toContain(PENDING_PHOTO_LABEL);
    // The phone lists the photo still on it.
    await form.openResponses();
    await expect.poll(() => phone.page.getByTestId('photos-pending').innerText(), { timeout: 15_000 }).toContain(Q.photo);

    // The link comes back poor: the photo is cut half way, then goes on from where the server stopped.
    link.holdPhotos = false;
    link.cutNext = true;
    await form.syncNow();
    await expect.poll(() => link.patchOffsets.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await form.syncNow();
    await expect.poll(() => serverRows(surveyId).files.length, { timeout: 60_000 }).toBe(1);
    expect(link.patchOffsets[0]).toBe(0);
    const resumedAt = link.patchOffsets[link.patchOffsets.length - 1]!;
    expect(resumedAt).toBeGreaterThan(0);
    expect(link.headOffsets).toContain(resumedAt);
    expect(serverRows(surveyId).answers[0]![Q.photo]).toMatch(/\/api\/v1\/files\/image\//);
    await expect.poll(() => phone.page.getByTestId('photos-pending').count(), { timeout: 15_000 }).toBe(0);

    await office.page.reload();
    await insight.waitForRows(1);
    await expect.poll(() => insight.rows().first().innerText()).toContain('View photo');
  });

  it('a reload in the middle of a photo upload: the reloaded page finishes the same upload, and the photo arrives once', async () => {
    const filesBefore = serverRows(surveyId).files.length;
    const before = link.patches.length;
    link.stallNext = true;
    await form.open(TITLE);
    await form.fillText(Q.name, 'Baba Tunde');
    await form.takePicture(Q.photo);
    await form.submit();
    await expect.poll(() => link.patches.length, { timeout: 30_000 }).toBeGreaterThan(before);
    const [stalled] = link.patches[before]!;
    await phone.page.waitForTimeout(500);
    await phone.page.reload();
    await expect.poll(() => serverRows(surveyId).files.length, { timeout: 60_000 }).toBe(filesBefore + 1);
    // The same upload (its URL kept in IndexedDB over the reload), sent again after it.
    const offsets = link.patches.slice(before).filter(([url]) => url === stalled).map(([, offset]) => offset);
    expect(offsets[0]).toBe(0);
    expect(offsets.length).toBeGreaterThan(1);
    const row = serverRows(surveyId).answers.find((a) => a[Q.name] === 'Baba Tunde');
    expect(row?.[Q.photo]).toMatch(/\/api\/v1\/files\/image\//);
  });
});
