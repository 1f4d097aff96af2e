import { PENDING_PHOTO_LABEL, QuestionType, routes } from '@survey-bird/contracts';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
  /** Stall the next photo body half way (the link hangs) until the phone drops the connection (a reload). */
  stallNext: boolean;
  /** Bytes of the stalled photo body that reached the API's socket before the stall. */
  stalledBytes: number;
  /** Refuse photo bodies (the link is too poor): they never reach the server. */
  holdPhotos: boolean;
  /** Upload-Offset of every photo body that reached the server, and what the server said on HEAD. */
  patchOffsets: number[];
  /** [upload URL, Upload-Offset] of every photo body that reached the server. */
  patches: [string, number][];
  headOffsets: number[];
  /** The photo placeholders of every response the phone sent, with the response's clientId and answers. */
  sent: { clientId: string; answers: Record<string, unknown>; photos: { question: string; size: number; sha256: string }[] }[];
  close(): Promise<void>;
}

async function startLink(target: string): Promise<LinkControl> {
  const upstream = new URL(target);
  const link: LinkControl = { baseUrl: '', cutNext: false, stallNext: false, stalledBytes: 0, holdPhotos: false, patchOffsets: [], patches: [], headOffsets: [], sent: [], close: async () => undefined };
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
    const isResponses = req.method === 'POST' && (req.url === routes.syncResponses.path || req.url === routes.respond.path);
    const body: Buffer[] = [];
    let seen = 0;
    let dropped = false;
    req.on('data', (chunk: Buffer) => {
      if (isResponses) body.push(chunk);
      if (dropped) return;
      if (cut && seen + chunk.length >= total / 2) {
        dropped = true;
        const half = chunk.subarray(0, Math.max(0, Math.floor(total / 2) - seen));
        out.write(half, () => {
          if (stall) link.stalledBytes = seen + half.length;
          else setTimeout(() => {
            out.destroy();
            req.socket.destroy();
          }, 200);
        });
        return;
      }
      seen += chunk.length;
      out.write(chunk);
    });
    req.on('end', () => {
      if (isResponses) {
        const sent = JSON.parse(Buffer.concat(body).toString()) as { responses?: LinkControl['sent'] } & LinkControl['sent'][number];
        for (const r of sent.responses ?? [sent]) link.sent.push({ clientId: r.clientId, answers: r.answers, photos: r.photos ?? [] });
      }
      if (!dropped) out.end();
    });
    // A stalled body ends when the phone drops the connection (a reload; the request's own 'close'
    // comes as soon as the phone's whole body is read): the server gets what came through, then a closed connection.
    if (stall) res.on('close', () => setTimeout(() => out.destroy(), 200));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  link.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  link.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return link;
}

function photoFiles(clientId: string) {
  const db = new Database(join(env.dataDir, 'survey-bird.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('select path, size, sha256 from files where client_id = ?').all(clientId) as { path: string; size: number; sha256: string }[];
  } finally {
    db.close();
  }
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

  it('a reload in the middle of a photo upload: the reloaded page resumes the same upload from the bytes the server kept, and the photo arrives once', async () => {
    const filesBefore = serverRows(surveyId).files.length;
    const before = link.patches.length;
    const headsBefore = link.headOffsets.length;
    link.stalledBytes = 0;
    link.stallNext = true;
    await form.open(TITLE);
    await form.fillText(Q.name, 'Baba Tunde');
    await form.takePicture(Q.photo);
    await form.submit();
    // Half of the photo is on the API's socket and the link hangs: the phone reloads.
    await expect.poll(() => link.stalledBytes, { timeout: 30_000 }).toBeGreaterThan(0);
    const [stalled] = link.patches[before]!;
    await phone.page.reload();
    await expect.poll(() => serverRows(surveyId).files.length, { timeout: 60_000 }).toBe(filesBefore + 1);

    // The same upload (its URL kept in IndexedDB over the reload), resumed from what the server kept.
    const offsets = link.patches.slice(before).filter(([url]) => url === stalled).map(([, offset]) => offset);
    expect(offsets[0]).toBe(0);
    expect(offsets).toHaveLength(2);
    expect(offsets[1]).toBeGreaterThan(0);
    expect(offsets[1]).toBeLessThanOrEqual(link.stalledBytes);
    expect(link.headOffsets.slice(headsBefore)).toContain(offsets[1]);

    // Once, with the bytes the phone had: the stored file hashes to the placeholder it sent.
    const response = link.sent.find((r) => r.answers[Q.name] === 'Baba Tunde')!;
    const placeholder = response.photos.find((p) => p.question === Q.photo)!;
    const files = photoFiles(response.clientId);
    expect(files).toHaveLength(1);
    const bytes = readFileSync(join(env.dataDir, files[0]!.path));
    expect(bytes.length).toBe(placeholder.size);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(placeholder.sha256);
    const row = serverRows(surveyId).answers.find((a) => a[Q.name] === 'Baba Tunde');
    expect(row?.[Q.photo]).toMatch(/\/api\/v1\/files\/image\//);
  });
});
