import type { Knex } from "knex";

/**
 * Spreadsheet export sessions (spec 1 §3 "Export session", §4 "Export sessions"; spec 3 result export; docs/data-model.md
 * §9; decision 0052): one row per export a user asked for, its file written by a job (tache, migration 0017).
 *
 * - statut: 0 finished (downloadable), 1 in progress, 2 error (spec: any value but 0 and 2, or no end date, is "en cours").
 * - nature: 0 raw data (groupes = donnee_exportable), 1 calculation results (series and indicator groups).
 * - fichier: the stored name under DATA_DIR/exports (`<uuid>.xlsx`), never the user's file name (libelle).
 * - prevu ... exploitation: the result-export form's options (nature 1), default true.
 * - donnee_exportable: the reference list donneesExportables (seeds/reference/donnee-exportable.json).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("donnee_exportable", (t) => {
    t.increments("id");
    t.string("code", 60).notNullable().unique();
    t.string("libelle", 255).notNullable();
    t.string("libelle_en", 255);
    t.integer("ordre").notNullable().defaultTo(0);
  });

  await knex.schema.createTable("session_export", (t) => {
    t.increments("id");
    t.integer("nature").notNullable().defaultTo(0);
    t.string("libelle", 255).notNullable();
    t.string("fichier", 100);
    t.integer("statut").notNullable().defaultTo(1);
    t.integer("version").notNullable().defaultTo(2);
    t.boolean("anglais").notNullable().defaultTo(false);
    t.timestamp("dt_deb_session").notNullable().defaultTo(knex.fn.now());
    t.timestamp("dt_fin_session");
    for (const option of [
      "prevu",
      "realise",
      "alertes",
      "rendements",
      "donnees_brutes",
      "tcd1",
      "tcd2",
      "parcelle",
      "lot",
      "mode_conduite",
      "culture",
      "exploitation",
    ]) {
      t.boolean(option).notNullable().defaultTo(true);
    }
    t.integer("id_utilisateur").notNullable().references("id").inTable("utilisateur").onDelete("CASCADE");
    t.integer("id_tache").references("id").inTable("tache").onDelete("SET NULL");
    t.index(["id_utilisateur", "nature", "id"]);
  });

  await knex.schema.createTable("session_export_campagne", (t) => {
    t.increments("id");
    t.integer("id_session_export").notNullable().references("id").inTable("session_export").onDelete("CASCADE");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.unique(["id_session_export", "id_campagne"]);
    t.index(["id_campagne"]);
  });

  await knex.schema.createTable("session_export_donnee_exportable", (t) => {
    t.increments("id");
    t.integer("id_session_export").notNullable().references("id").inTable("session_export").onDelete("CASCADE");
    t.integer("id_donnee_exportable").notNullable().references("id").inTable("donnee_exportable").onDelete("CASCADE");
    t.unique(["id_session_export", "id_donnee_exportable"]);
  });

  await knex.schema.createTable("session_export_calcul_serie", (t) => {
    t.increments("id");
    t.integer("id_session_export").notNullable().references("id").inTable("session_export").onDelete("CASCADE");
    // No foreign key yet: calcul_serie is created by a later migration (the calculation series, issue 14); that
    // migration adds the reference (→ calcul_serie, cascade).
    t.integer("id_calcul_serie").notNullable();
    t.unique(["id_session_export", "id_calcul_serie"]);
  });

  await knex.schema.createTable("session_export_groupe_indicateur", (t) => {
    t.increments("id");
    t.integer("id_session_export").notNullable().references("id").inTable("session_export").onDelete("CASCADE");
    t.integer("id_groupe_indicateur").notNullable().references("id").inTable("groupe_indicateur").onDelete("CASCADE");
    t.unique(["id_session_export", "id_groupe_indicateur"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "session_export_groupe_indicateur",
    "session_export_calcul_serie",
    "session_export_donnee_exportable",
    "session_export_campagne",
    "session_export",
    "donnee_exportable",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
