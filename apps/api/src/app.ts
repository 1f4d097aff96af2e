import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { DEFAULT_BODY_LIMIT, MAX_UPLOAD_BYTES } from '@survey-bird/contracts';
import { fileJwtSecret, newJwtSecret, type Config } from './config.js';
import { migrateToLatest, openDb, tuneForRequests, type Db } from './db/database.js';
import { SettingsRepository } from './db/settings-repository.js';
import { withStartupLock } from './db/startup-lock.js';
import { frameworkErrors, registerErrorHandling } from './http/errors.js';
import { registerJsonBody } from './http/json-body.js';
import { loggableUrl, registerRequestLog } from './http/request-log.js';
import { limitSlowClients } from './http/slow-clients.js';
import authPlugin from './plugins/auth.js';
import contextPlugin from './plugins/context.js';
import jobsPlugin from './plugins/jobs.js';
import lifecyclePlugin from './plugins/lifecycle.js';
import pwaPlugin from './plugins/pwa.js';
import securityHeaders from './plugins/security-headers.js';
import servicesPlugin from './plugins/services.js';
import { registerModules } from './modules/index.js';
import { API_DESCRIPTION, SECURITY_SCHEMES } from './http/openapi-doc.js';

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
      // Tokens travel in the Authorization header; link tokens and photo addresses in URLs, which
      // only loggableUrl (the route table's `sensitive` parameters) writes to the log.
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: { req: (req: FastifyRequest) => ({ method: req.method, url: loggableUrl(req) }) },
    },
    // http/request-log.ts: errors and slow requests by default, every request at LOG_LEVEL=debug.
    logController: new LogController({ disableRequestLogging: true }),
    // Each route of the table has its own (packages/contracts/src/api.ts); this is for the rest.
    bodyLimit: DEFAULT_BODY_LIMIT,
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
  registerRequestLog(app);
  limitSlowClients(app, config.connections);

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
  await app.register(securityHeaders, { publicUrl: config.publicUrl, tileUrl: config.mapTiles?.url });
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, parts: 12, fieldSize: 4096, headerPairs: 100 },
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Survey Bird API', version: '1.0.0', description: API_DESCRIPTION },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  await app.register(authPlugin);
  await app.register(servicesPlugin);
  await app.register(jobsPlugin);
  await registerModules(app);
  await app.register(pwaPlugin, { root: config.pwaDir });
  return app;
}
