import { sql, type Kysely } from 'kysely';

/**
 * Office users: an organization's several office logins, each with an office role and optionally a
 * list of surveys (JSON array of survey ids; null: every survey). One membership per e-mail, so an
 * office login belongs to one organization, as an owner's always did. Every organization's owner
 * e-mail becomes its owner membership. Additive: an older instance still finds an owner through
 * organizations.email, and this one does the same for an organization that has no membership yet
 * (one an older instance created during a rolling deploy).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('office_users')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(36)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'varchar(320)', (c) => c.notNull().unique())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('survey_ids', 'text')
    .addColumn('invited_by', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('office_users_organization').on('office_users').columns(['organization_id', 'role']).execute();
  await sql`insert into office_users (id, organization_id, email, role, survey_ids, invited_by, created_at)
    select id, id, email, 'owner', null, null, created_at from organizations`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('office_users').execute();
}
