import type { Kysely } from 'kysely';

/**
 * Mails that must survive the reply and a restart: a row is written in the transaction that makes
 * the mail due (an invitation of a file's row, a bank change) and sent by the mail-queue worker,
 * which deletes it once the mailer has recorded it in mail_outbox. The row keeps what renders the
 * mail (kind and JSON payload), never its body: an invitation's link is derived at sending time.
 * A bank change request keeps the reason of its rejection (the field user reads it). Additive.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_queue')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'varchar(500)')
    .execute();
  await db.schema.createIndex('mail_queue_due').on('mail_queue').columns(['next_attempt_at']).execute();
  await db.schema.alterTable('bank_change_requests').addColumn('reason', 'varchar(300)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bank_change_requests').dropColumn('reason').execute();
  await db.schema.dropTable('mail_queue').execute();
}
