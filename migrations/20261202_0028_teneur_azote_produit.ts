import type { Knex } from "knex";

/**
 * The N content of each crop's harvested products (issue 24; docs/indicators.md §7.5; decision 0086): one row per
 * crop and output type, in kg N per tonne of the output type's unit (fresh matter at the trade moisture, or dry matter
 * for forages), with its source and confidence. The snapshot loader passes it with each harvest, so the N balance of a
 * harvested plot is N applied − N exported. Seeded from seeds/reference/teneur-azote-produit.json.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("teneur_azote_produit", (t) => {
    t.increments("id");
    t.integer("id_culture").notNullable().references("id").inTable("culture");
    t.integer("id_type_sortie").notNullable().references("id").inTable("type_sortie");
    t.decimal("teneur_azote", 8, 3).notNullable(); // kg N per t of product (t MS for forages)
    t.string("unite", 20).notNullable(); // "kg N/t" or "kg N/t MS"
    t.text("source").notNullable();
    t.string("confiance", 20).notNullable();
    t.unique(["id_culture", "id_type_sortie"]);
    t.timestamps(true, true);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("teneur_azote_produit");
}
