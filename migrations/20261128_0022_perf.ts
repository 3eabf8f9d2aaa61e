import type { Knex } from "knex";

/**
 * The version of a campaign's interventions (decision 0063): a counter per campaign that the database itself moves on
 * with every write that changes what the interventions screen lists (the interventions, their inputs, harvests and
 * rule evaluations, and the reference names those rows show), in the writing transaction. The screen's loader keeps
 * its answer per campaign and version (server/intervention/rows-cache.ts) and reads the counter on every request, so
 * an answer is never served after a committed write, whatever wrote it (service, importer, copy, cascade), in
 * whichever process or container. Triggers rather than a call in each write path: no write path can forget it.
 *
 * SQLite: row triggers. PostgreSQL: statement triggers over the transition tables (one counter write per statement,
 * not per row: a 500-row grid save moves the counter once).
 */

const TABLE = "version_interventions";

/** The campaigns a changed row belongs to, from the row alias `r`. */
const campaignsOf: Record<string, (r: string) => string> = {
  action: (r) => `SELECT ${r}.id_campagne AS id_campagne FROM ROWS ${r}`,
  intrant: (r) => `SELECT a.id_campagne AS id_campagne FROM ROWS ${r} JOIN action a ON a.id = ${r}.id_action`,
  recolte: (r) => `SELECT a.id_campagne AS id_campagne FROM ROWS ${r} JOIN action a ON a.id = ${r}.id_action`,
  rdd_evaluation: (r) => `SELECT a.id_campagne AS id_campagne FROM ROWS ${r} JOIN action a ON a.id = ${r}.id_action`,
};

/** Reference rows whose names the listed rows show: only a change of that name matters. */
const names: { table: string; column: string; campaigns: (id: string) => string }[] = [
  {
    table: "culture",
    column: "libelle",
    campaigns: (id) => `SELECT a.id_campagne AS id_campagne FROM recolte x JOIN action a ON a.id = x.id_action WHERE x.id_culture = ${id}`,
  },
  {
    table: "type_sortie",
    column: "libelle",
    campaigns: (id) => `SELECT a.id_campagne AS id_campagne FROM recolte x JOIN action a ON a.id = x.id_action WHERE x.dic_id_type_sortie = ${id}`,
  },
  {
    table: "qualifiant_recolte",
    column: "qrd_nom",
    campaigns: (id) => `SELECT a.id_campagne AS id_campagne FROM recolte x JOIN action a ON a.id = x.id_action WHERE x.id_qualifiant_recolte = ${id}`,
  },
  {
    table: "categorie_intrant",
    column: "id_type_intrant",
    campaigns: (id) => `SELECT a.id_campagne AS id_campagne FROM intrant x JOIN action a ON a.id = x.id_action WHERE x.id_categorie = ${id}`,
  },
];

const bump = (campaigns: string, qualified: boolean) =>
  `INSERT INTO ${TABLE} (id_campagne, version) SELECT DISTINCT c.id_campagne, 1 FROM (${campaigns}) c WHERE c.id_campagne IS NOT NULL ` +
  `ON CONFLICT (id_campagne) DO UPDATE SET version = ${qualified ? `${TABLE}.` : ""}version + 1`;

const EVENTS = ["insert", "update", "delete"] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable(TABLE, (t) => {
    // No foreign key: the counter of a deleted campaign stays, so that an id used again never meets an old version.
    t.integer("id_campagne").primary();
    t.integer("version").notNullable();
  });
  const postgres = knex.client.config.client === "pg";
  for (const [table, of] of Object.entries(campaignsOf)) {
    for (const event of EVENTS) {
      const name = `${TABLE}_${table}_${event}`;
      if (postgres) {
        const sets = [...(event !== "insert" ? ["anciens"] : []), ...(event !== "delete" ? ["nouveaux"] : [])];
        const campaigns = sets.map((s) => of("r").replace("ROWS r", `${s} r`)).join(" UNION ");
        await knex.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${bump(campaigns, true)}; RETURN NULL; END $$`);
        const referencing = [...(event !== "insert" ? ["OLD TABLE AS anciens"] : []), ...(event !== "delete" ? ["NEW TABLE AS nouveaux"] : [])].join(" ");
        await knex.raw(
          `CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${table} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
        );
      } else {
        // A row trigger sees OLD / NEW; "FROM ROWS r" becomes a one-row select of them.
        const rows = [...(event !== "insert" ? ["OLD"] : []), ...(event !== "delete" ? ["NEW"] : [])];
        const campaigns = rows
          .map((row) =>
            of("r").replace(
              "FROM ROWS r",
              `FROM (SELECT ${row}.${table === "action" ? "id_campagne" : "id_action"} AS ${table === "action" ? "id_campagne" : "id_action"}) r`,
            ),
          )
          .join(" UNION ");
        await knex.raw(`CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${table} BEGIN ${bump(campaigns, false)}; END`);
      }
    }
  }
  for (const { table, column, campaigns } of names) {
    const name = `${TABLE}_${table}_update`;
    if (postgres) {
      await knex.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${bump(campaigns("NEW.id"), true)}; RETURN NULL; END $$`);
      await knex.raw(
        `CREATE TRIGGER ${name} AFTER UPDATE ON ${table} FOR EACH ROW WHEN (OLD.${column} IS DISTINCT FROM NEW.${column}) EXECUTE FUNCTION ${name}()`,
      );
    } else {
      await knex.raw(
        `CREATE TRIGGER ${name} AFTER UPDATE OF ${column} ON ${table} WHEN OLD.${column} IS NOT NEW.${column} BEGIN ${bump(campaigns("NEW.id"), false)}; END`,
      );
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  const postgres = knex.client.config.client === "pg";
  const triggers = [
    ...Object.keys(campaignsOf).flatMap((table) => EVENTS.map((event) => [table, `${TABLE}_${table}_${event}`])),
    ...names.map(({ table }) => [table, `${TABLE}_${table}_update`]),
  ];
  for (const [table, name] of triggers) {
    await knex.raw(postgres ? `DROP TRIGGER IF EXISTS ${name} ON ${table}` : `DROP TRIGGER IF EXISTS ${name}`);
    if (postgres) await knex.raw(`DROP FUNCTION IF EXISTS ${name}()`);
  }
  await knex.schema.dropTableIfExists(TABLE);
}
