import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { FlagThresholds, QualityFlag, hammingDistance, type Answers, type StoredQuestion } from '@survey-bird/contracts';
import type { Database } from '../../db/schema.js';
import { DEFAULT_MAX_OFFLINE_AGE_DAYS } from '../responses/capture-window.js';
import { parseMeta } from './meta.js';
import { FlagsRepository, type CheckedFacts, type PhotoFacts } from './repository.js';
import {
  answersHashOf, audioUnavailableFlag, describe, distanceKm, implausibleTimeFlag, locationQuestion, minDurationMs, minutes, parseLocation, photoAnswersOf, seconds, speedKmh, type ComputedFlag,
} from './rules.js';

/** How often the queue is looked at; a response's flags appear about this long after it is stored when the server is not busy. */
export const FLAG_POLL_MS = 250;
const BATCH = 50;
/**
 * The worker's fair share under traffic. When any request arrived since the last tick, a tick
 * works at least MIN_JOBS_PER_TICK jobs and then until BUSY_BUDGET_MS is spent, and ticks keep a
 * fixed FLAG_POLL_MS period while a backlog remains: at least 60 x 4 = 240 jobs/s, so 10,000 queued
 * drain within a minute (42 s) however steady the traffic. The earlier 10 ms budget, cut short by
 * any request, gave 33 jobs/s and took minutes over 2,000. With no request since the last tick, it
 * works until the queue is empty.
 */
export const MIN_JOBS_PER_TICK = 60;
const BUSY_BUDGET_MS = 50;
/**
 * Jobs run back to back for a slice, then the worker yields to the requests waiting
 * (setImmediate). A slice lasts half as long as the requests took in the turn before it (so the
 * worker gets about a third of a saturated process), from SLICE_MS to MAX_SLICE_MS: a request waits
 * behind at most 25 ms of checks. Yielding after every job gave the worker one job per turn of the
 * event loop, and under the ingest benchmark (32 connections saturating the process) a turn lasts
 * tens of milliseconds: 10 jobs/s. Fixed 8 ms slices gave 150 jobs/s there, falling as turns grew.
 */
const SLICE_MS = 8;
const MAX_SLICE_MS = 25;
const MEDIAN_TTL_MS = 60_000;

/**
 * Empties `flag_jobs` (one row per response whose flags are due, written by trigger in the ingest
 * transaction): computes each response's flags from what earlier responses left in
 * response_checks / response_photos, then stores facts and flags and deletes the job in one
 * transaction (repository.save). Jobs are taken oldest first; a crash leaves the job, and the
 * next start (or another instance) computes it again. Ingest never waits for this.
 */
export class FlagWorker {
  readonly repo: FlagsRepository;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<{ done: number; more: boolean }> | null = null;
  private stopped = false;
  /** Requests seen since the last tick (noteRequest, from the HTTP server's request event). */
  private requests = 0;
  /** Since start: ticks that checked at least one response, and responses checked by ticks. */
  readonly stats = { workTicks: 0, checked: 0 };
  /** Each survey's median duration once known, read again at most once a minute (it moves slowly; reading it walks half the survey's checks). */
  private readonly medians = new Map<string, { at: number; value: number | null }>();

  constructor(db: Kysely<Database>, private readonly log?: FastifyBaseLogger, private readonly pollMs = FLAG_POLL_MS, private readonly maxOfflineAgeMs = DEFAULT_MAX_OFFLINE_AGE_DAYS * 86_400_000) {
    this.repo = new FlagsRepository(db);
  }

