import type { Knex } from "knex";

/**
 * Global input catalogues (spec 3 §3.4, §7, §9; docs/data-model.md §6 "Input catalogues"; decision 0029):
 * plant-protection products and their active matters, active substances and authorised uses (loaded from
 * the official E-Phy files), IFT reference doses per product, crop, harvest year and target (the ministry's
 * list), the crop correspondence of that list, reference fertilisers, other inputs and seed varieties.
 * Rows that hold figures carry their `source` and `confiance`. Water is no row: origin 776, input 20011.
 */
export async function up(knex: Knex): Promise<void> {
  const stamps = (t: Knex.CreateTableBuilder) => t.timestamps(true, true);
  const nutrients = (t: Knex.CreateTableBuilder) => {
    for (const element of ["n", "p2o5", "k2o", "mgo", "cu", "mn", "so3", "cao", "na2o", "b", "fe", "mo", "co"]) t.decimal(element, 7, 3); // % of the product
  };

  // Targets: the code of the ministry's IFT list, so that its importer finds the target again.
  await knex.schema.alterTable("cible", (t) => {
    t.string("code_ift", 40).unique();
    t.string("libelle_ift", 255);
  });

  await knex.schema.createTable("intrant_phyto", (t) => {
    t.increments("id");
    t.integer("id_produit").notNullable(); // E-Phy: the AMM number
    t.integer("id_source").notNullable(); // 1 = E-Phy (ANSES)
    t.string("nom_produit", 255).notNullable();
    t.string("amm_produit", 20);
    t.string("type_produit", 255); // E-Phy 'fonctions' (Herbicide | Fongicide ...)
    t.string("source", 255);
    t.boolean("biocontrole").notNullable().defaultTo(false);
    t.text("remarque");
    t.integer("dic_id_type_intrant").references("id").inTable("categorie_intrant"); // phyto category (5391…)
    t.string("code_type_intrant", 40);
    t.string("seconds_noms", 1000); // other trade names
    t.string("titulaire", 255);
    t.string("formulation", 255);
    t.string("etat_autorisation", 20); // AUTORISE, RETIRE (E-Phy)
    t.date("date_retrait");
    t.boolean("retire").notNullable().defaultTo(false); // withdrawn: RETIRE, or absent from the last release imported
    t.string("millesime", 20); // release of the E-Phy files that last listed it (YYYY-MM-DD)
    t.unique(["id_produit", "id_source"]);
    t.index(["nom_produit"]);
    t.index(["amm_produit"]);
    stamps(t);
  });

  await knex.schema.createTable("substance_active", (t) => {
    t.increments("id");
    t.string("nom", 255).notNullable().unique(); // E-Phy 'Nom substance active' (the English name products cite)
    t.text("variantes"); // E-Phy 'Variant': French names of the substance and its forms, separated by " | "
    t.string("numero_cas", 255); // may list several numbers
    t.string("etat_autorisation", 40);
    stamps(t);
  });

  await knex.schema.createTable("matiere_active", (t) => {
    t.increments("id");
    t.integer("id_intrant_phyto").notNullable().unique().references("id").inTable("intrant_phyto").onDelete("CASCADE");
    t.double("quantite"); // total content when every substance has the same unit (micro-organisms: 10^12 UFC/kg)
    t.string("unite", 20); // g/L, %, g/kg, autre
    stamps(t);
  });

  await knex.schema.createTable("matiere_active_composition", (t) => {
    t.increments("id");
    t.integer("id_matiere_active").notNullable().references("id").inTable("matiere_active").onDelete("CASCADE");
    t.integer("id_substance_active").references("id").inTable("substance_active");
    t.integer("rang").notNullable();
    t.string("libelle", 255).notNullable();
    t.double("quantite");
    t.string("unite", 20);
    t.string("famille", 60);
    t.unique(["id_matiere_active", "rang"]);
    stamps(t);
  });

  // Authorised uses of a product (E-Phy usages): crop * treatment * target, with the authorised dose.
  await knex.schema.createTable("usage_phyto", (t) => {
    t.increments("id");
    t.integer("id_intrant_phyto").notNullable().references("id").inTable("intrant_phyto").onDelete("CASCADE");
    t.string("identifiant_usage", 20);
    t.string("libelle_usage", 255).notNullable();
    t.string("culture_usage", 120);
    t.string("traitement_usage", 120);
    t.string("cible_usage", 160);
    t.decimal("dose_retenue", 14, 4);
    t.string("unite_dose", 30);
    t.string("etat_usage", 30);
    t.integer("delai_avant_recolte");
    t.integer("nombre_max_application");
    t.string("date_decision", 10);
    t.index(["id_intrant_phyto"]);
    stamps(t);
  });

  // The crops of the ministry's IFT list (and of E-Phy's uses) matched to Sillon's crops.
  await knex.schema.createTable("culture_ift", (t) => {
    t.increments("id");
    t.string("libelle_ift", 255).notNullable(); // a label may stand for several crops (Blé: soft and durum wheats)
    t.string("code_ift", 40);
    t.integer("id_culture").notNullable().references("id").inTable("culture");
    t.unique(["libelle_ift", "id_culture"]);
    t.index(["code_ift"]);
    stamps(t);
  });

  await knex.schema.createTable("reference_dose_cible_ift", (t) => {
    t.increments("id");
    t.string("code_amm", 20).notNullable();
    t.integer("id_culture").references("id").inTable("culture");
    t.integer("annee_recolte").notNullable();
    t.integer("id_cible").references("id").inTable("cible"); // null: dose at the crop level
    t.string("cible", 255);
    t.boolean("biocontrole").notNullable().defaultTo(false);
    t.decimal("dose_ref", 14, 4);
    t.integer("id_unite_dose_ref"); // the spec's dictionary id; the unit's text is unite_dose_ref
    t.string("unite_dose_ref", 30); // e.g. L/HA, KG/HA, L/HL, KG/HL
    t.string("segment", 4); // IFT segment of the ministry's list (S1 seeds … S6 others), null when unknown
    t.string("source", 255);
    t.string("confiance", 20);
    t.index(["code_amm", "id_culture", "annee_recolte"]);
    stamps(t);
  });

  await knex.schema.createTable("reference_fertilisant", (t) => {
    t.increments("id");
    t.string("libelle", 255).notNullable();
    t.string("libelle_en", 255);
    t.integer("id_type_fertilisant").notNullable().references("id").inTable("categorie_intrant"); // 655–659
    t.string("code_eges", 40); // categorie_eges.code
    nutrients(t);
    t.integer("ordre").notNullable().defaultTo(0);
    t.text("source");
    t.string("confiance", 20);
    t.index(["id_type_fertilisant"]);
    stamps(t);
  });

  await knex.schema.createTable("reference_autre_intrant", (t) => {
    t.increments("id"); // the spec's idIntrantDossier
    t.string("int_nom", 255).notNullable();
    t.string("int_code", 60);
    t.decimal("int_mat_active", 12, 4);
    t.boolean("int_biocontrole").notNullable().defaultTo(false);
    t.text("int_remarque");
    t.text("source");
    t.integer("dic_id_type_intrant").notNullable().references("id").inTable("categorie_intrant"); // 5431…
    t.index(["dic_id_type_intrant"]);
    stamps(t);
  });

  await knex.schema.createTable("reference_semence", (t) => {
    t.increments("id");
    t.string("libelle", 255).notNullable();
    t.integer("id_culture").notNullable().references("id").inTable("culture"); // the species
    t.string("id_local", 60);
    t.integer("id_origin_intrant").notNullable().defaultTo(776);
    t.string("code_gnis", 60);
    t.text("commentaire");
    t.text("source");
    t.index(["id_culture"]);
    stamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "reference_semence",
    "reference_autre_intrant",
    "reference_fertilisant",
    "reference_dose_cible_ift",
    "culture_ift",
    "usage_phyto",
    "matiere_active_composition",
    "matiere_active",
    "substance_active",
    "intrant_phyto",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable("cible", (t) => {
    t.dropUnique(["code_ift"]);
    t.dropColumn("code_ift");
    t.dropColumn("libelle_ift");
  });
}
