import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A stored photo's address signed as an export signs it (apps/api/src/modules/files/file-links.ts),
 * an hour long, with the key the server derives from the JWT secret it wrote into DATA_DIR: a bare
 * photo address answers 410 without a session.
 */
export function signedPhotoUrl(env: { baseUrl: string; dataDir: string }, reference: string): URL {
  const url = new URL(reference, env.baseUrl);
  const id = url.pathname.split('/').pop()!;
  const key = createHmac('sha256', readFileSync(join(env.dataDir, 'jwt-secret'), 'utf8').trim()).update('file-links').digest('hex');
  const exp = Math.floor(Date.now() / 1000) + 3600;
  url.search = `exp=${exp}&sig=${createHmac('sha256', key).update(`${id}\u0000${exp}`).digest('hex')}`;
  return url;
}
