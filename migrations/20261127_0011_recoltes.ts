import type { Knex } from "knex";

/**
 * Harvests II (spec 3 §2.2, §3.6, §4.1, §4.2; docs/data-model.md §6; decision 0031): the folder's harvest
 * qualifiers, the kinds of harvest characteristic (reference humidity, grazing animals), the animal types
 * (referenceAnimals) and the characteristics of a harvest. The harvest table itself is migration 0005's; its
 * qualifier column gets its foreign key here (set null: the service refuses deleting one in use), and its series column
 * the one to migration 0010's observation_serie (set null).
 */
export async function up(knex: Knex): Promise<void> {
  const stamps = (t: Knex.CreateTableBuilder) => t.timestamps(true, true);

  await knex.schema.createTable("qualifiant_recolte", (t) => {
    t.increments("id");
    t.integer("id_dossier").notNullable().references("id").inTable("dossier").onDelete("CASCADE");
    t.string("qrd_nom", 255).notNullable();
    t.text("qrd_remarque");
    t.unique(["id_dossier", "qrd_nom"]);
    stamps(t);
  });

  // dicIdCaracteristiqueRecolte: what a characteristic row holds (seeds/reference/type-caracteristique-recolte.json).
  await knex.schema.createTable("type_caracteristique_recolte", (t) => {
    t.increments("id");
    t.string("code", 40).notNullable().unique();
    t.string("libelle", 255).notNullable();
    t.string("libelle_en", 255);
    t.string("unite", 30);
    t.integer("ordre").notNullable().defaultTo(0);
    stamps(t);
  });

  // referenceAnimals: the animal types of a grazing (dicIdModalite), with their livestock-unit coefficient.
  await knex.schema.createTable("reference_animal", (t) => {
    t.increments("id");
    t.string("code", 40).notNullable().unique();
    t.string("libelle", 255).notNullable();
    t.string("libelle_en", 255);
    t.decimal("ugb", 6, 3); // livestock units (LSU) per head
    t.integer("ordre").notNullable().defaultTo(0);
    t.text("source");
    t.text("confiance");
    stamps(t);
  });

  await knex.schema.createTable("caracteristique_recolte", (t) => {
    t.increments("id");
    t.integer("id_recolte").notNullable().references("id").inTable("recolte").onDelete("CASCADE");
    t.integer("dic_id_caracteristique_recolte").notNullable().references("id").inTable("type_caracteristique_recolte");
    t.integer("dic_id_modalite").references("id").inTable("reference_animal"); // animal type of a grazing row
    t.decimal("valeur_num", 14, 4);
    t.text("valeur_txt");
    t.string("dic_ll_unite", 30);
    t.string("unite", 30);
    t.integer("ordre").notNullable().defaultTo(0);
    t.index(["id_recolte"]);
    stamps(t);
  });

  // Unreferenced inputs (spec 3 §2.2, §5; decision 0032): the type the dialog asks for besides the input type, the
  // species of a seed, the category (product type) of a phyto or the type of a fertiliser.
  await knex.schema.alterTable("intrant_dossier", (t) => {
    t.integer("id_culture").references("id").inTable("culture");
    t.integer("id_categorie").references("id").inTable("categorie_intrant");
  });

  await knex.schema.alterTable("recolte", (t) => {
    // The service refuses deleting a qualifier in use; a deleted folder (whose farms may stay in other folders)
    // leaves its qualifiers' harvests without qualifier.
    t.foreign("id_qualifiant_recolte").references("id").inTable("qualifiant_recolte").onDelete("SET NULL");
    t.index(["id_qualifiant_recolte"]);
    // The harvest's observation series (migration 0010; type 1128): a deleted series leaves the harvest.
    t.foreign("id_observation_serie").references("id").inTable("observation_serie").onDelete("SET NULL");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("intrant_dossier", (t) => {
    t.dropColumn("id_culture");
    t.dropColumn("id_categorie");
  });
  await knex.schema.alterTable("recolte", (t) => {
    t.dropForeign(["id_qualifiant_recolte"]);
    t.dropForeign(["id_observation_serie"]);
    t.dropIndex(["id_qualifiant_recolte"]);
  });
  for (const table of ["caracteristique_recolte", "reference_animal", "type_caracteristique_recolte", "qualifiant_recolte"])
    await knex.schema.dropTableIfExists(table);
}
