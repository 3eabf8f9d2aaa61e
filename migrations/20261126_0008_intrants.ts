import type { Knex } from "knex";

/**
 * Inputs of interventions (spec 3 §3.2–3.3, docs/data-model.md §6): the input types (538 seed, 539 phyto,
 * 540 fertiliser, 542 water, 543 other), their categories (the spec's `categorie {id, parentId}`, the
 * parent being the type), the pest/disease targets of phyto inputs, the inputs themselves, their phyto
 * targets and their characteristics (composition, seed shares). The product catalogues come with the
 * next migration; an input names its catalogue row by origin and id (no foreign key: the catalogue
 * depends on the origin), which the service checks.
 */
export async function up(knex: Knex): Promise<void> {
  const stamps = (t: Knex.CreateTableBuilder) => t.timestamps(true, true);
  const labels = (t: Knex.CreateTableBuilder) => {
    t.string("libelle", 255).notNullable();
    t.string("libelle_en", 255);
  };

  await knex.schema.createTable("type_intrant", (t) => {
    t.increments("id"); // 538, 539, 540, 542, 543 (spec 3 §9)
    t.string("code", 20).notNullable().unique();
    labels(t);
    t.integer("ordre").notNullable().defaultTo(0);
    stamps(t);
  });

  await knex.schema.createTable("categorie_intrant", (t) => {
    t.increments("id");
    t.integer("id_type_intrant").notNullable().references("id").inTable("type_intrant"); // the spec's parentId
    t.string("code", 40).notNullable().unique();
    labels(t);
    // Phyto categories: the IFT family the calculation counts them in (H, F, I, A autres, TS seed treatment; null: not counted).
    t.string("famille_ift", 4);
    t.string("unite_defaut", 30); // default dose unit of the category (fertiliser type 657: t/ha)
    t.boolean("avertissement").notNullable().defaultTo(false); // 'Other fertiliser' warns (C-FERT-18)
    t.integer("ordre").notNullable().defaultTo(0);
    t.index(["id_type_intrant"]);
    stamps(t);
  });

  // Pests, diseases and weeds a phyto product is applied against (idCible, cible).
  await knex.schema.createTable("cible", (t) => {
    t.increments("id");
    t.string("code", 40).unique();
    labels(t);
    t.string("nature", 20); // adventice, maladie, ravageur, autre
    stamps(t);
  });

  await knex.schema.createTable("intrant", (t) => {
    t.increments("id");
    t.integer("id_action").notNullable().references("id").inTable("action").onDelete("CASCADE");
    t.integer("id_categorie").notNullable().references("id").inTable("categorie_intrant");
    t.integer("id_intrant"); // catalogue row named by origin and type; checked by the service
    t.string("libelle_intrant", 255).notNullable();
    t.string("code_intrant", 60); // AMM for phyto
    t.string("code_type_intrant", 60);
    t.integer("dic_id_origine_intrant"); // 773 reference with price, 776 reference, 777 folder input
    t.integer("id_dossier").references("id").inTable("dossier").onDelete("SET NULL");
    t.string("code_gnis", 60);
    t.integer("id_culture").references("id").inTable("culture"); // seed species
    t.decimal("quantite", 14, 4);
    t.string("dic_ll_unite", 30);
    t.integer("id_intrant_semence").references("id").inTable("intrant").onDelete("CASCADE"); // a seed treatment's seed
    t.index(["id_action"]);
    t.index(["id_intrant_semence"]);
    stamps(t);
  });

  await knex.schema.createTable("intrant_cible", (t) => {
    t.increments("id");
    t.integer("id_intrant").notNullable().unique().references("id").inTable("intrant").onDelete("CASCADE");
    t.string("unite_ref_cible1", 30);
    stamps(t);
  });

  await knex.schema.createTable("intrant_cible_cible", (t) => {
    t.increments("id");
    t.integer("id_intrant_cible").notNullable().references("id").inTable("intrant_cible").onDelete("CASCADE");
    t.integer("id_cible").notNullable().references("id").inTable("cible");
    t.integer("rang").notNullable(); // 1 to 4, 1 = main target
    t.decimal("dose_ref", 12, 4); // reference dose of this target, in unite_ref
    t.string("unite_ref", 30);
    t.unique(["id_intrant_cible", "id_cible"]);
    t.unique(["id_intrant_cible", "rang"]);
    stamps(t);
  });

  await knex.schema.createTable("caracteristique_intrant", (t) => {
    t.increments("id");
    t.integer("id_intrant").notNullable().unique().references("id").inTable("intrant").onDelete("CASCADE");
    for (const element of ["n", "p2o5", "k2o", "mgo", "cu", "mn", "so3", "cao", "na2o", "b", "fe", "mo", "co"]) t.decimal(element, 7, 3); // % of the product
    t.decimal("semence_ferme", 5, 2); // %
    t.decimal("semence_certifiee", 5, 2); // %
    t.decimal("semence_ogm", 5, 2); // %
    stamps(t);
  });

  // Decision rules and their evaluations (docs/data-model.md §8): the interventions grid flags the actions
  // that have evaluations (C-INT-08); the rules' screens come with issue 13.
  await knex.schema.createTable("rdd", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.string("libelle", 255).notNullable();
    t.integer("dic_id_type_rdd").notNullable();
    t.integer("id_culture").references("id").inTable("culture");
    t.boolean("a_modifier").notNullable().defaultTo(false);
    t.text("objectif");
    t.text("evaluation");
    t.text("solution");
    t.boolean("macro_regle").notNullable().defaultTo(false);
    t.index(["id_campagne"]);
    stamps(t);
  });

  await knex.schema.createTable("rdd_mode_conduite", (t) => {
    t.increments("id");
    t.integer("id_rdd").notNullable().references("id").inTable("rdd").onDelete("CASCADE");
    t.integer("id_mode_conduite").notNullable().references("id").inTable("mode_conduite").onDelete("CASCADE");
    t.unique(["id_rdd", "id_mode_conduite"]);
    stamps(t);
  });

  await knex.schema.createTable("rdd_evaluation", (t) => {
    t.increments("id");
    t.integer("id_rdd").notNullable().references("id").inTable("rdd").onDelete("CASCADE");
    t.integer("id_action").references("id").inTable("action").onDelete("CASCADE");
    t.integer("id_parcelle").references("id").inTable("parcelle").onDelete("CASCADE");
    t.integer("ecart_solution"); // 0 yes, 1 no, 2 partially (spec 3 §9)
    t.text("explication_ecart");
    t.integer("ecart_resultat"); // 0, 1, 2
    t.text("justification");
    t.boolean("a_modifier").notNullable().defaultTo(false);
    // Exactly one of id_action and id_parcelle.
    t.check("(id_action is null) <> (id_parcelle is null)", [], "rdd_evaluation_cible");
    t.unique(["id_rdd", "id_action"]);
    t.unique(["id_rdd", "id_parcelle"]);
    t.index(["id_action"]);
    stamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "rdd_evaluation",
    "rdd_mode_conduite",
    "rdd",
    "caracteristique_intrant",
    "intrant_cible_cible",
    "intrant_cible",
    "intrant",
    "cible",
    "categorie_intrant",
    "type_intrant",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
