import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Ranges a webhook may never reach unless the operator allows it (WEBHOOK_ALLOW_PRIVATE=true). */
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) BLOCKED.addSubnet(net, bits, 'ipv6');
/** Cloud metadata services reached by name. */
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'localhost']);

/** Whether an address is private, loopback, link-local, reserved or a cloud metadata service's (IPv4-mapped IPv6 as its IPv4). */
export function blockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The URL's host without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();

/**
 * At save: refuses a URL whose host is a literal blocked address or a metadata name. A host name is
 * not resolved here (it may not resolve yet); every send resolves and checks it again.
 */
export function refusedAtSave(raw: string): boolean {
  const host = hostOf(new URL(raw));
  if (METADATA_HOSTS.has(host) || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && blockedAddress(host);
}

/** `X-SurveyBird-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function signature(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

export const SEND_TIMEOUT_MS = 10_000;
/** A reply's body is read up to this and the rest dropped: only its status matters. */
export const MAX_REPLY_BYTES = 1 << 20;

export interface SendResult {
  status: number | null;
  error: string | null;
}

/**
 * One POST: resolves the host and checks every address at connect time (so a name that resolves
 * to a private address, or changes to one after saving, is refused), 10 s for the whole exchange,
 * at most 1 MB of reply read, redirects not followed (a 3xx is a failure).
 */
export function send(raw: string, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<SendResult> {
  const url = new URL(raw);
  const host = hostOf(url);
  // A literal address is connected to without a lookup: checked here. A name is checked as it resolves.
  if (!allowPrivate && isIP(host) !== 0 && blockedAddress(host)) return Promise.resolve({ status: null, error: 'refused: a private or reserved address' });
  const checkedLookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const refused = !allowPrivate && addresses.some((a) => blockedAddress(a.address));
      if (refused || addresses.length === 0) return callback(Object.assign(new Error('refused: the name resolves to a private or reserved address'), { code: 'EBLOCKED' }), '', 4);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers }, lookup: checkedLookup }, (res: IncomingMessage) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_REPLY_BYTES) {
          res.destroy();
          done({ status: res.statusCode ?? null, error: 'reply larger than 1 MB' });
        }
      });
      res.on('end', () => done({ status: res.statusCode ?? null, error: null }));
      res.on('error', (err) => done({ status: res.statusCode ?? null, error: err.message }));
    });
    const timer = setTimeout(() => {
      req.destroy();
      done({ status: null, error: 'no reply within 10 s' });
    }, SEND_TIMEOUT_MS);
    req.on('error', (err) => done({ status: null, error: err.message.slice(0, 300) }));
    req.end(body);
  });
}
