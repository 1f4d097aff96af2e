#!/usr/bin/env node
// Every package the lock file installs must run on the Node version the README promises (20.19):
// a dependency that asks for a newer Node fails here, by name, instead of warning at install.
import { readFileSync } from 'node:fs';
import semver from 'semver';

const promised = JSON.parse(readFileSync('package.json', 'utf8')).engines.node;
const floor = semver.minVersion(promised).version;
/**
 * Declared for a newer Node but run on 20 by every test: name@version -> why it is accepted. Each is
 * said in the README's Quick start too. cookie 2 is light-my-request 6.8's (fastify.inject); 6.6,
 * on cookie 1, hangs tus PATCH requests made through inject (every resumable-upload test timed out).
 */
const ACCEPTED = new Map([['cookie@2.0.2', "fastify's inject (light-my-request 6.8); the whole API suite runs through it on Node 20"]]);
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const bad = [];
for (const [path, pkg] of Object.entries(lock.packages)) {
  const wants = pkg.engines?.node;
  if (!path || !wants) continue;
  if (ACCEPTED.has(`${path.replace(/^.*node_modules\//, '')}@${pkg.version}`)) continue;
  if (!semver.satisfies(floor, wants)) bad.push(`${path.replace(/^.*node_modules\//, '')}@${pkg.version} needs node ${wants}`);
}
if (bad.length) {
  console.error(`These packages do not support Node ${floor} (package.json engines: ${promised}):\n  ${bad.join('\n  ')}`);
  process.exit(1);
}
