/**
 * A payout over 100,000 approved, unpaid responses (organization 0's survey of the scale
 * data, every response approved on receipt) is created in <= 2 s, and its xlsx (a Transfers sheet
 * and a Responses sheet listing every response) streams in flat memory: the server's peak RSS
 * while downloading it, against its idle RSS just before. Each round creates, then cancels (which
 * releases the responses for the next round). Quick mode (CI): 20,000 responses, one round.
 */
import { randomUUID } from 'node:crypto';
import { QUICK, json, loginToken, median, rssMb, startApi, type Finding } from './lib.js';
import { pgServerUrl, scaleData } from './scale-data.js';

const RESPONSES = QUICK ? 20_000 : 100_000;

export async function benchPayouts(): Promise<{ findings: Finding[]; lines: string[] }> {
  const findings: Finding[] = [];
  const lines: string[] = [];
  for (const engine of pgServerUrl() ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)) {
    const r = await payoutsOn(engine);
    findings.push(...r.findings);
    lines.push(...r.lines);
  }
  return { findings, lines };
}

async function payoutsOn(engine: 'sqlite' | 'postgres'): Promise<{ findings: Finding[]; lines: string[] }> {
  const rounds = QUICK ? 1 : 3;
  const data = await scaleData(engine, 1, RESPONSES);
  const org = data.info.orgs[0]!;
  const api = await startApi(data.env);
  const E = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  try {
    const token = await loginToken(api.url, org.email, data.info.password);
    const auth = { authorization: `Bearer ${token}` };
    const created: number[] = [];
    let payoutId = '';
    let count = 0;
    for (let r = 0; r < rounds; r++) {
      const t0 = performance.now();
      const reply = await json<{ payout: { _id: string; responseCount: number } }>(`${api.url}/api/v1/payouts`, { method: 'POST', headers: auth, body: JSON.stringify({ survey_id: org.surveyId, key: randomUUID() }) });
      created.push(performance.now() - t0);
      payoutId = reply.payout._id;
      count = reply.payout.responseCount;
      if (r < rounds - 1) await json(`${api.url}/api/v1/payouts/${payoutId}/cancel`, { method: 'POST', headers: auth, body: '{}' });
    }

    // The bank file of the last one, read to the end while the server's RSS is sampled.
    const idle = rssMb(api.pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(api.pid))), 20);
    const t0 = performance.now();
    const res = await fetch(`${api.url}/api/v1/payouts/${payoutId}/download?format=xlsx`, { headers: auth });
    let bytes = 0;
    for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
    const downloadMs = performance.now() - t0;
    clearInterval(sampler);
    if (res.status !== 200) throw new Error(`payout download: ${res.status}`);

    // Marking it paid stamps paid_at on every response it holds (the phones' changes feed reads it): no target, measured.
    const p0 = performance.now();
    await json(`${api.url}/api/v1/payouts/${payoutId}/paid`, { method: 'POST', headers: auth, body: JSON.stringify({ reference: 'BENCH-REF' }) });
    const paidMs = performance.now() - p0;

    const createMs = median(created);
    const growth = peak - idle;
    return {
      findings: [
        { target: `Payouts. ${E} payout over ${RESPONSES.toLocaleString('en')} approved responses created in <= 2 s`, measured: `${(createMs / 1000).toFixed(2)} s (median of ${rounds}; ${count.toLocaleString('en')} responses frozen)`, holds: count === RESPONSES && createMs <= 2000 },
        { target: `Payouts. ${E} payout over ${RESPONSES.toLocaleString('en')} responses marked paid (no target)`, measured: `${(paidMs / 1000).toFixed(2)} s`, holds: null },
        { target: `Payouts. ${E} payout xlsx streams in flat memory: peak RSS <= idle + 160 MB`, measured: `peak ${peak.toFixed(0)} MB, idle ${idle.toFixed(0)} MB: +${growth.toFixed(0)} MB for ${(bytes / 1e6).toFixed(1)} MB of xlsx in ${(downloadMs / 1000).toFixed(1)} s`, holds: growth <= 160 },
      ],
      lines: [`${E} payouts: ${RESPONSES.toLocaleString('en')} approved responses of ${org.surveyId.slice(0, 8)}; create then cancel, ${rounds} round(s); the last one downloaded as xlsx`],
    };
  } finally {
    await api.stop();
  }
}
