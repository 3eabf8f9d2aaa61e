import type { Knex } from "knex";

/**
 * Farm description I (spec 2 §2–§9): the farm's coordinates, description and soil columns; and the
 * campaign-scoped economic characteristics, labour, machinery fleet and cultural operations.
 * Columns that point to reference lists (types, classes, categories, machine references) are plain
 * integers here: the reference tables come from their own migration and are upserted from seeds.
 */
const soil = (t: Knex.CreateTableBuilder | Knex.AlterTableBuilder) => {
  t.integer("id_type_sol_arvalis");
  t.integer("id_aee_type_sol");
  t.integer("profondeur_sol_cm");
  t.decimal("reserve_utile_mm", 8, 2);
  t.integer("id_type_sous_sol");
  t.integer("id_acidite_sol");
  t.integer("id_profondeur_sol");
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("exploitation", (t) => {
    t.string("raison_sociale", 255);
    t.string("siret", 14);
    t.string("nom", 120);
    t.string("prenom", 120);
    t.text("adresse");
    t.integer("id_pays");
    t.string("libelle_departement", 120);
    t.string("ville", 255);
    t.string("code_insee", 5);
    t.string("code_postal", 5);
    t.string("email", 255);
    t.string("portable", 20);
    t.string("telephone", 20);
    t.string("fax", 20);
    t.string("bassin", 120);
    t.string("petite_region_agricole", 120);
    t.integer("id_otex");
    t.integer("id_type_agriculture");
    t.text("strategie");
    t.text("remarque");
    soil(t);
  });

  await knex.schema.createTable("caracteristique", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().unique().references("id").inTable("campagne").onDelete("CASCADE");
    for (const c of [
      "cotisation_msa",
      "fermage_moyen",
      "charges_diverses",
      "aides_decouplees",
      "court_terme_somme",
      "charges_main_oeuvre_salariale_permanente",
      "charges_main_oeuvre_salariale_occasionnel",
      "charges_main_oeuvre_familiale",
      "norme_charges_main_oeuvre_salariale_permanente",
      "norme_charges_main_oeuvre_salariale_occasionnel",
      "norme_charges_main_oeuvre_familiale",
    ]) {
      t.decimal(c, 12, 2);
    }
    for (const c of [
      "court_terme_taux",
      "court_terme_duree",
      "long_terme_taux",
      "long_terme_ivan",
      "remuneration_capitaux_propre_taux",
      "remuneration_capitaux_propre_ivan",
    ]) {
      t.decimal(c, 6, 2);
    }
    t.integer("long_terme_duree");
    t.text("remarque_annuelle");
    t.decimal("prix_fioul", 10, 4);
    t.integer("anneeprix");
    t.timestamps(true, true);
  });

  await knex.schema.createTable("main_oeuvre", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.string("libelle", 255).notNullable();
    t.decimal("uta", 8, 3).notNullable();
    t.integer("id_type_user").notNullable();
    t.text("remarque");
    t.decimal("montant", 12, 2);
    t.index(["id_campagne"]);
    t.timestamps(true, true);
  });

  await knex.schema.createTable("parc_materiel", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.string("libelle", 255).notNullable();
    t.integer("no_classe").notNullable();
    t.integer("no_categorie").notNullable();
    t.integer("id_categorie_materiel").notNullable();
    t.integer("id_basemeq").notNullable();
    t.string("iden_basemeq", 120);
    t.integer("type_propriete").notNullable().defaultTo(0);
    t.integer("copropriete");
    t.integer("poids");
    t.decimal("puissance", 8, 2);
    t.decimal("debit", 10, 3);
    t.string("neuf_occasion", 1);
    t.integer("age_achat");
    t.string("type_pompe", 1);
    t.decimal("cout_entretien_reparation", 12, 2);
    t.decimal("cout_location", 12, 2);
    t.integer("prix_achat");
    t.decimal("prix_neuf", 12, 2);
    t.integer("utilisation_annuelle");
    t.decimal("utilisation_annuelle_calculee_p", 12, 2);
    t.decimal("utilisation_annuelle_calculee_r", 12, 2);
    t.integer("usure");
    t.integer("obsolescence");
    t.integer("duree_amortissement");
    t.decimal("taux_revente", 6, 2);
    t.text("remarque");
    t.index(["id_campagne"]);
    t.timestamps(true, true);
  });

  await knex.schema.createTable("operation_culturale", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.integer("id_type_action").notNullable();
    t.string("libelle", 255).notNullable();
    t.text("remarque");
    t.integer("id_materiel_tractant").references("id").inTable("parc_materiel").onDelete("SET NULL");
    t.boolean("eta").notNullable().defaultTo(false);
    t.decimal("debit_reel", 10, 3);
    t.decimal("debit_calcule", 10, 3);
    t.decimal("conso_carburant_reelle", 10, 2);
    t.decimal("conso_carburant_calculee", 10, 2);
    t.decimal("profondeur_travail", 6, 2).notNullable().defaultTo(0);
    t.decimal("debit_irrigation", 10, 2);
    t.decimal("volume_bouillie", 10, 2);
    t.decimal("proportion_surface_travaillee", 6, 4).notNullable().defaultTo(1);
    t.decimal("surface_travaillee", 12, 4);
    t.decimal("nombre_passage", 8, 3);
    t.index(["id_campagne"]);
    t.timestamps(true, true);
  });

  await knex.schema.createTable("operation_culturale_materiel", (t) => {
    t.increments("id");
    t.integer("id_operation_culturale").notNullable().references("id").inTable("operation_culturale").onDelete("CASCADE");
    t.integer("id_parc_materiel").notNullable().references("id").inTable("parc_materiel").onDelete("CASCADE");
    t.unique(["id_operation_culturale", "id_parc_materiel"]);
    t.timestamps(true, true);
  });

  await knex.schema.createTable("operation_culturale_main_oeuvre", (t) => {
    t.increments("id");
    t.integer("id_operation_culturale").notNullable().references("id").inTable("operation_culturale").onDelete("CASCADE");
    t.integer("id_main_oeuvre").notNullable().references("id").inTable("main_oeuvre").onDelete("CASCADE");
    t.unique(["id_operation_culturale", "id_main_oeuvre"]);
    t.timestamps(true, true);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "operation_culturale_main_oeuvre",
    "operation_culturale_materiel",
    "operation_culturale",
    "parc_materiel",
    "main_oeuvre",
    "caracteristique",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable("exploitation", (t) => {
    t.dropColumns(
      "raison_sociale",
      "siret",
      "nom",
      "prenom",
      "adresse",
      "id_pays",
      "libelle_departement",
      "ville",
      "code_insee",
      "code_postal",
      "email",
      "portable",
      "telephone",
      "fax",
      "bassin",
      "petite_region_agricole",
      "id_otex",
      "id_type_agriculture",
      "strategie",
      "remarque",
      "id_type_sol_arvalis",
      "id_aee_type_sol",
      "profondeur_sol_cm",
      "reserve_utile_mm",
      "id_type_sous_sol",
      "id_acidite_sol",
      "id_profondeur_sol",
    );
  });
}
