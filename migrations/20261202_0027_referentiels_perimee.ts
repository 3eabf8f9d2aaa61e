import type { Knex } from "knex";

/**
 * A calculation series out of date when the reference data its IFT read changed (decision 0085, after 0072):
 * - `version_referentiels (id, version)`: one row (id 1), a counter moved on by triggers on every write to the
 *   official IFT reference-dose list (`reference_dose_cible_ift`) and to the phyto catalogue the loader reads
 *   (`intrant_phyto`: biocontrol flag; `matiere_active`, `matiere_active_composition`: active substances). These
 *   tables are shared by every campaign (a list of one year may serve another year's campaigns: the nearest
 *   published list), so one counter for all: a reference import marks every series calculated before it.
 *   PostgreSQL: statement triggers that move it only when the statement wrote a row (transition tables); SQLite:
 *   row triggers.
 * - `calcul_serie.version_referentiels`: the counter as it stood when the series was created (insert trigger, as
 *   0025's); NULL for the series made before: their state is not known, the reference data never mark them.
 * - An index on `reference_dose_cible_ift (annee_recolte)`: the loader looks up the nearest published year.
 */
const TABLE = "version_referentiels";
const SUIVIES = ["reference_dose_cible_ift", "intrant_phyto", "matiere_active", "matiere_active_composition"];
const EVENTS = ["insert", "update", "delete"] as const;
const STAMP = "calcul_serie_version_referentiels";
const bump = (qualified: boolean) =>
  `INSERT INTO ${TABLE} (id, version) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET version = ${qualified ? `${TABLE}.` : ""}version + 1`;
const current = `COALESCE((SELECT v.version FROM ${TABLE} v WHERE v.id = 1), 0)`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable(TABLE, (t) => {
    t.integer("id").primary();
    t.integer("version").notNullable();
  });
  await knex(TABLE).insert({ id: 1, version: 0 });
  await knex.schema.alterTable("calcul_serie", (t) => {
    t.integer("version_referentiels");
  });
  await knex.schema.alterTable("reference_dose_cible_ift", (t) => {
    t.index(["annee_recolte"], "reference_dose_cible_ift_annee_recolte_index");
  });
  const postgres = knex.client.config.client === "pg";
  for (const table of SUIVIES) {
    for (const event of EVENTS) {
      const name = `${TABLE}_${table}_${event}`;
      if (postgres) {
        const set = event === "delete" ? "anciens" : "nouveaux";
        await knex.raw(
          `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF EXISTS (SELECT 1 FROM ${set}) THEN ${bump(true)}; END IF; RETURN NULL; END $$`,
        );
        const referencing = event === "delete" ? "OLD TABLE AS anciens" : "NEW TABLE AS nouveaux";
        await knex.raw(
          `CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${table} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
        );
      } else {
        await knex.raw(`CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${table} BEGIN ${bump(false)}; END`);
      }
    }
  }
  if (postgres) {
    await knex.raw(`CREATE FUNCTION ${STAMP}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.version_referentiels := ${current}; RETURN NEW; END $$`);
    await knex.raw(`CREATE TRIGGER ${STAMP} BEFORE INSERT ON calcul_serie FOR EACH ROW EXECUTE FUNCTION ${STAMP}()`);
  } else {
    await knex.raw(
      `CREATE TRIGGER ${STAMP} AFTER INSERT ON calcul_serie BEGIN UPDATE calcul_serie SET version_referentiels = ${current} WHERE id = NEW.id; END`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  const postgres = knex.client.config.client === "pg";
  const triggers = [...SUIVIES.flatMap((table) => EVENTS.map((event) => [table, `${TABLE}_${table}_${event}`])), ["calcul_serie", STAMP]];
  for (const [table, name] of triggers) {
    await knex.raw(postgres ? `DROP TRIGGER IF EXISTS ${name} ON ${table}` : `DROP TRIGGER IF EXISTS ${name}`);
    if (postgres) await knex.raw(`DROP FUNCTION IF EXISTS ${name}()`);
  }
  await knex.schema.alterTable("reference_dose_cible_ift", (t) => {
    t.dropIndex(["annee_recolte"], "reference_dose_cible_ift_annee_recolte_index");
  });
  await knex.schema.alterTable("calcul_serie", (t) => {
    t.dropColumn("version_referentiels");
  });
  await knex.schema.dropTableIfExists(TABLE);
}
