import type { Knex } from "knex";

/**
 * The context lists kept per version (decision 0084): `version_contexte`, one row (id 1) whose counter moves in the
 * transaction of every write to what a user's context lists read — networks, folders and the users' folder rights,
 * farms and their folder links with rights, campaigns. SQLite: row triggers; PostgreSQL: statement triggers (one
 * counter write per statement). The counter is visible to readers only when the write commits, with the write.
 */
const TABLE = "version_contexte";
const TABLES = ["oad", "dossier", "utilisateur_dossier", "exploitation", "dossier_exploitation", "campagne"] as const;
const EVENTS = ["insert", "update", "delete"] as const;
const BUMP = `UPDATE ${TABLE} SET version = version + 1 WHERE id = 1`;
const FUNCTION = `${TABLE}_bump`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable(TABLE, (t) => {
    t.integer("id").primary();
    t.bigInteger("version").notNullable();
  });
  await knex(TABLE).insert({ id: 1, version: 1 });
  const postgres = knex.client.config.client === "pg";
  if (postgres) await knex.raw(`CREATE FUNCTION ${FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${BUMP}; RETURN NULL; END $$`);
  for (const table of TABLES) {
    for (const event of EVENTS) {
      const name = `${TABLE}_${table}_${event}`;
      await knex.raw(
        postgres
          ? `CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${FUNCTION}()`
          : `CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${table} BEGIN ${BUMP}; END`,
      );
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  const postgres = knex.client.config.client === "pg";
  for (const table of TABLES) {
    for (const event of EVENTS) {
      const name = `${TABLE}_${table}_${event}`;
      await knex.raw(postgres ? `DROP TRIGGER IF EXISTS ${name} ON ${table}` : `DROP TRIGGER IF EXISTS ${name}`);
    }
  }
  if (postgres) await knex.raw(`DROP FUNCTION IF EXISTS ${FUNCTION}()`);
  await knex.schema.dropTableIfExists(TABLE);
}
