import type { Knex } from "knex";

/**
 * Protocols, objective indicators and the reference lists of decision rules (spec 3 §3.9–3.10, docs/data-model.md §8,
 * decision 0041): the rule types (typeRdds), the protocol chapters (chapitreProtocoles), the indicator references
 * (indicateurs, with their groups), the farm's protocol entries and objective values per campaign. The rules and their
 * evaluations themselves were created with the inputs (20261126_0008).
 */
export async function up(knex: Knex): Promise<void> {
  const stamps = (t: Knex.CreateTableBuilder) => t.timestamps(true, true);

  await knex.schema.createTable("type_rdd", (t) => {
    t.increments("id");
    t.string("libelle", 255).notNullable();
    t.string("libelle_en", 255);
    t.integer("ordre").notNullable().defaultTo(0);
    stamps(t);
  });

  await knex.schema.createTable("chapitre_protocole", (t) => {
    t.increments("id"); // 2246 carries the objective indicators (spec 3 §9)
    t.string("libelle", 255).notNullable();
    t.string("libelle_en", 255);
    t.integer("ordre").notNullable().defaultTo(0);
    stamps(t);
  });

  await knex.schema.createTable("groupe_indicateur", (t) => {
    t.increments("id");
    t.string("gin_nom", 255).notNullable();
    stamps(t);
  });

  await knex.schema.createTable("indicateur", (t) => {
    t.increments("id"); // the spec's idIndicateur; created_at is its pDtCrea
    t.string("ind_nom", 255).notNullable();
    t.string("ind_nom_en", 255);
    t.string("dic_ll_unite", 30);
    t.integer("id_indicateur_pere").references("id").inTable("indicateur");
    t.integer("id_groupe_indicateur").references("id").inTable("groupe_indicateur");
    t.integer("ind_ordre");
    t.string("ind_code", 60);
    t.string("ind_echelle", 30);
    t.integer("id_dico_package");
    stamps(t);
  });

  await knex.schema.createTable("protocole_exploitation", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.integer("dic_id_chapitre_protocole").notNullable().references("id").inTable("chapitre_protocole");
    t.string("pex_libelle", 255).notNullable();
    t.text("pex_val_texte");
    t.index(["id_campagne", "dic_id_chapitre_protocole"]);
    stamps(t);
  });

  // A rule's machine-checkable condition (issue 13, beyond the spec; app/domain/rdd-conditions.ts), as JSON.
  await knex.schema.alterTable("rdd", (t) => {
    t.text("condition");
  });

  await knex.schema.createTable("indicateur_objectif", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.integer("id_indicateur").notNullable().references("id").inTable("indicateur");
    t.decimal("value", 14, 4);
    t.index(["id_campagne"]);
    stamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("rdd", (t) => {
    t.dropColumn("condition");
  });
  for (const table of ["indicateur_objectif", "protocole_exploitation", "indicateur", "groupe_indicateur", "chapitre_protocole", "type_rdd"]) {
    await knex.schema.dropTableIfExists(table);
  }
}
