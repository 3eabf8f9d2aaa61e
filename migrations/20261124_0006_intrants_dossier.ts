import type { Knex } from "knex";

/**
 * Inputs of a folder (spec 3 §3.5, docs/data-model.md §6) and the greenhouse-gas categories of their
 * fertiliser compositions (categorieEgesV2, spec 3 §9), which the plots screen's "assign greenhouse-gas
 * emissions" (PATCH dossier/{id}/affectation_eges, spec 2 §2) fills in. The field-work screens that
 * edit these inputs come later; the tables are the data model's, so they need no change then.
 */
export async function up(knex: Knex): Promise<void> {
  const stamps = (t: Knex.CreateTableBuilder) => t.timestamps(true, true);
  const percentages = (t: Knex.CreateTableBuilder) => {
    for (const element of ["n", "p2o5", "k2o", "mgo", "cu", "mn", "so3", "cao", "na2o", "b", "fe", "mo", "co"]) t.decimal(element, 7, 3); // % of the product
  };

  // categorieEgesV2: emission factor of the manufacture of a fertiliser family, per kg of nutrient.
  await knex.schema.createTable("categorie_eges", (t) => {
    t.increments("id");
    t.string("code", 40).notNullable().unique();
    t.string("libelle", 255).notNullable();
    t.string("libelle_en", 255);
    t.decimal("facteur_n", 8, 3); // kg CO2e / kg N
    t.decimal("facteur_p2o5", 8, 3); // kg CO2e / kg P2O5
    t.decimal("facteur_k2o", 8, 3); // kg CO2e / kg K2O
    t.decimal("facteur_cao", 8, 3); // kg CO2e / kg CaO
    t.integer("ordre").notNullable().defaultTo(0);
    t.text("source");
    t.text("confiance");
    stamps(t);
  });

  await knex.schema.createTable("intrant_dossier", (t) => {
    t.increments("id");
    t.integer("id_dossier").notNullable().references("id").inTable("dossier").onDelete("CASCADE");
    t.integer("dic_id_type_intrant").notNullable(); // 538 seed, 539 phyto, 540 fertiliser, 542 water, 543 other (spec 3 §9)
    t.string("libelle", 255).notNullable();
    t.string("code", 60);
    t.decimal("matiere_active", 12, 4);
    t.string("unite_mat_active", 30);
    t.text("remarque");
    t.integer("id_user").references("id").inTable("utilisateur").onDelete("SET NULL");
    t.boolean("biocontrole").notNullable().defaultTo(false);
    t.string("dic_ll_unite", 30);
    t.index(["id_dossier"]);
    stamps(t);
  });

  await knex.schema.createTable("fertilisant_compo_dossier", (t) => {
    t.increments("id");
    t.integer("id_intrant_dossier").notNullable().unique().references("id").inTable("intrant_dossier").onDelete("CASCADE");
    t.string("code_eges", 60);
    t.string("categorie_eges", 40).references("code").inTable("categorie_eges");
    t.text("commentaire");
    percentages(t);
    stamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["fertilisant_compo_dossier", "intrant_dossier", "categorie_eges"]) await knex.schema.dropTableIfExists(table);
}
