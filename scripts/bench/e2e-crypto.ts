/**
 * The cost of end-to-end encryption (packages/contracts/src/e2e.ts, as built): on the phone, sealing one
 * response's answers to the survey's RSA-OAEP 3072 key (a fresh AES-256-GCM key per response, wrapped),
 * against the at-rest seal the phone already does per response (AES-256-GCM under a kept key); in
 * the office, opening 1,000 rows with the unlocked private key. WebCrypto in Node (OpenSSL), the
 * same algorithms the browsers run; a phone's CPU is several times slower, hence the generous
 * targets: sealing <= 20 ms per response, opening 1,000 rows <= 10 s.
 * `npx tsx scripts/bench/e2e-crypto.ts` on its own, or `npm run bench e2e-crypto`.
 */
import { decryptAnswers, encryptAnswers, generateSurveyKeys, keyIdOf } from '@survey-bird/contracts/e2e';
import { DEMO_ANSWERS, median, QUICK, type Finding } from './lib.js';

const SEAL_TARGET_MS = 20;
const OPEN_TARGET_S = 10;

/** A 30-answer response (about 1.5 KB of JSON): the demo's answers and free text. */
function answers(i: number): Record<string, unknown> {
  const a: Record<string, unknown> = { ...DEMO_ANSWERS };
  for (let q = 0; q < 30 - Object.keys(DEMO_ANSWERS).length; q++) a[`Question ${q}`] = `Answer ${q} of response ${i}, typed on the phone`;
  return a;
}

export async function benchE2eCrypto(): Promise<{ findings: Finding[]; lines: string[] }> {
  const { publicKey, privateKey } = await generateSurveyKeys();
  const kid = await keyIdOf(publicKey);
  const rest = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
  const n = QUICK ? 100 : 1_000;
  const rounds = QUICK ? 1 : 3;
  const seal: number[] = [];
  const atRest: number[] = [];
  const open: number[] = [];
  let envelopes: Awaited<ReturnType<typeof encryptAnswers>>[] = [];
  await encryptAnswers(publicKey, answers(0));
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    for (let i = 0; i < n; i++) await crypto.subtle.encrypt({ name: 'AES-GCM', iv: crypto.getRandomValues(new Uint8Array(12)) }, rest, new TextEncoder().encode(JSON.stringify(answers(i))));
    atRest.push((performance.now() - t) / n);
    t = performance.now();
    envelopes = [];
    for (let i = 0; i < n; i++) envelopes.push(await encryptAnswers(publicKey, answers(i)));
    seal.push((performance.now() - t) / n);
    t = performance.now();
    for (const e of envelopes) await decryptAnswers(privateKey, kid, e);
    // Milliseconds per row are seconds per 1,000 rows.
    open.push((performance.now() - t) / n);
  }
  const sealMs = median(seal);
  const restMs = median(atRest);
  const per1000S = median(open);
  const mode = QUICK ? ' (quick mode)' : '';
  return {
    findings: [
      { target: `End-to-end encryption. Sealing one response (30 answers) to the survey key on the phone <= ${SEAL_TARGET_MS} ms (Node WebCrypto)`, measured: `${sealMs.toFixed(2)} ms vs ${restMs.toFixed(3)} ms for the at-rest seal${mode}`, holds: sealMs <= SEAL_TARGET_MS },
      { target: `End-to-end encryption. Opening 1,000 rows in the office <= ${OPEN_TARGET_S} s (Node WebCrypto)`, measured: `${per1000S.toFixed(2)} s${mode}`, holds: per1000S <= OPEN_TARGET_S },
    ],
    lines: [`e2e-crypto: ${n} responses x ${rounds} round(s); seal ms per response ${seal.map((v) => v.toFixed(2)).join(', ')}; open s per 1,000 ${open.map((v) => v.toFixed(2)).join(', ')}`],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchE2eCrypto();
  for (const f of r.findings) console.log(`${f.holds ? 'ok' : 'MISSED'}  ${f.target}: ${f.measured}`);
  for (const l of r.lines) console.log(l);
}
