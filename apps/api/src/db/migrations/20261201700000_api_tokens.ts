import type { Kysely } from 'kysely';

/**
 * API tokens for scripts and BI tools. Only the SHA-256 of a token is kept (a unique index finds
 * it in one seek); `hint` is its first characters, to recognise it on the Tokens screen. A token
 * acts as its creator with the creator's office membership as it is at each use, narrowed to
 * `survey_id` when set. `used_day` (days since 1970, UTC) is the last day a use was audited: one
 * audit row per token per day. New table only: additive.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('hint', 'varchar(32)', (c) => c.notNull())
    .addColumn('survey_id', 'varchar(64)', (c) => c.references('surveys.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('used_day', 'integer')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_tokens_organization').on('api_tokens').columns(['organization_id', 'created_at']).execute();
  await db.schema.createIndex('api_tokens_user').on('api_tokens').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_tokens').execute();
}
