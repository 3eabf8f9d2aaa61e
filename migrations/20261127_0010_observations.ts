import type { Knex } from "knex";

/**
 * Observation series, observations, placettes, horizons and attached files (spec 2 §2–§9 "Observation
 * measures", issue 15), and the harvest series of field work (spec 3 §3.6: a series of type 1128 made by a
 * harvest intervention, with its action and input). docs/data-model.md §5.
 *
 * Reference lists (global, fixed ids from seeds/reference/<table>.json): observation types, observed
 * elements, the elements offered per type with their up to three units (admin_oad_observation; a row
 * without network is the default of every network), crop stages by stage scale, studied organs, weeds
 * with their stages and density classes, weeding efficacy classes.
 *
 * Campaign data: observation_serie (a plot's series), observation (one value: a row of the observations
 * table, or the value of one placette of that row, or a horizon limit, or the series' studied organ and
 * laboratory), complement_observation, horizon, placette, the placettes chosen for a series, the
 * folder's own observed elements, and the attached files (their bytes live under DATA_DIR).
 * Everything goes with its campaign, plot and series (cascade).
 */
export async function up(knex: Knex): Promise<void> {
  const stamps = (t: Knex.CreateTableBuilder) => t.timestamps(true, true);
  const labels = (t: Knex.CreateTableBuilder) => {
    t.string("libelle", 255).notNullable();
    t.string("libelle_en", 255);
  };

  // ---- References
  await knex.schema.createTable("type_observation", (t) => {
    t.increments("id"); // dicIdTypeSerie: 1124–1133, 3040 (1128 = harvest)
    labels(t);
    t.string("famille", 20).notNullable(); // sol | stade | maladie | ravageur | recolte | plante | adventice | composante | auxiliaire
    t.integer("ordre").notNullable().defaultTo(0);
    stamps(t);
  });

  await knex.schema.createTable("element_observe", (t) => {
    t.increments("id"); // observedElemId (1680 yield, 1192 humidity, 1190 test weight, 1191 TGW, 1193 protein, 1685 oil, …)
    labels(t);
    t.integer("no_ordre").notNullable().defaultTo(0);
    // num: a number | texte: free text | organe: id of organe_etudie | densite: id of adventice_densite |
    // efficacite: id of efficacite_desherbage | limite: a horizon limit (cm)
    t.string("nature", 20).notNullable().defaultTo("num");
    t.text("source");
    stamps(t);
  });

  await knex.schema.createTable("admin_oad_observation", (t) => {
    t.increments("id");
    t.integer("id_oad").references("id").inTable("oad").onDelete("CASCADE"); // null: offered to every network
    t.integer("dic_id_type_observation").notNullable().references("id").inTable("type_observation");
    t.integer("dico_id_elt_observe").notNullable().references("id").inTable("element_observe");
    t.string("unite1", 30);
    t.string("unite2", 30);
    t.string("unite3", 30);
    t.index(["dic_id_type_observation"]);
    stamps(t);
  });

  await knex.schema.createTable("stade_culture", (t) => {
    t.increments("id");
    labels(t);
    t.string("code", 20); // BBCH code when there is one
    t.integer("id_echelle_stade_aee").notNullable(); // stage scale (culture.id_echelle_stade_aee)
    t.integer("ordre").notNullable().defaultTo(0);
    t.index(["id_echelle_stade_aee", "ordre"]);
    stamps(t);
  });

  await knex.schema.createTable("organe_etudie", (t) => {
    t.increments("id");
    labels(t);
    t.integer("ordre").notNullable().defaultTo(0);
    stamps(t);
  });

  await knex.schema.createTable("adventice", (t) => {
    t.increments("id");
    labels(t);
    t.string("nom_latin", 255);
    t.string("groupe", 20).notNullable(); // graminee | dicotyledone
    t.integer("ordre").notNullable().defaultTo(0);
    stamps(t);
  });

  await knex.schema.createTable("adventice_stade", (t) => {
    t.increments("id");
    t.integer("id_adventice").notNullable().references("id").inTable("adventice");
    labels(t);
    t.integer("ordre").notNullable().defaultTo(0);
    t.index(["id_adventice"]);
    stamps(t);
  });

  await knex.schema.createTable("adventice_densite", (t) => {
    t.increments("id");
    t.integer("id_adventice").notNullable().references("id").inTable("adventice");
    labels(t);
    t.integer("ordre").notNullable().defaultTo(0);
    t.index(["id_adventice"]);
    stamps(t);
  });

  await knex.schema.createTable("efficacite_desherbage", (t) => {
    t.increments("id");
    labels(t);
    t.integer("ordre").notNullable().defaultTo(0);
    stamps(t);
  });

  // ---- Folder observations: observed elements a folder defines for itself (spec 1 "folder observation")
  await knex.schema.createTable("dossier_observation", (t) => {
    t.increments("id");
    t.integer("id_dossier").notNullable().references("id").inTable("dossier").onDelete("CASCADE");
    t.string("libelle", 255).notNullable();
    t.integer("dic_id_type_intrant").notNullable().references("id").inTable("type_observation"); // the observation type
    t.string("dic_ll_unite", 30);
    t.text("remarque");
    t.index(["id_dossier"]);
    stamps(t);
  });

  // ---- Placettes (sub-areas of a plot)
  await knex.schema.createTable("placette", (t) => {
    t.increments("id");
    t.integer("id_parcelle").notNullable().references("id").inTable("parcelle").onDelete("CASCADE");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.integer("id_exploitation").notNullable().references("id").inTable("exploitation").onDelete("CASCADE");
    t.string("libelle", 255).notNullable();
    t.text("geometrie"); // GeoJSON Polygon, WGS84
    t.index(["id_parcelle"]);
    t.index(["id_campagne"]);
    stamps(t);
  });

  // ---- Series
  await knex.schema.createTable("observation_serie", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.integer("id_exploitation").notNullable().references("id").inTable("exploitation").onDelete("CASCADE");
    t.integer("id_parcelle").notNullable().references("id").inTable("parcelle").onDelete("CASCADE");
    t.string("nom", 255).notNullable();
    t.text("remarque");
    t.date("date").notNullable();
    t.integer("dic_id_type_serie").notNullable().references("id").inTable("type_observation");
    t.integer("id_action").references("id").inTable("action").onDelete("SET NULL");
    t.integer("id_intrant").references("id").inTable("intrant").onDelete("SET NULL");
    t.integer("id_user").references("id").inTable("utilisateur").onDelete("SET NULL");
    t.integer("id_stade").references("id").inTable("stade_culture");
    t.integer("id_culture").references("id").inTable("culture");
    t.boolean("is_placette_selected").notNullable().defaultTo(false);
    t.index(["id_parcelle", "date"]);
    t.index(["id_campagne"]);
    t.index(["id_action"]);
    stamps(t);
  });

  // The placettes a series records values for (plot mode).
  await knex.schema.createTable("observation_serie_placette", (t) => {
    t.increments("id");
    t.integer("id_observation_serie").notNullable().references("id").inTable("observation_serie").onDelete("CASCADE");
    t.integer("id_placette").notNullable().references("id").inTable("placette").onDelete("CASCADE");
    t.integer("ordre").notNullable().defaultTo(0);
    t.unique(["id_observation_serie", "id_placette"]);
    t.index(["id_placette"]);
    stamps(t);
  });

  await knex.schema.createTable("horizon", (t) => {
    t.increments("id");
    t.integer("id_parent").notNullable().references("id").inTable("observation_serie").onDelete("CASCADE");
    t.integer("id_parcelle").notNullable().references("id").inTable("parcelle").onDelete("CASCADE");
    t.string("name", 120).notNullable();
    t.integer("ordre").notNullable().defaultTo(0);
    t.index(["id_parent"]);
    stamps(t);
  });

  await knex.schema.createTable("observation", (t) => {
    t.increments("id");
    t.integer("id_observation_serie").notNullable().references("id").inTable("observation_serie").onDelete("CASCADE");
    t.integer("id_parcelle").notNullable().references("id").inTable("parcelle").onDelete("CASCADE");
    // A placette's value of a table row: the row is the parent observation.
    t.integer("id_observation_parent").references("id").inTable("observation").onDelete("CASCADE");
    t.integer("id_placette").references("id").inTable("placette").onDelete("CASCADE");
    t.integer("id_horizon").references("id").inTable("horizon").onDelete("CASCADE");
    // The observed element: a reference element, or the folder's own element (exactly one of the two).
    t.integer("dico_id_elt_observe").references("id").inTable("element_observe");
    t.integer("id_dossier_observation").references("id").inTable("dossier_observation").onDelete("CASCADE");
    t.decimal("obs_val_num", 14, 4);
    t.text("obs_val_txt");
    t.string("dic_ll_unite", 30);
    t.integer("stade_adventice").references("id").inTable("adventice_stade");
    t.integer("id_pere_stade").references("id").inTable("adventice");
    t.text("remarque");
    t.date("date");
    t.integer("id_action").references("id").inTable("action").onDelete("SET NULL");
    t.integer("id_user").references("id").inTable("utilisateur").onDelete("SET NULL");
    t.integer("ordre").notNullable().defaultTo(0); // row order in the observations table
    t.index(["id_observation_serie"]);
    t.index(["id_parcelle"]);
    t.index(["id_observation_parent"]);
    t.index(["id_horizon"]);
    stamps(t);
  });

  await knex.schema.createTable("complement_observation", (t) => {
    t.increments("id");
    t.integer("id_observation").notNullable().references("id").inTable("observation").onDelete("CASCADE");
    t.integer("dico_id_elt_observe").notNullable().references("id").inTable("element_observe");
    t.decimal("obs_val_num", 14, 4);
    t.index(["id_observation"]);
    stamps(t);
  });

  await knex.schema.createTable("fichier_attache_serie", (t) => {
    t.increments("id");
    t.integer("id_observation_serie").notNullable().references("id").inTable("observation_serie").onDelete("CASCADE");
    t.string("nom", 255).notNullable(); // name shown and used for the download (the uploaded name, cleaned)
    t.timestamp("date", { useTz: true }).notNullable();
    t.integer("cree_par").references("id").inTable("utilisateur").onDelete("SET NULL");
    t.string("chemin", 500).notNullable(); // location under DATA_DIR, generated (no user-given name)
    t.string("type_mime", 100);
    t.integer("taille");
    t.index(["id_observation_serie"]);
    stamps(t);
  });
  // recolte.id_observation_serie (migration 0005) stays a plain integer: the harvest service keeps it.
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "fichier_attache_serie",
    "complement_observation",
    "observation",
    "horizon",
    "observation_serie_placette",
    "observation_serie",
    "placette",
    "dossier_observation",
    "efficacite_desherbage",
    "adventice_densite",
    "adventice_stade",
    "adventice",
    "organe_etudie",
    "stade_culture",
    "admin_oad_observation",
    "element_observe",
    "type_observation",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
