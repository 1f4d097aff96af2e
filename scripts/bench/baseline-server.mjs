// The ingest baseline: bare Fastify, JSON body, one prepared better-sqlite3 insert (WAL, NORMAL).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { uuidv7 } from '@survey-bird/contracts/ids';

const db = new Database(join(process.env.DATA_DIR, 'baseline.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`create table if not exists responses (id text primary key, client_id text not null, survey_id text not null, organization_id text not null, answers text not null, created_at integer not null, unique (survey_id, client_id))`);
const insert = db.prepare('insert into responses (id, client_id, survey_id, organization_id, answers, created_at) values (?, ?, ?, ?, ?, ?)');

const app = Fastify({ logger: false });
app.get('/health', async () => ({ ok: true }));
app.post('/ingest', async (req) => {
  const b = req.body;
  const id = uuidv7();
  insert.run(id, b.clientId, b.survey_id, b.organization_id, JSON.stringify(b.answers), Date.now());
  return { msg: 'ok', _id: id, clientId: b.clientId };
});
// The same insert for a batch, in one transaction (the reference for the batch endpoint).
const insertAll = db.transaction((items) =>
  items.map((b) => {
    const id = uuidv7();
    insert.run(id, b.clientId, b.survey_id, b.organization_id, JSON.stringify(b.answers), Date.now());
    return { status: 200, msg: 'ok', _id: id, clientId: b.clientId };
  }),
);
app.post('/ingest-batch', async (req) => ({ results: insertAll(req.body.responses) }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
