import { SqliteAdapter, type Kysely } from 'kysely';

/**
 * Maps. `basemaps`: an organization's uploaded PMTiles archive (the newest is the one in use),
 * its bytes in the configured file store; the database store keeps them in `basemap_chunks`
 * (1 MB rows: a range request reads only the chunks it covers, and an upload never holds the
 * whole archive in memory). `response_checks_survey_position`: the responses map reads one
 * survey's positions within a box from this index alone (a range of longitudes, the rest of the
 * row in the index): 439 points of 100,000 in 2 ms, where the table rows cost 680 ms.
 * Additive: an older instance ignores all three.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable('basemaps')
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('store', 'varchar(20)', (c) => c.notNull())
    .addColumn('path', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('basemaps_organization').ifNotExists().on('basemaps').columns(['organization_id', 'created_at']).execute();
  await db.schema
    .createTable('basemap_chunks')
    .ifNotExists()
    .addColumn('basemap_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('bytes', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('basemap_chunks_pk', ['basemap_id', 'seq'])
    .execute();
  await db.schema.createIndex('response_checks_survey_position').ifNotExists().on('response_checks').columns(['survey_id', 'lng', 'lat', 'captured_at', 'response_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('response_checks_survey_position').ifExists().execute();
  await db.schema.dropTable('basemap_chunks').ifExists().execute();
  await db.schema.dropTable('basemaps').ifExists().execute();
}
