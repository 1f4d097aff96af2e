import type { TestProject } from 'vitest/node';
import { startServer } from './harness/server';

declare module 'vitest' {
  export interface ProvidedContext {
    env: { baseUrl: string; dataDir: string; adminEmail: string; adminPassword: string };
  }
}

/** One API server (serving the built PWA) for the whole run; each test file opens its own browser. */
export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide('env', { baseUrl: server.baseUrl, dataDir: server.dataDir, adminEmail: server.adminEmail, adminPassword: server.adminPassword });
  return () => server.stop();
}
