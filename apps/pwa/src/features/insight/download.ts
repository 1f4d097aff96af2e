import { Msg, type ExportFormat, type RouteName } from '@survey-bird/contracts';
import table from '../../api/route-table';
import { ApiError, classifyFailure, fillPath, withQuery, type Failure } from '../../api/client';
import { handleFailure } from '../../api/failures';
import { activeAccount } from '../../session/account-storage';
import type { ListFilters } from './use-insight';

export type ExportRoute = Extract<RouteName, 'organizationExport' | 'supervisorExport'>;

export interface ExportRequest {
  route: ExportRoute;
  surveyId: string;
  searchQuery: string;
  /** The table's status and flag filters, if any. */
  filters?: ListFilters;
  /** xlsx when left out. */
  format?: ExportFormat;
  /** Personal answers as "hidden: personal" (an analyst's export always is). */
  withoutPersonal?: boolean;
  /** Bytes received so far, and the total when the server announced one. */
  onProgress?: (received: number, total: number | null) => void;
  signal?: AbortSignal;
}

/**
 * The xlsx export as a Blob. The typed client reads binary replies in one go; this streams the
 * body so the Export button can show bytes received. Failures go through the app's failure
 * handler (toast with the server's msg, or the re-login redirect) like any other call.
 */
export async function fetchExport({ route, surveyId, searchQuery, filters, format, withoutPersonal, onProgress, signal }: ExportRequest): Promise<Blob> {
  const url = withQuery(fillPath(table[route].path, { surveyId }), { searchQuery: searchQuery || undefined, ...filters, format: format === 'xlsx' ? undefined : format, withoutPersonal: withoutPersonal ? 'true' : undefined });
  const token = activeAccount()?.token;
  const fail = (status: number, msg: string): never => {
    const failure: Failure = { route, status, msg, kind: classifyFailure(route, status, msg), args: { params: { surveyId } } };
    handleFailure(failure);
    throw new ApiError(failure);
  };

  let res: Response;
  try {
    res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    return fail(0, Msg.unexpectedError);
  }
  if (!res.ok) {
    const msg = await res.json().then((d: { msg?: unknown } | null) => (typeof d?.msg === 'string' && d.msg ? d.msg : Msg.unexpectedError), () => Msg.unexpectedError);
    return fail(res.status, msg);
  }

  const type = res.headers.get('content-type') ?? 'application/octet-stream';
  const length = Number(res.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (!res.body) return res.blob();
  const reader = res.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.byteLength;
      onProgress?.(received, total);
    }
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    return fail(0, Msg.unexpectedError);
  }
  return new Blob(chunks, { type });
}

/** Saves a Blob under `fileName` through a temporary object URL and a download anchor. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some browsers; a minute is plenty to hand it over.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
