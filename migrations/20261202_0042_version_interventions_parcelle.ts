import type { Knex } from "knex";

/**
 * The version of a plot's interventions (issue 30, decision 0122): beside the campaign's counter of migration 0022,
 * a counter per plot that the database moves on with every write that changes what the interventions screen lists
 * for that plot (its interventions, their inputs, harvests and rule evaluations, and the reference names those rows
 * show), in the writing transaction. After a write the screen's loader reads again only the plots whose counter
 * moved and keeps the others' rows (server/intervention/rows-cache.ts): a save costs its plots, not the campaign's.
 *
 * The same triggers as migration 0022 (SQLite: row triggers; PostgreSQL: statement triggers over the transition
 * tables), naming the plot instead of the campaign. An intervention moved to another plot moves both counters on.
 */

const TABLE = "version_interventions_parcelle";

/** The plots a changed row belongs to, from the row alias `r`. */
const plotsOf: Record<string, (r: string) => string> = {
  action: (r) => `SELECT ${r}.id_parcelle AS id_parcelle FROM ROWS ${r}`,
  intrant: (r) => `SELECT a.id_parcelle AS id_parcelle FROM ROWS ${r} JOIN action a ON a.id = ${r}.id_action`,
  recolte: (r) => `SELECT a.id_parcelle AS id_parcelle FROM ROWS ${r} JOIN action a ON a.id = ${r}.id_action`,
  rdd_evaluation: (r) => `SELECT a.id_parcelle AS id_parcelle FROM ROWS ${r} JOIN action a ON a.id = ${r}.id_action`,
};

/** Reference rows whose names the listed rows show: only a change of that name matters. */
const names: { table: string; column: string; plots: (id: string) => string }[] = [
  {
    table: "culture",
    column: "libelle",
    plots: (id) => `SELECT a.id_parcelle AS id_parcelle FROM recolte x JOIN action a ON a.id = x.id_action WHERE x.id_culture = ${id}`,
  },
  {
    table: "type_sortie",
    column: "libelle",
    plots: (id) => `SELECT a.id_parcelle AS id_parcelle FROM recolte x JOIN action a ON a.id = x.id_action WHERE x.dic_id_type_sortie = ${id}`,
  },
  {
    table: "qualifiant_recolte",
    column: "qrd_nom",
    plots: (id) => `SELECT a.id_parcelle AS id_parcelle FROM recolte x JOIN action a ON a.id = x.id_action WHERE x.id_qualifiant_recolte = ${id}`,
  },
  {
    table: "categorie_intrant",
    column: "id_type_intrant",
    plots: (id) => `SELECT a.id_parcelle AS id_parcelle FROM intrant x JOIN action a ON a.id = x.id_action WHERE x.id_categorie = ${id}`,
  },
];

const bump = (plots: string, qualified: boolean) =>
  `INSERT INTO ${TABLE} (id_parcelle, version) SELECT DISTINCT p.id_parcelle, 1 FROM (${plots}) p WHERE p.id_parcelle IS NOT NULL ` +
  `ON CONFLICT (id_parcelle) DO UPDATE SET version = ${qualified ? `${TABLE}.` : ""}version + 1`;

const EVENTS = ["insert", "update", "delete"] as const;

/** Trigger names: short enough for PostgreSQL's 63 characters. */
const triggerName = (table: string, event: string) => `vip_${table}_${event}`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable(TABLE, (t) => {
    // No foreign key: the counter of a deleted plot stays, so that an id used again never meets an old version.
    t.integer("id_parcelle").primary();
    t.integer("version").notNullable();
  });
  const postgres = knex.client.config.client === "pg";
  for (const [table, of] of Object.entries(plotsOf)) {
    for (const event of EVENTS) {
      const name = triggerName(table, event);
      if (postgres) {
        const sets = [...(event !== "insert" ? ["anciens"] : []), ...(event !== "delete" ? ["nouveaux"] : [])];
        const plots = sets.map((s) => of("r").replace("ROWS r", `${s} r`)).join(" UNION ");
        await knex.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${bump(plots, true)}; RETURN NULL; END $$`);
        const referencing = [...(event !== "insert" ? ["OLD TABLE AS anciens"] : []), ...(event !== "delete" ? ["NEW TABLE AS nouveaux"] : [])].join(" ");
        await knex.raw(
          `CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${table} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
        );
      } else {
        // A row trigger sees OLD / NEW; "FROM ROWS r" becomes a one-row select of them.
        const column = table === "action" ? "id_parcelle" : "id_action";
        const rows = [...(event !== "insert" ? ["OLD"] : []), ...(event !== "delete" ? ["NEW"] : [])];
        const plots = rows.map((row) => of("r").replace("FROM ROWS r", `FROM (SELECT ${row}.${column} AS ${column}) r`)).join(" UNION ");
        await knex.raw(`CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${table} BEGIN ${bump(plots, false)}; END`);
      }
    }
  }
  for (const { table, column, plots } of names) {
    const name = triggerName(table, "update");
    if (postgres) {
      await knex.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${bump(plots("NEW.id"), true)}; RETURN NULL; END $$`);
      await knex.raw(
        `CREATE TRIGGER ${name} AFTER UPDATE ON ${table} FOR EACH ROW WHEN (OLD.${column} IS DISTINCT FROM NEW.${column}) EXECUTE FUNCTION ${name}()`,
      );
    } else {
      await knex.raw(
        `CREATE TRIGGER ${name} AFTER UPDATE OF ${column} ON ${table} WHEN OLD.${column} IS NOT NEW.${column} BEGIN ${bump(plots("NEW.id"), false)}; END`,
      );
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  const postgres = knex.client.config.client === "pg";
  const triggers = [
    ...Object.keys(plotsOf).flatMap((table) => EVENTS.map((event) => [table, triggerName(table, event)])),
    ...names.map(({ table }) => [table, triggerName(table, "update")]),
  ];
  for (const [table, name] of triggers) {
    await knex.raw(postgres ? `DROP TRIGGER IF EXISTS ${name} ON ${table}` : `DROP TRIGGER IF EXISTS ${name}`);
    if (postgres) await knex.raw(`DROP FUNCTION IF EXISTS ${name}()`);
  }
  await knex.schema.dropTableIfExists(TABLE);
}
