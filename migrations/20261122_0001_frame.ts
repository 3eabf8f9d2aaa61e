import type { Knex } from "knex";

/**
 * The frame of spec 1: users, groups, networks, folders, farms, their links and rights,
 * campaigns, news posts, sessions, API tokens and jobs.
 * Foreign keys use the spec's idXxx names (id_oad, id_dossier, ...), see docs/data-model.md.
 */
export async function up(knex: Knex): Promise<void> {
  const stamps = (t: Knex.CreateTableBuilder) => t.timestamps(true, true);

  await knex.schema.createTable("utilisateur", (t) => {
    t.increments("id");
    t.string("username", 180).notNullable().unique();
    t.string("nom", 120).notNullable();
    t.string("prenom", 120).notNullable();
    t.string("email", 255);
    t.string("password_hash", 255).notNullable();
    t.boolean("admin").notNullable().defaultTo(false);
    t.text("roles").notNullable().defaultTo("[]");
    t.boolean("acceptcgu").notNullable().defaultTo(false);
    t.boolean("is_visible").notNullable().defaultTo(false);
    t.boolean("actif").notNullable().defaultTo(true);
    t.timestamp("last_login_at");
    stamps(t);
  });

  await knex.schema.createTable("groupe_utilisateur", (t) => {
    t.increments("id");
    t.string("nom_groupe", 180).notNullable().unique();
    stamps(t);
  });

  await knex.schema.createTable("utilisateur_groupe", (t) => {
    t.increments("id");
    t.integer("id_groupe").notNullable().references("id").inTable("groupe_utilisateur").onDelete("CASCADE");
    t.integer("id_user").notNullable().references("id").inTable("utilisateur").onDelete("CASCADE");
    t.unique(["id_groupe", "id_user"]);
    stamps(t);
  });

  await knex.schema.createTable("oad", (t) => {
    t.increments("id");
    t.string("libelle", 120).notNullable();
    t.string("libelle_long", 255);
    t.boolean("international").notNullable().defaultTo(false);
    t.string("email_acces", 255);
    stamps(t);
  });

  await knex.schema.createTable("dossier", (t) => {
    t.increments("id");
    t.string("libelle", 255).notNullable();
    t.string("suffixe", 60);
    t.integer("id_oad").notNullable().references("id").inTable("oad");
    t.text("remarque").notNullable().defaultTo("");
    stamps(t);
  });

  await knex.schema.createTable("type_exploitation", (t) => {
    t.increments("id");
    t.string("libelle", 120).notNullable();
    t.string("libelle_en", 120);
    stamps(t);
  });

  await knex.schema.createTable("exploitation", (t) => {
    t.increments("id");
    t.string("libelle", 255).notNullable();
    t.string("suffixe", 60);
    t.integer("id_type_exploitation").references("id").inTable("type_exploitation");
    stamps(t);
  });

  await knex.schema.createTable("dossier_exploitation", (t) => {
    t.increments("id");
    t.integer("id_dossier").notNullable().references("id").inTable("dossier").onDelete("CASCADE");
    t.integer("id_exploitation").notNullable().references("id").inTable("exploitation").onDelete("CASCADE");
    t.boolean("dex_ecriture").notNullable().defaultTo(false);
    t.boolean("dex_lecture").notNullable().defaultTo(false);
    t.boolean("dex_synthese").notNullable().defaultTo(false);
    t.boolean("dex_animation").notNullable().defaultTo(false);
    t.boolean("dex_nominatif").notNullable().defaultTo(false);
    t.unique(["id_dossier", "id_exploitation"]);
    stamps(t);
  });

  await knex.schema.createTable("utilisateur_dossier", (t) => {
    t.increments("id");
    t.integer("id_user").notNullable().references("id").inTable("utilisateur").onDelete("CASCADE");
    t.integer("id_dossier").notNullable().references("id").inTable("dossier").onDelete("CASCADE");
    t.boolean("udo_animation").notNullable().defaultTo(false);
    t.boolean("udo_ecriture").notNullable().defaultTo(false);
    t.boolean("udo_lecture").notNullable().defaultTo(false);
    t.boolean("udo_synthese").notNullable().defaultTo(false);
    t.boolean("udo_nominatif").notNullable().defaultTo(false);
    t.string("udo_path", 255);
    t.integer("udo_annee_recolte");
    t.boolean("udo_proprietaire").notNullable().defaultTo(false);
    t.integer("ordre").notNullable().defaultTo(0);
    t.unique(["id_user", "id_dossier"]);
    stamps(t);
  });

  await knex.schema.createTable("campagne", (t) => {
    t.increments("id");
    t.integer("id_exploitation").notNullable().references("id").inTable("exploitation").onDelete("CASCADE");
    t.integer("annee_recolte").notNullable();
    t.string("prefixe_campagne", 60).notNullable().defaultTo("");
    t.string("api_libelle", 255).notNullable().defaultTo("");
    t.boolean("simulation").notNullable().defaultTo(false);
    t.integer("id_campagne_source").references("id").inTable("campagne").onDelete("SET NULL");
    t.integer("id_campagne_histo_parcelle").references("id").inTable("campagne").onDelete("SET NULL");
    t.boolean("inter").notNullable().defaultTo(false);
    t.boolean("maj_dt_inter").notNullable().defaultTo(false);
    t.boolean("obs").notNullable().defaultTo(false);
    t.boolean("elt_observe").notNullable().defaultTo(false);
    t.boolean("valeur").notNullable().defaultTo(false);
    t.boolean("prix").notNullable().defaultTo(false);
    t.integer("annee_derniere_action");
    t.boolean("serie_valide").notNullable().defaultTo(false);
    t.boolean("indicateur_publie").notNullable().defaultTo(false);
    t.index(["id_exploitation", "annee_recolte"]);
    stamps(t);
  });

  // The user's context selection and campaign unlock, kept on the server so that it survives
  // reloads and new sign-ins on any browser (spec 1 §4).
  await knex.schema.createTable("utilisateur_contexte", (t) => {
    t.integer("id_user").primary().references("id").inTable("utilisateur").onDelete("CASCADE");
    t.integer("id_oad").references("id").inTable("oad").onDelete("SET NULL");
    t.integer("id_dossier").references("id").inTable("dossier").onDelete("SET NULL");
    t.text("exploitations").notNullable().defaultTo("[]");
    t.integer("id_campagne").references("id").inTable("campagne").onDelete("SET NULL");
    t.integer("id_campagne_deverrouillee").references("id").inTable("campagne").onDelete("SET NULL");
    t.timestamp("last_post_date");
    stamps(t);
  });

  await knex.schema.createTable("post", (t) => {
    t.increments("id");
    t.string("title", 255).notNullable();
    t.text("content").notNullable();
    t.timestamp("creation_date").notNullable().defaultTo(knex.fn.now());
    t.string("post_category", 60).notNullable().defaultTo("actualite");
    t.string("image", 255);
    t.integer("id_auteur").references("id").inTable("utilisateur").onDelete("SET NULL");
    stamps(t);
  });

  await knex.schema.createTable("session", (t) => {
    t.string("id", 64).primary();
    t.integer("id_user").references("id").inTable("utilisateur").onDelete("CASCADE");
    t.text("data").notNullable().defaultTo("{}");
    t.timestamp("expires_at");
    stamps(t);
  });

  await knex.schema.createTable("api_token", (t) => {
    t.increments("id");
    t.integer("id_user").notNullable().references("id").inTable("utilisateur").onDelete("CASCADE");
    t.string("token_hash", 128).notNullable().unique();
    t.string("label", 120).notNullable().defaultTo("");
    t.string("id_session", 64);
    t.timestamp("expires_at");
    t.timestamp("last_used_at");
    stamps(t);
  });

  await knex.schema.createTable("login_failure", (t) => {
    t.increments("id");
    t.string("username", 180).notNullable();
    t.string("ip", 64).notNullable().defaultTo("");
    t.timestamp("at").notNullable().defaultTo(knex.fn.now());
    t.index(["username", "at"]);
  });

  await knex.schema.createTable("job", (t) => {
    t.increments("id");
    t.string("kind", 60).notNullable();
    t.string("status", 20).notNullable().defaultTo("queued");
    t.float("progress").notNullable().defaultTo(0);
    t.text("payload").notNullable().defaultTo("{}");
    t.text("result");
    t.text("error");
    t.integer("id_user").references("id").inTable("utilisateur").onDelete("SET NULL");
    t.string("claimed_by", 120);
    t.timestamp("started_at");
    t.timestamp("finished_at");
    t.index(["status", "id"]);
    stamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "job",
    "login_failure",
    "api_token",
    "session",
    "post",
    "utilisateur_contexte",
    "campagne",
    "utilisateur_dossier",
    "dossier_exploitation",
    "exploitation",
    "type_exploitation",
    "dossier",
    "oad",
    "utilisateur_groupe",
    "groupe_utilisateur",
    "utilisateur",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
