import { createHash } from 'node:crypto';
import { audioAuditKey, audioAuditSelected, uuidv7 } from '@survey-bird/contracts';
import { describe, expect, it } from 'vitest';
import { isSelected } from './audio-audit';

/** The phone's decision must be the server's (modules/audio/settings.ts hashes with node:crypto). */
describe('audio audit selection on the phone', () => {
  it('decides as the server does for the same seed and clientId, and records an always-recorded field user every time', async () => {
    const audit = { percent: 30, consentText: 'May we record?', seed: 'f00dfeed', alwaysFieldUserIds: [] as string[] };
    const ids = Array.from({ length: 200 }, () => uuidv7());
    const server = ids.map((id) => audioAuditSelected(createHash('sha256').update(audioAuditKey(audit.seed, id)).digest('hex'), audit.percent));
    const phone = await Promise.all(ids.map((id) => isSelected(audit, id)));
    expect(phone).toEqual(server);
    expect(server.some(Boolean) && !server.every(Boolean)).toBe(true);
    expect(await isSelected({ ...audit, percent: 0, alwaysFieldUserIds: ['me'] }, ids[0]!)).toBe(true);
    expect(await isSelected({ ...audit, percent: 0 }, ids[0]!)).toBe(false);
  });
});