  /** The slices' clock; a test replaces it to make slices independent of the machine's speed. */
  protected clock(): number {
    return performance.now();
  }

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      const started = this.clock();
      let backlog = false;
      this.runOnce(this.requests > 0).then((r) => {
        if (r.done > 0) this.stats.workTicks++;
        this.stats.checked += r.done;
        backlog = r.more;
      }, (err: unknown) => this.log?.warn({ err: (err as Error).message }, 'flag check failed'))
        .finally(() => {
          // With work left, ticks start every pollMs (the period fixes the rate); else pollMs after this one.
          const wait = backlog ? Math.max(0, this.pollMs - (this.clock() - started)) : this.pollMs;
          if (!this.stopped) this.timer = setTimeout(tick, wait).unref();
        });
    };
    // Jobs left by a previous process are picked up at the first tick.
    this.timer = setTimeout(tick, this.pollMs).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  noteRequest(): void {
    this.requests++;
  }

  /** Works the queue until it is empty (tests); answers how many responses were checked. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const { done } = await this.runOnce(false, false);
      total += done;
      if (done === 0) return total;
    }
  }

  /** Queued responses, counted (the backlog /readyz reports). */
  backlog(): Promise<number> {
    return this.repo.queuedCount();
  }

  /**
   * One tick's work: until the queue is empty, or, once busy (a request arrived before or during
   * it), until MIN_JOBS_PER_TICK jobs are done and BUSY_BUDGET_MS is spent. `more`: jobs were left.
   */
  private runOnce(busy: boolean, watchRequests = true): Promise<{ done: number; more: boolean }> {
    if (this.running) return this.running;
    this.requests = 0;
    this.running = (async () => {
      const started = this.clock();
      let sliceStart = started;
      let sliceMs = SLICE_MS;
      let done = 0;
      let tried = 0;
      for (;;) {
        const ids = await this.repo.queued(BATCH);
        for (const id of ids) {
          if (await this.check(id)) done++;
          tried++;
          busy ||= watchRequests && this.requests > 0;
          if (busy && tried >= MIN_JOBS_PER_TICK && this.clock() - started >= BUSY_BUDGET_MS) return { done, more: true };
          // On SQLite every query runs synchronously: without this the worker would hold the event
          // loop (and every request) until the queue is empty. Requests go first, then the next slice.
          if (this.clock() - sliceStart >= sliceMs) {
            const yielded = this.clock();
            await new Promise((resolve) => setImmediate(resolve));
            sliceStart = this.clock();
            sliceMs = Math.min(MAX_SLICE_MS, Math.max(SLICE_MS, (sliceStart - yielded) / 2));
          }
        }
        if (ids.length < BATCH || this.stopped) return { done, more: ids.length === BATCH };
      }
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async medianOf(surveyId: string, now: number): Promise<number | null> {
    const cached = this.medians.get(surveyId);
    if (cached && now - cached.at < MEDIAN_TTL_MS) return cached.value;
    const value = await this.repo.medianDuration(surveyId, FlagThresholds.tooFastMinResponses);
    // Not yet 20 durations: few rows to count, read again next time.
    if (value === null) return null;
    if (this.medians.size > 1000) this.medians.clear();
    this.medians.set(surveyId, { at: now, value });
    return value;
  }

  /** Computes and stores one response's flags; false when another worker took it first. */
  async check(responseId: string, now = Date.now()): Promise<boolean> {
    const s = await this.repo.subject(responseId);
    if (!s) {
      // The response is gone (its survey deleted): the job has nothing to check.
      await this.repo.save({ id: responseId, survey_id: '', organization_id: '', member_id: '', user_id: '', created_at: 0 }, null, [], [], now);
      return false;
    }
    const questions = JSON.parse(s.questions) as StoredQuestion[];
    const answers = JSON.parse(s.answers) as Answers;
    const meta = parseMeta(s.meta);
    const flags: ComputedFlag[] = [];
    const other = async (id: string) => {
      const o = await this.repo.otherOf(id);
      return o ? describe(o) : `response #${id.slice(-8)}`;
    };

    // Photos: the server's SHA-256 of each stored file, the phone's hash beside it.
    const photoAnswers = photoAnswersOf(questions, answers);
    const shas = await this.repo.fileSha(photoAnswers.map((p) => p.fileId));
    const photos: PhotoFacts[] = photoAnswers.map((p) => ({ question: p.question, sha256: shas.get(p.fileId) ?? null, phash: meta.photoHashes?.[p.question] ?? null }));
    for (const p of photos) {
      const same = p.sha256 ? await this.repo.samePhoto(s.organization_id, p.sha256, s.id) : undefined;
      if (same) {
        flags.push({ flag: QualityFlag.duplicatePhoto, reason: `Same photo as ${await other(same)}`, otherResponseId: same });
        break;
      }
    }
    const hashed = photos.filter((p) => p.phash);
    if (hashed.length > 0) {
      const recent = await this.repo.recentHashes(s.user_id, s.survey_id, s.id, FlagThresholds.recentPhotos);
      let best: { id: string; bits: number } | null = null;
      for (const p of hashed) {
        for (const r of recent) {
          if (p.sha256 && r.sha256 === p.sha256) continue; // the same file is duplicate_photo
          const bits = hammingDistance(p.phash!, r.phash);
          if (bits <= FlagThresholds.similarPhotoBits && (!best || bits < best.bits)) best = { id: r.response_id, bits };
        }
      }
      if (best) flags.push({ flag: QualityFlag.similarPhoto, reason: `Photo looks like the one in ${await other(best.id)} (${best.bits} of 64 bits differ)`, otherResponseId: best.id });
    }

    // Duration.
    const durationMs = meta.durationMs ?? null;
    if (durationMs !== null) {
      const setting = s.min_duration_s === null ? null : Number(s.min_duration_s);
      const median = setting === null ? await this.medianOf(s.survey_id, now) : null;
      const min = minDurationMs(setting, median);
      if (min !== null && durationMs < min) {
        const basis = setting !== null ? `the survey's minimum of ${setting} s` : `a third of the survey's median of ${seconds(median!)} s`;
        flags.push({ flag: QualityFlag.tooFast, reason: `Filled in ${seconds(durationMs)} s, under ${basis}`, otherResponseId: null });
      }
    }

    // Location.
    const lq = locationQuestion(questions);
    const locationAnswer = lq && Object.hasOwn(answers, lq.text) ? answers[lq.text] : undefined;
    const answered = typeof locationAnswer === 'string' ? locationAnswer.trim() !== '' : false;
    const position = parseLocation(locationAnswer);
    const maxAccuracy = s.max_accuracy_m === null ? FlagThresholds.maxAccuracyMeters : Number(s.max_accuracy_m);
    const accuracy = meta.locationAccuracy ?? position?.accuracy ?? null;
    if (answered && !position) flags.push({ flag: QualityFlag.lowGpsAccuracy, reason: 'The location question was answered without a position', otherResponseId: null });
    else if (position && accuracy !== null && accuracy > maxAccuracy) flags.push({ flag: QualityFlag.lowGpsAccuracy, reason: `Location accurate to ${Math.round(accuracy)} m, worse than ${maxAccuracy} m`, otherResponseId: null });

    const capturedAt = Number(s.captured_at ?? s.created_at);
    if (position) {
      for (const n of await this.repo.neighbours(s.user_id, capturedAt, s.id)) {
        const km = distanceKm(position, n);
        const dt = Math.abs(capturedAt - n.capturedAt);
        const kmh = speedKmh(km, dt);
        if (kmh > FlagThresholds.maxSpeedKmh) {
          flags.push({ flag: QualityFlag.impossibleTravel, reason: `${km.toFixed(1)} km from ${await other(n.id)} in ${minutes(dt)} min (${Number.isFinite(kmh) ? `${Math.round(kmh)} km/h` : 'no time between them'})`, otherResponseId: n.id });
          break;
        }
      }
    }

    // Same answers as another response of the survey.
    const answersHash = answersHashOf(questions, answers);
    if (answersHash) {
      const same = await this.repo.sameAnswers(s.survey_id, answersHash, s.id);
      if (same) flags.push({ flag: QualityFlag.duplicateAnswers, reason: `Same answers as ${await other(same)}`, otherResponseId: same });
    }

    if (meta.clockSkewMs !== undefined && Math.abs(meta.clockSkewMs) > FlagThresholds.clockSkewMs) {
      flags.push({ flag: QualityFlag.clockSkew, reason: `The phone's clock was ${minutes(meta.clockSkewMs)} min ${meta.clockSkewMs > 0 ? 'ahead of' : 'behind'} the server's at sync`, otherResponseId: null });
    }

    const arrivedAt = Number(s.created_at);
    const window = { opensAt: Math.max(Number(s.survey_created_at), Number(s.invited_at)), endsAt: arrivedAt, arrivedAt, maxOfflineAgeMs: this.maxOfflineAgeMs };
    const implausible = implausibleTimeFlag(s.client_id, meta.capturedAfterArrival ?? (s.captured_at === null ? null : Number(s.captured_at)), window);
    if (implausible) flags.push(implausible);
    const audio = audioUnavailableFlag(meta.audio);
    if (audio) flags.push(audio);

    const facts: CheckedFacts = { responseId: s.id, surveyId: s.survey_id, userId: s.user_id, capturedAt, position, answersHash: answersHash ?? '', durationMs };
    return this.repo.save({ ...s, created_at: Number(s.created_at) }, facts, photos, flags, now, s.queued_at);
  }
}
