import type { Knex } from "knex";

/**
 * Daplos import (issue 25, decision 0094).
 *
 * - import_daplos: the data-import record of spec 3 §3.13 (dtDebImport, dtFinImport, message, nbparcellescrees,
 *   nbinterventionsimportees) with its states of §4.5, derived, not stored: in progress while dt_fin_import is null,
 *   finished once set, failed when the message holds the word "echec". The file's bytes wait in `contenu` (base64)
 *   for the job that reads them and are cleared when it ends; `rapport` is the report (JSON) the screen and the CLI show.
 * - import_daplos_cle: what an earlier import wrote, by the file's own keys, so that a re-import updates in place:
 *   nature 'exploitation' (key: the farm's SIRET), 'parcelle' (SIRET | harvest year | order number | plot reference),
 *   'action' (SIRET | event GUID). One key per network (the destination), pointing at the row written.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("import_daplos", (t) => {
    t.increments("id");
    t.integer("id_oad").notNullable().references("id").inTable("oad").onDelete("CASCADE");
    t.integer("id_dossier").references("id").inTable("dossier").onDelete("SET NULL");
    t.integer("id_user").notNullable().references("id").inTable("utilisateur").onDelete("CASCADE");
    t.integer("id_tache").references("id").inTable("tache").onDelete("SET NULL");
    t.string("nom_fichier", 255).notNullable();
    t.timestamp("dt_deb_import").notNullable().defaultTo(knex.fn.now());
    t.timestamp("dt_fin_import");
    t.text("message");
    t.integer("nb_parcelles_creees").notNullable().defaultTo(0);
    t.integer("nb_interventions_importees").notNullable().defaultTo(0);
    t.text("contenu");
    t.text("rapport");
    t.index(["id_oad", "id"]);
    t.timestamps(true, true);
  });

  await knex.schema.createTable("import_daplos_cle", (t) => {
    t.increments("id");
    t.integer("id_oad").notNullable().references("id").inTable("oad").onDelete("CASCADE");
    t.string("nature", 20).notNullable();
    t.string("cle", 120).notNullable();
    t.integer("id_cible").notNullable();
    t.unique(["id_oad", "nature", "cle"]);
    t.timestamps(true, true);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("import_daplos_cle");
  await knex.schema.dropTableIfExists("import_daplos");
}
