import type { Knex } from "knex";

/**
 * A calculation series out of date (decision 0072): the campaign's data it was calculated from changed since.
 * - `version_donnees_calcul (id_campagne, version)`: a counter per campaign moved on by triggers on every write to the
 *   calculation's inputs that decision 0063's `version_interventions` does not follow: plots and their crop, management
 *   modes and their crops, operations with their machines and labour, machinery, labour, the economic
 *   characteristics, supply and sale prices, the inputs' targets and composition. Same triggers as 0063 (PostgreSQL:
 *   statement triggers over the transition tables; SQLite: row triggers).
 * - `calcul_serie.version_interventions`, `calcul_serie.version_donnees`: both counters as they stood when the series
 *   was created, written by an insert trigger (the series service stays as it is). NULL for the series made before
 *   this migration: their state is not known, they are never called out of date.
 */
const TABLE = "version_donnees_calcul";

/** For each table: the columns its rows are read by, and the campaigns of rows `src` (a FROM item aliased r). */
const campaignsOf: Record<string, { cols: string[]; of: (src: string) => string }> = {
  parcelle: { cols: ["id_campagne"], of: (src) => `SELECT r.id_campagne AS id_campagne FROM ${src}` },
  mode_conduite: { cols: ["id_campagne"], of: (src) => `SELECT r.id_campagne AS id_campagne FROM ${src}` },
  operation_culturale: { cols: ["id_campagne"], of: (src) => `SELECT r.id_campagne AS id_campagne FROM ${src}` },
  parc_materiel: { cols: ["id_campagne"], of: (src) => `SELECT r.id_campagne AS id_campagne FROM ${src}` },
  main_oeuvre: { cols: ["id_campagne"], of: (src) => `SELECT r.id_campagne AS id_campagne FROM ${src}` },
  caracteristique: { cols: ["id_campagne"], of: (src) => `SELECT r.id_campagne AS id_campagne FROM ${src}` },
  prix_appro: { cols: ["id_campagne"], of: (src) => `SELECT r.id_campagne AS id_campagne FROM ${src}` },
  prix_vente: { cols: ["id_campagne"], of: (src) => `SELECT r.id_campagne AS id_campagne FROM ${src}` },
  affectation_culture_cible: { cols: ["id_parcelle"], of: (src) => `SELECT p.id_campagne AS id_campagne FROM ${src} JOIN parcelle p ON p.id = r.id_parcelle` },
  mode_conduite_culture: {
    cols: ["id_mode_conduite"],
    of: (src) => `SELECT m.id_campagne AS id_campagne FROM ${src} JOIN mode_conduite m ON m.id = r.id_mode_conduite`,
  },
  operation_culturale_materiel: {
    cols: ["id_operation_culturale"],
    of: (src) => `SELECT o.id_campagne AS id_campagne FROM ${src} JOIN operation_culturale o ON o.id = r.id_operation_culturale`,
  },
  operation_culturale_main_oeuvre: {
    cols: ["id_operation_culturale"],
    of: (src) => `SELECT o.id_campagne AS id_campagne FROM ${src} JOIN operation_culturale o ON o.id = r.id_operation_culturale`,
  },
  intrant_cible: {
    cols: ["id_intrant"],
    of: (src) => `SELECT a.id_campagne AS id_campagne FROM ${src} JOIN intrant i ON i.id = r.id_intrant JOIN action a ON a.id = i.id_action`,
  },
  caracteristique_intrant: {
    cols: ["id_intrant"],
    of: (src) => `SELECT a.id_campagne AS id_campagne FROM ${src} JOIN intrant i ON i.id = r.id_intrant JOIN action a ON a.id = i.id_action`,
  },
  intrant_cible_cible: {
    cols: ["id_intrant_cible"],
    of: (src) =>
      `SELECT a.id_campagne AS id_campagne FROM ${src} JOIN intrant_cible ic ON ic.id = r.id_intrant_cible JOIN intrant i ON i.id = ic.id_intrant JOIN action a ON a.id = i.id_action`,
  },
};

