import type { Knex } from "knex";

/**
 * Farm description II (spec 2 §2–§9, issue 5): crop references, crop management modes with their crop
 * rows and insurance, plot groups, plots with their history and cost-centre assignment, landscape
 * features; and the interventions and harvests that plots and insurance estimates read (spec 3 §3,
 * docs/data-model.md §6: the field-work screens that write them come later, the tables are here
 * because the plot date update and the insurance estimate work on them).
 *
 * Reference lists follow migration 0003: fixed ids from seeds/reference/<table>.json, a row that
 * holds a figure carries `source` and `confiance`.
 */
const soil = (t: Knex.CreateTableBuilder) => {
  t.integer("id_type_sol_arvalis");
  t.integer("id_aee_type_sol");
  t.integer("profondeur_sol_cm");
  t.decimal("reserve_utile_mm", 8, 2);
  t.integer("id_type_sous_sol");
  t.integer("id_acidite_sol");
  t.integer("id_profondeur_sol");
};

export async function up(knex: Knex): Promise<void> {
  const stamps = (t: Knex.CreateTableBuilder) => t.timestamps(true, true);
  const figure = (t: Knex.CreateTableBuilder) => {
    t.text("source");
    t.text("confiance");
  };
  const labels = (t: Knex.CreateTableBuilder) => {
    t.string("libelle", 255).notNullable();
    t.string("libelle_en", 255);
  };

  // ---- Crop references (spec 2 §3 crop mode rows, §7 cultures, qualifiants, types_sorties)
  await knex.schema.createTable("categorie_culture", (t) => {
    t.increments("id"); // idCatCulture: main, intermediate, catch crop
    t.string("code", 20).notNullable(); // principale | intermediaire | derobee
    labels(t);
    t.integer("ordre").notNullable().defaultTo(0);
    stamps(t);
  });

  await knex.schema.createTable("culture", (t) => {
    t.increments("id");
    labels(t);
    t.string("famille", 60); // botanical / agronomic family, used to group the pickers
    t.integer("id_cat_culture").references("id").inTable("categorie_culture"); // default row category
    t.decimal("cul_pmg", 10, 2); // g, thousand-grain weight
    t.decimal("cul_grain_dose", 14, 0); // grains per seed dose
    t.integer("id_echelle_stade_aee");
    t.boolean("interculture").notNullable().defaultTo(false); // the Interculture pseudo-crop
    t.integer("ordre").notNullable().defaultTo(0);
    figure(t);
    stamps(t);
  });

  await knex.schema.createTable("qualifiant_culture", (t) => {
    t.increments("id");
    t.integer("id_culture").notNullable().references("id").inTable("culture");
    labels(t);
    t.integer("ordre").notNullable().defaultTo(0);
    t.index(["id_culture"]);
    stamps(t);
  });

  await knex.schema.createTable("type_sortie", (t) => {
    t.increments("id"); // 671 = grazing
    labels(t);
    t.string("unite", 30).notNullable().defaultTo("t/ha");
    t.integer("ordre").notNullable().defaultTo(0);
    stamps(t);
  });

  await knex.schema.createTable("culture_type_sortie", (t) => {
    t.increments("id");
    t.integer("id_culture").notNullable().references("id").inTable("culture");
    t.integer("id_type_sortie").notNullable().references("id").inTable("type_sortie");
    t.unique(["id_culture", "id_type_sortie"]);
    stamps(t);
  });

  // Plain code lists of the plot form and the management mode (spec 2 §3, §7).
  for (const table of ["specificite_prairie", "gestion_residus", "residus_culture_inter", "type_itineraire", "categorie_competilis"]) {
    await knex.schema.createTable(table, (t) => {
      t.increments("id");
      t.string("code", 20);
      labels(t);
      t.integer("ordre").notNullable().defaultTo(0);
      figure(t);
      stamps(t);
    });
  }

  await knex.schema.createTable("taux_legumineuse", (t) => {
    t.increments("id");
    labels(t);
    t.decimal("taux_min", 5, 2); // % of legumes in the sward, inclusive
    t.decimal("taux_max", 5, 2); // %, exclusive
    t.integer("ordre").notNullable().defaultTo(0);
    figure(t);
    stamps(t);
  });

  await knex.schema.createTable("type_amenagement", (t) => {
    t.increments("id"); // idRefInfrastructure
    t.string("iae_nom", 255).notNullable();
    t.string("iae_nom_en", 255);
    t.integer("iae_no_ordre").notNullable().defaultTo(0);
    t.string("unite_surface", 20).notNullable(); // m2 | ml (linear metre) | unite (count) | ha
    t.decimal("coefficient_sie", 8, 3); // ecological focus area weighting per unit, when known
    figure(t);
    stamps(t);
  });

  // ---- Crop management modes (spec 2 §3)
  await knex.schema.createTable("mode_conduite", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.string("libelle", 255).notNullable();
    t.decimal("aide_couplee", 12, 2);
    t.integer("dic_id_cat_competilis").references("id").inTable("categorie_competilis");
    t.text("remarque");
    t.index(["id_campagne"]);
    stamps(t);
  });

  await knex.schema.createTable("mode_conduite_culture", (t) => {
    t.increments("id");
    t.integer("id_mode_conduite").notNullable().references("id").inTable("mode_conduite").onDelete("CASCADE");
    t.integer("id_culture").notNullable().references("id").inTable("culture");
    t.integer("id_qualifiant").references("id").inTable("qualifiant_culture");
    t.integer("id_cat_culture").references("id").inTable("categorie_culture");
    t.integer("ordre").notNullable().defaultTo(0);
    t.index(["id_mode_conduite"]);
    stamps(t);
  });

  await knex.schema.createTable("mode_conduite_assurance", (t) => {
    t.increments("id");
    t.integer("id_mode_conduite").notNullable().unique().references("id").inTable("mode_conduite").onDelete("CASCADE");
    t.integer("id_culture").references("id").inTable("culture");
    t.integer("id_type_sortie").references("id").inTable("type_sortie");
    for (const c of ["mt_cotisation_assurance", "mt_indemnite_saisie", "mt_indemnite_calculee", "mt_prix_assure"]) t.decimal(c, 12, 2);
    for (const c of ["rendement_assure", "rendement_reel_moyen", "rendement_non_indemnisable"]) t.decimal(c, 10, 3);
    t.decimal("tx_franchise", 5, 2);
    stamps(t);
  });

  // ---- Plot groups, plots, history, cost centres, landscape features (spec 2 §3)
  await knex.schema.createTable("lot_parcelle", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.string("libelle", 255).notNullable();
    t.string("no_ilot_pac", 30);
    t.boolean("irrigable").notNullable().defaultTo(false);
    t.boolean("drainee").notNullable().defaultTo(false);
    t.text("remarque");
    soil(t);
    t.index(["id_campagne"]);
    stamps(t);
  });

  await knex.schema.createTable("parcelle", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.string("libelle", 255).notNullable();
    t.integer("id_mode_conduite").references("id").inTable("mode_conduite").onDelete("SET NULL");
    t.integer("id_lot").references("id").inTable("lot_parcelle").onDelete("SET NULL");
    t.decimal("surface", 10, 4);
    t.decimal("objectif_rendement", 10, 3);
    t.boolean("irrigable").notNullable().defaultTo(false);
    t.boolean("drainee").notNullable().defaultTo(false);
    t.boolean("jachere").notNullable().defaultTo(false);
    t.text("remarque");
    for (const c of [
      "fermage_specifique",
      "charges_meca_irrigation",
      "charges_stockage",
      "charges_semences",
      "charges_fertilisants",
      "charges_phytos",
      "charges_irrigation",
      "autres_charges_intrants",
      "autres_charges_meca_mo",
    ]) {
      t.decimal(c, 10, 2);
    }
    t.integer("id_specificite_prairie").references("id").inTable("specificite_prairie");
    t.integer("taux_legumineuse").references("id").inTable("taux_legumineuse");
    t.integer("id_type_mode_conduite").references("id").inTable("type_itineraire");
    t.integer("id_gestion_residus").references("id").inTable("gestion_residus");
    t.integer("id_residus_culture_inter").references("id").inTable("residus_culture_inter");
    t.string("code_postal", 5);
    t.string("code_insee", 5);
    t.string("no_ilot_pac", 30);
    t.decimal("surface_reelle", 10, 4);
    t.text("geometrie"); // GeoJSON geometry (Polygon or Point), WGS84
    t.string("type_geometrie", 20); // polygon | marker
    t.integer("id_plot_source").references("id").inTable("parcelle").onDelete("SET NULL");
    t.integer("annee_derniere_action");
    soil(t);
    t.index(["id_campagne"]);
    stamps(t);
  });

  await knex.schema.createTable("parcelle_historique", (t) => {
    t.increments("id");
    t.integer("id_parcelle").notNullable().references("id").inTable("parcelle").onDelete("CASCADE");
    t.integer("id_parcelle_historique").notNullable().references("id").inTable("parcelle").onDelete("CASCADE");
    t.unique(["id_parcelle", "id_parcelle_historique"]);
    t.index(["id_parcelle_historique"]);
    stamps(t);
  });

  await knex.schema.createTable("affectation_culture_cible", (t) => {
    t.increments("id");
    t.integer("id_parcelle").notNullable().unique().references("id").inTable("parcelle").onDelete("CASCADE");
    t.integer("id_culture").notNullable().references("id").inTable("culture");
    stamps(t);
  });

  await knex.schema.createTable("amenagement", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.string("libelle", 255).notNullable();
    t.integer("id_type_amenagement").notNullable().references("id").inTable("type_amenagement");
    t.integer("id_parcelle_adjacente").references("id").inTable("parcelle").onDelete("SET NULL");
    t.decimal("surface", 12, 3);
    t.text("remarque");
    t.string("no_ilot_pac", 30);
    t.boolean("irrigable").notNullable().defaultTo(false);
    t.boolean("drainee").notNullable().defaultTo(false);
    soil(t);
    t.index(["id_campagne"]);
    stamps(t);
  });

  // ---- Interventions and harvests (docs/data-model.md §6; the screens come with field work)
  await knex.schema.createTable("action", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.integer("id_parcelle").notNullable().references("id").inTable("parcelle").onDelete("CASCADE");
    t.date("date").notNullable();
    t.integer("annee_recolte").notNullable();
    t.integer("id_operation_culturale").references("id").inTable("operation_culturale").onDelete("SET NULL");
    t.integer("dic_id_type_action").references("id").inTable("type_action");
    t.integer("id_culture_concernee").references("id").inTable("culture");
    t.decimal("debit", 8, 3);
    t.boolean("realisee").notNullable().defaultTo(true);
    t.boolean("prevue").notNullable().defaultTo(false);
    t.decimal("frequence", 8, 3).notNullable().defaultTo(1);
    t.decimal("taux_surface", 6, 4).notNullable().defaultTo(1);
    t.decimal("nombre_passage", 8, 3);
    t.text("complement_info_type_travail");
    t.decimal("conso_carburant", 8, 2);
    t.string("intitule_evenement", 255);
    t.string("precision_stade", 255);
    t.string("libelle_operation_source", 255);
    t.index(["id_campagne"]);
    t.index(["id_parcelle"]);
    stamps(t);
  });

  await knex.schema.createTable("recolte", (t) => {
    t.increments("id");
    t.integer("id_action").notNullable().references("id").inTable("action").onDelete("CASCADE");
    t.integer("id_culture").notNullable().references("id").inTable("culture");
    t.integer("dic_id_type_sortie").notNullable().references("id").inTable("type_sortie");
    t.decimal("rendement", 12, 3);
    t.integer("id_qualifiant_recolte");
    t.string("dic_ll_unite", 30).notNullable().defaultTo("t/ha");
    t.integer("id_observation_serie");
    t.index(["id_action"]);
    t.index(["id_culture", "dic_id_type_sortie"]);
    stamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "recolte",
    "action",
    "amenagement",
    "affectation_culture_cible",
    "parcelle_historique",
    "parcelle",
    "lot_parcelle",
    "mode_conduite_assurance",
    "mode_conduite_culture",
    "mode_conduite",
    "type_amenagement",
    "taux_legumineuse",
    "categorie_competilis",
    "type_itineraire",
    "residus_culture_inter",
    "gestion_residus",
    "specificite_prairie",
    "culture_type_sortie",
    "type_sortie",
    "qualifiant_culture",
    "culture",
    "categorie_culture",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
