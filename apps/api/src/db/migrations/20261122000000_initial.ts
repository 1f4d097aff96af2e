import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'varchar(32)', (c) => c.notNull())
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('full_name', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_role_created').on('users').columns(['role', 'created_at']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('auth_tokens')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('auth_tokens_user').on('auth_tokens').columns(['user_id', 'kind']).execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('organizations_created').on('organizations').column('created_at').execute();

  await db.schema
    .createTable('surveys')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('expected_response_count', 'integer')
    .addColumn('questions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('surveys_org_created').on('surveys').columns(['organization_id', 'created_at']).execute();

  await db.schema
    .createTable('members')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('role', 'varchar(32)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('bank', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('account_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('account_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('rate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('supervisor_id', 'varchar(64)', (c) => c.references('members.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('members_survey_email', ['survey_id', 'email'])
    .execute();
  await db.schema.createIndex('members_survey_role').on('members').columns(['survey_id', 'role', 'created_at']).execute();
  await db.schema.createIndex('members_user').on('members').column('user_id').execute();
  await db.schema.createIndex('members_email').on('members').column('email').execute();
  await db.schema.createIndex('members_supervisor').on('members').column('supervisor_id').execute();

  await db.schema
    .createTable('dataset_options')
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('value_lower', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dataset_options_pk', ['survey_id', 'question', 'position'])
    .execute();
  await db.schema.createIndex('dataset_options_search').on('dataset_options').columns(['survey_id', 'question', 'value_lower']).execute();

  await db.schema
    .createTable('responses')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('member_id', 'varchar(64)', (c) => c.notNull().references('members.id'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id'))
    .addColumn('answers', 'text', (c) => c.notNull())
    .addColumn('body_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('rate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_at', 'bigint')
    .addColumn('captured_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('responses_survey_client', ['survey_id', 'client_id'])
    .execute();
  await db.schema.createIndex('responses_survey_created').on('responses').columns(['survey_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('responses_member_created').on('responses').columns(['member_id', 'created_at']).execute();

  await db.schema
    .createTable('files')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id'))
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('survey_id', 'varchar(64)', (c) => c.notNull().references('surveys.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('mime', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('files_user_client_question', ['user_id', 'client_id', 'question'])
    .execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('to_email', 'varchar(254)', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('mail_outbox_to').on('mail_outbox').columns(['to_email', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['mail_outbox', 'files', 'responses', 'dataset_options', 'members', 'surveys', 'organizations', 'auth_tokens', 'sessions', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
