import type { Knex } from "knex";

/**
 * Calculation series (spec 3 §3.14, §4.7; issue 14; decision 0054): a series of a campaign, the publication
 * flag of each indicator group (the groups are the engine's families, app/domain/calc/serie.ts GROUPES_SERIE),
 * and its results, one row per level × entity × indicator code (what lignesResultat gives).
 * - created_at / updated_at are the spec's pDtCrea / pDtMaj; archive is pArchive; dt_fin is pDtFin (end of run).
 * - id_tache names the job that ran it (the job table comes with the job runner; no foreign key here).
 * - calcul_resultat keeps the figure, its unit and completeness in columns (the screens and exports read them)
 *   and the explanation (formula, entries, remarks, missing data) as one JSON text, written in batches.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("calcul_serie", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.integer("id_utilisateur").references("id").inTable("utilisateur").onDelete("SET NULL");
    t.integer("id_tache");
    t.text("remarque");
    t.boolean("publication").notNullable().defaultTo(false);
    t.boolean("visa_animateur").notNullable().defaultTo(false);
    t.integer("nb_parcelles_a_traiter").notNullable().defaultTo(0);
    t.integer("nb_parcelles_traitees").notNullable().defaultTo(0);
    t.integer("nb_parcelles_traitees_reussies").notNullable().defaultTo(0);
    // en_cours (running), termine (done), erreur (failed; `erreur` says why).
    t.string("statut", 16).notNullable().defaultTo("en_cours");
    t.text("erreur");
    t.boolean("archive").notNullable().defaultTo(false);
    t.timestamp("dt_fin", { useTz: true });
    t.timestamps(true, true);
    t.index(["id_campagne"]);
  });

  await knex.schema.createTable("calcul_serie_groupe", (t) => {
    t.increments("id");
    t.integer("id_calcul_serie").notNullable().references("id").inTable("calcul_serie").onDelete("CASCADE");
    t.integer("id_groupe").notNullable(); // GROUPES_SERIE id
    t.boolean("publie").notNullable().defaultTo(false);
    t.unique(["id_calcul_serie", "id_groupe"]);
    t.timestamps(true, true);
  });

  await knex.schema.createTable("calcul_resultat", (t) => {
    t.increments("id");
    t.integer("id_calcul_serie").notNullable().references("id").inTable("calcul_serie").onDelete("CASCADE");
    t.string("niveau", 16).notNullable(); // parcelle, culture, modeConduite, exploitation, intervention
    t.string("id_entite", 40).notNullable(); // the plot, crop, mode, farm id ("null": plots without a crop or mode)
    t.integer("id_parcelle");
    t.string("code", 80).notNullable();
    t.integer("id_groupe");
    t.double("valeur");
    t.string("unite", 40).notNullable();
    t.double("completude").notNullable();
    t.integer("nb_manquants").notNullable().defaultTo(0);
    t.text("explication"); // JSON: { formule, entrees, remarques?, manquants }
    t.index(["id_calcul_serie", "niveau", "code"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["calcul_resultat", "calcul_serie_groupe", "calcul_serie"]) await knex.schema.dropTableIfExists(table);
}
