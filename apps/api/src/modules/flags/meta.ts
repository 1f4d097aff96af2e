import type { RespondBody } from '@survey-bird/contracts';

/** `responses.meta` (JSON): what the phone recorded with a response; times in ms. */
export interface StoredMeta {
  openedAt?: number;
  durationMs?: number;
  locationAccuracy?: number;
  locationFixedAt?: number;
  deviceId?: string;
  appVersion?: string;
  photoHashes?: Record<string, string>;
  /** The phone's clock minus the server's when the request arrived; on one response per sync only. */
  clockSkewMs?: number;
  /** capturedAt as the phone sent it, only when after the response's arrival (captured_at then holds the arrival). */
  capturedAfterArrival?: number;
  /** The audio audit as the phone reported it, and whether the server's rule selected the interview. */
  audio?: StoredAudio;
}

export interface StoredAudio {
  selected: boolean;
  status?: string;
  consent?: boolean;
  reason?: string;
  size?: number;
  sha256?: string;
  durationMs?: number;
  mime?: string;
}

/**
 * The meta column for a response body, or null when the phone sent none (an older phone: its row
 * is stored exactly as before). `withSkew`: this response reports the sync's clock skew.
 */
export function storedMetaOf(body: RespondBody, now: number, withSkew: boolean, audio?: StoredAudio): string | null {
  const meta: StoredMeta = {};
  if (audio) meta.audio = audio;
  if (body.openedAt !== undefined) meta.openedAt = Date.parse(body.openedAt);
  if (body.durationMs !== undefined) meta.durationMs = body.durationMs;
  if (body.locationAccuracy !== undefined) meta.locationAccuracy = body.locationAccuracy;
  if (body.locationFixedAt !== undefined) meta.locationFixedAt = Date.parse(body.locationFixedAt);
  if (body.deviceId) meta.deviceId = body.deviceId;
  if (body.appVersion) meta.appVersion = body.appVersion;
  if (body.photoHashes && Object.keys(body.photoHashes).length > 0) meta.photoHashes = body.photoHashes;
  if (withSkew && body.sentAt !== undefined) meta.clockSkewMs = Date.parse(body.sentAt) - now;
  if (body.capturedAt !== undefined && Date.parse(body.capturedAt) > now) meta.capturedAfterArrival = Date.parse(body.capturedAt);
  return Object.keys(meta).length > 0 ? JSON.stringify(meta) : null;
}

export function parseMeta(json: string | null): StoredMeta {
  return json ? (JSON.parse(json) as StoredMeta) : {};
}
