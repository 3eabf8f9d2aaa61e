import type { Knex } from "knex";

/**
 * Reference lists of the farm description (spec 2 §3–§9, issue 4): machine classes, categories and
 * reference machines; operation types and their fuel references; labour types and reference values
 * (labour norms, fuel price, defaults); countries, departments, communes; OTEX, agriculture types,
 * soil lists; regions and catchment areas.
 *
 * Why this shape:
 * - every row is seeded from seeds/reference/<table>.json with fixed ids (upserted by id at every
 *   start), so ids are plain integers given by the files, never generated;
 * - a table whose rows hold a figure (price, power, rate, fuel use, norm, bound) has `source` and
 *   `confiance` on each row: a figure of low confidence says so where it is stored;
 * - links between reference tables are real foreign keys; the seed loader loads a file after the
 *   files it depends on (`dependsOn` in the JSON file);
 * - reference_seed keeps a hash of each seeded file so that an unchanged file is not upserted again
 *   at every start.
 */
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

  await knex.schema.createTable("reference_seed", (t) => {
    t.increments("id");
    t.string("nom_table", 120).notNullable().unique();
    t.string("hash", 64).notNullable();
    t.integer("nb_lignes").notNullable();
    stamps(t);
  });

  // ---- Machinery (spec 2 §3 "Machine category", "Machine reference"; §5 power and traction rules)
  await knex.schema.createTable("classe_materiel", (t) => {
    t.increments("id"); // numeroClasse
    labels(t);
    t.integer("ordre").notNullable().defaultTo(0);
    stamps(t);
  });

  await knex.schema.createTable("categorie_materiel", (t) => {
    t.increments("id"); // 1 = traction; power is shown for 1, 2, 8, 12, 13, 17
    labels(t);
    t.integer("ordre").notNullable().defaultTo(0); // category number within its class (noCategorie)
    t.integer("id_classe_materiel").notNullable().references("id").inTable("classe_materiel");
    t.index(["id_classe_materiel", "ordre"]);
    stamps(t);
  });

  await knex.schema.createTable("reference_materiel", (t) => {
    t.increments("id"); // idBasemeq
    t.string("identifiant", 60).notNullable(); // idenBasemeq
    labels(t);
    t.integer("id_categorie_materiel").notNullable().references("id").inTable("categorie_materiel");
    t.boolean("archive").notNullable().defaultTo(false);
    t.decimal("prix_moyen", 12, 2); // € excl. VAT, average new price in year anneeprix
    t.integer("poids"); // kg
    t.decimal("puissance", 8, 2); // ch: engine power of a tractor or self-propelled machine
    t.decimal("puissance_utile", 8, 2); // ch: tractor power the implement needs
    t.decimal("largeur", 6, 2); // m: working width
    t.decimal("debit", 10, 3); // work rate, in unite_debit
    t.string("unite_debit", 10).notNullable().defaultTo("ha/h"); // ha/h, m3/h (pumps), t/h
    t.integer("utilisation_annuelle"); // reference annual use, in unite_utilisation
    t.string("unite_utilisation", 10).notNullable().defaultTo("h"); // h or ha
    t.decimal("reparation", 10, 2); // € of maintenance and repair per unit of use (unite_utilisation)
    t.decimal("amortissement", 6, 2); // years: reference depreciation duration
    t.integer("vie_usure"); // wear life, in unite_utilisation (h or ha)
    t.integer("vie_obsolescence"); // years
    t.decimal("taux_revente", 5, 2); // % of the new price at resale after the depreciation duration
    t.integer("anneeprix"); // price year (the form shows anneeprix-1 to anneeprix)
    figure(t);
    t.index(["id_categorie_materiel", "archive"]);
    stamps(t);
  });

  // ---- Cultural operations (spec 2 §3 "Operation type", §7 conso_carburant)
  await knex.schema.createTable("type_action", (t) => {
    t.increments("id"); // idTypeAction / dicIdTypeAction
    labels(t);
    t.integer("ordre").notNullable().defaultTo(0);
    t.boolean("profondeur_travail").notNullable().defaultTo(false); // working depth applies
    t.boolean("debit_irrigation").notNullable().defaultTo(false); // irrigation type (flow in m3/h, no work rate)
    t.boolean("volume_bouillie").notNullable().defaultTo(false); // spraying (spray volume L/ha)
    stamps(t);
  });

  // Fuel use of an operation (L/ha), read by calculs/indicateurs/conso_carburant from
  // id_type_action, debit (ha/h), puissance (ch) and profondeur_travail (cm):
  //   power method   L/ha = puissance × 0.7355 (kW) × taux_charge × conso_specifique (L/kWh) / debit
  //   table method   L/ha = conso_reference, used when the work rate is unknown
  //   depth          for types with profondeur_reference, both scale with profondeur_travail / profondeur_reference
  // (research: indicators-and-reference-data.md §4.1 options 3 and 4, §4.2 table).
  await knex.schema.createTable("reference_conso_carburant", (t) => {
    t.increments("id");
    t.integer("id_type_action").notNullable().unique().references("id").inTable("type_action");
    t.decimal("taux_charge", 4, 3); // engine load factor, 0–1
    t.decimal("conso_specifique", 5, 3); // L of diesel per kWh delivered
    t.decimal("conso_reference", 6, 2); // L/ha per pass at the reference depth
    t.decimal("conso_min", 6, 2); // L/ha, low end of the published range
    t.decimal("conso_max", 6, 2); // L/ha, high end of the published range
    t.decimal("profondeur_reference", 5, 1); // cm; null when depth does not change fuel use
    figure(t);
    stamps(t);
  });

  await knex.schema.createTable("profondeur_travail", (t) => {
    t.increments("id");
    labels(t);
    t.decimal("valeur", 5, 1).notNullable(); // cm, the value stored in operation_culturale.profondeur_travail
    t.integer("ordre").notNullable().defaultTo(0);
    figure(t);
    stamps(t);
  });

  // ---- Labour (spec 2 §3 "Labour item", §4 labour norms, §9)
  await knex.schema.createTable("type_main_oeuvre", (t) => {
    t.increments("id"); // 951, 952 salaried; 953 family
    labels(t);
    t.boolean("salarie").notNullable().defaultTo(false);
    t.integer("ordre").notNullable().defaultTo(0);
    stamps(t);
  });

  // referenceValeurs: the spec reads them by index (index 2 family norm, index 3 salaried norm),
  // which is `ordre` here; `code` names each one for the server code.
  await knex.schema.createTable("reference_valeur", (t) => {
    t.increments("id");
    t.string("code", 60).notNullable().unique();
    labels(t);
    t.decimal("valeur", 14, 4);
    t.string("unite", 40);
    t.integer("ordre").notNullable().defaultTo(0);
    t.integer("annee"); // year the value applies to
    figure(t);
    stamps(t);
  });

  // ---- Geography (spec 2 §3 Department, Commune; §4 country 26 = France)
  await knex.schema.createTable("pays", (t) => {
    t.increments("id"); // 26 = France
    t.string("code_iso", 2).notNullable().unique();
    labels(t);
    stamps(t);
  });

  await knex.schema.createTable("departement", (t) => {
    t.increments("id");
    t.string("num_dept", 3).notNullable().unique();
    t.string("lbl", 255).notNullable();
    t.string("code_region", 3);
    stamps(t);
  });

  await knex.schema.createTable("commune", (t) => {
    t.increments("id");
    t.string("ci", 5).notNullable().unique(); // INSEE code
    t.string("cp", 5).notNullable(); // first postal code
    t.text("codes_postaux").notNullable().defaultTo(""); // every postal code, comma-separated
    t.string("lbl", 255).notNullable();
    t.string("num_dept", 3).notNullable().references("num_dept").inTable("departement");
    t.double("lat");
    t.double("lon");
    t.index(["num_dept", "lbl"]);
    t.index(["cp"]);
    stamps(t);
  });

  // Catchment areas (bassin) and small agricultural regions (petite_region_agricole) of the farm
  // are codes of this list; administrative regions are here too.
  await knex.schema.createTable("reference_region", (t) => {
    t.increments("id");
    t.string("niveau", 30).notNullable(); // region, bassin, petite_region_agricole
    t.string("code", 20).notNullable();
    labels(t);
    t.string("code_parent", 20);
    t.integer("ordre").notNullable().defaultTo(0);
    t.unique(["niveau", "code"]);
    stamps(t);
  });

  // ---- Farm description lists (spec 2 §3 Farm)
  for (const table of ["otex", "type_agriculture", "type_sol_aee", "type_sol_arvalis", "type_sous_sol"]) {
    await knex.schema.createTable(table, (t) => {
      t.increments("id");
      t.string("code", 20);
      labels(t);
      t.integer("ordre").notNullable().defaultTo(0);
      stamps(t);
    });
  }

  await knex.schema.createTable("acidite_sol", (t) => {
    t.increments("id");
    labels(t);
    t.decimal("ph_min", 4, 2); // pH water, inclusive
    t.decimal("ph_max", 4, 2); // pH water, exclusive
    t.integer("ordre").notNullable().defaultTo(0);
    figure(t);
    stamps(t);
  });

  await knex.schema.createTable("profondeur_sol", (t) => {
    t.increments("id");
    labels(t);
    t.integer("profondeur_min"); // cm, inclusive
    t.integer("profondeur_max"); // cm, exclusive
    t.integer("ordre").notNullable().defaultTo(0);
    figure(t);
    stamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "profondeur_sol",
    "acidite_sol",
    "type_sous_sol",
    "type_sol_arvalis",
    "type_sol_aee",
    "type_agriculture",
    "otex",
    "reference_region",
    "commune",
    "departement",
    "pays",
    "reference_valeur",
    "type_main_oeuvre",
    "profondeur_travail",
    "reference_conso_carburant",
    "type_action",
    "reference_materiel",
    "categorie_materiel",
    "classe_materiel",
    "reference_seed",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
