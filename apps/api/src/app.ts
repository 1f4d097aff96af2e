import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Limits } from '@survey-bird/contracts';
import { fileJwtSecret, newJwtSecret, type Config } from './config.js';
import { migrateToLatest, openDb, tuneForRequests, type Db } from './db/database.js';
import { SettingsRepository } from './db/settings-repository.js';
import { withStartupLock } from './db/startup-lock.js';
import { frameworkErrors, registerErrorHandling } from './http/errors.js';
import { registerJsonBody } from './http/json-body.js';
import authPlugin from './plugins/auth.js';
import contextPlugin from './plugins/context.js';
import lifecyclePlugin from './plugins/lifecycle.js';
import pwaPlugin from './plugins/pwa.js';
import securityHeaders from './plugins/security-headers.js';
import { registerModules } from './modules/index.js';

export interface BuildOptions {
  /** An already open database (tests share one per file); otherwise opened from config. */
  db?: Db;
  logger?: boolean;
  /** Where log lines go (default stdout); tests capture them to check no token is ever logged. */
  logStream?: NodeJS.WritableStream;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === false ? false : {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      // Tokens travel in the Authorization header and in reset/verify URLs: never log them.
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: { req: (req) => ({ method: req.method, url: req.url.replace(/([?&](token|resetToken|invite)=)[^&]+/g, '$1[redacted]').replace(/^(\/api\/v1\/user\/)(?!login|register|all|sign-out|change-password|send-refresh-token|reset-password|resend-verification-mail)[^/?]+/, '$1[redacted]').replace(/^(\/confirm-email\/)[^/?]+/, '$1[redacted]') }) },
    },
    bodyLimit: 12 * 1024 * 1024,
    // Only behind a known proxy may X-Forwarded-For name the client (the per-IP rate limit reads it).
    trustProxy: config.trustProxy,
    frameworkErrors,
    // plugins/lifecycle.ts answers requests that arrive while draining, in the API's { msg } shape.
    return503OnClosing: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerJsonBody(app);

  const db = options.db ?? openDb({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    sqliteSynchronous: config.sqliteSynchronous,
    onPoolError: (err) => app.log.warn({ err: err.message }, 'database connection dropped'),
  });
  await withStartupLock(db, () => migrateToLatest(db));
  if (!config.jwtSecret) {
    // A secret generated into DATA_DIR by an earlier single-instance start is kept, so its sessions stay valid.
    const jwtSecret = await new SettingsRepository(db.kysely).getOrCreate('jwt_secret', fileJwtSecret(config.dataDir) ?? newJwtSecret());
    config = { ...config, jwtSecret };
  }
  tuneForRequests(db);

  await app.register(contextPlugin, { config, db });
  await app.register(lifecyclePlugin);
  await app.register(securityHeaders);
  await app.register(fastifyMultipart, {
    limits: { fileSize: Limits.maxImageBytes, files: 1, fields: 10, parts: 12, fieldSize: 4096, headerPairs: 100 },
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Survey Bird API', version: '1.0.0', description: 'Generated from packages/contracts.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  await app.register(authPlugin);
  await registerModules(app);
  await app.register(pwaPlugin, { root: config.pwaDir });
  return app;
}