const bump = (campaigns: string, qualified: boolean) =>
  `INSERT INTO ${TABLE} (id_campagne, version) SELECT DISTINCT c.id_campagne, 1 FROM (${campaigns}) c WHERE c.id_campagne IS NOT NULL ` +
  `ON CONFLICT (id_campagne) DO UPDATE SET version = ${qualified ? `${TABLE}.` : ""}version + 1`;

const EVENTS = ["insert", "update", "delete"] as const;
const STAMP = "calcul_serie_versions";
const current = (table: string, campagne: string) => `COALESCE((SELECT v.version FROM ${table} v WHERE v.id_campagne = ${campagne}), 0)`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable(TABLE, (t) => {
    // No foreign key, like version_interventions: an id used again never meets an old version.
    t.integer("id_campagne").primary();
    t.integer("version").notNullable();
  });
  await knex.schema.alterTable("calcul_serie", (t) => {
    t.integer("version_interventions");
    t.integer("version_donnees");
  });
  const postgres = knex.client.config.client === "pg";
  for (const [table, { cols, of }] of Object.entries(campaignsOf)) {
    for (const event of EVENTS) {
      const name = `${TABLE}_${table}_${event}`;
      if (postgres) {
        const sets = [...(event !== "insert" ? ["anciens"] : []), ...(event !== "delete" ? ["nouveaux"] : [])];
        const campaigns = sets.map((s) => of(`${s} r`)).join(" UNION ");
        await knex.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${bump(campaigns, true)}; RETURN NULL; END $$`);
        const referencing = [...(event !== "insert" ? ["OLD TABLE AS anciens"] : []), ...(event !== "delete" ? ["NEW TABLE AS nouveaux"] : [])].join(" ");
        await knex.raw(
          `CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${table} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
        );
      } else {
        const rows = [...(event !== "insert" ? ["OLD"] : []), ...(event !== "delete" ? ["NEW"] : [])];
        const campaigns = rows.map((row) => of(`(SELECT ${cols.map((c) => `${row}.${c} AS ${c}`).join(", ")}) r`)).join(" UNION ");
        await knex.raw(`CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${table} BEGIN ${bump(campaigns, false)}; END`);
      }
    }
  }
  // A new series takes both counters of its campaign as they stand.
  if (postgres) {
    await knex.raw(
      `CREATE FUNCTION ${STAMP}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `NEW.version_interventions := ${current("version_interventions", "NEW.id_campagne")}; NEW.version_donnees := ${current(TABLE, "NEW.id_campagne")}; RETURN NEW; END $$`,
    );
    await knex.raw(`CREATE TRIGGER ${STAMP} BEFORE INSERT ON calcul_serie FOR EACH ROW EXECUTE FUNCTION ${STAMP}()`);
  } else {
    await knex.raw(
      `CREATE TRIGGER ${STAMP} AFTER INSERT ON calcul_serie BEGIN UPDATE calcul_serie SET ` +
        `version_interventions = ${current("version_interventions", "NEW.id_campagne")}, version_donnees = ${current(TABLE, "NEW.id_campagne")} WHERE id = NEW.id; END`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  const postgres = knex.client.config.client === "pg";
  const triggers = [...Object.keys(campaignsOf).flatMap((table) => EVENTS.map((event) => [table, `${TABLE}_${table}_${event}`])), ["calcul_serie", STAMP]];
  for (const [table, name] of triggers) {
    await knex.raw(postgres ? `DROP TRIGGER IF EXISTS ${name} ON ${table}` : `DROP TRIGGER IF EXISTS ${name}`);
    if (postgres) await knex.raw(`DROP FUNCTION IF EXISTS ${name}()`);
  }
  await knex.schema.alterTable("calcul_serie", (t) => {
    t.dropColumn("version_interventions");
    t.dropColumn("version_donnees");
  });
  await knex.schema.dropTableIfExists(TABLE);
}
