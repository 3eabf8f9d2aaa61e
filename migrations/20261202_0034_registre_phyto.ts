import type { Knex } from "knex";

/**
 * What the plant-protection register needs and Sillon did not record (issue 28; decision 0104, 0105):
 * - `code_eppo`: the EPPO codes of crops (Regulation (EU) 2023/564, art. 1(3): crops named by their EPPO code), each
 *   row with its source and confidence; `culture_code_eppo` maps Sillon's crops to them (one code per crop, a crop
 *   without a code, such as a multi-species cover, has no row). Seeded from seeds/reference/.
 * - on `action` (an intervention): the start and end time of the treatment ("HH:MM", where the use requires it), the
 *   BBCH stage chosen in the crop's scale (`id_stade_culture`; the free text `precision_stade` is kept beside it),
 *   the contractor's SIRET when a contractor treated, the early re-entry after treatment, and the lot of treated
 *   seed sown. The organic status and the location are read from the plot (type of management, PAC block,
 *   geometry), not stored twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("code_eppo", (t) => {
    t.increments("id");
    t.string("code", 6).notNullable().unique(); // EPPO code, 5 or 6 letters (TRZAW)
    t.string("nom_scientifique", 255).notNullable();
    t.text("source").notNullable();
    t.string("confiance", 20).notNullable();
    t.timestamps(true, true);
  });
  await knex.schema.createTable("culture_code_eppo", (t) => {
    t.increments("id");
    t.integer("id_culture").notNullable().unique().references("id").inTable("culture");
    t.integer("id_code_eppo").notNullable().references("id").inTable("code_eppo");
    t.timestamps(true, true);
  });
  // SQLite: knex adds a column with a foreign key by rebuilding the table, which breaks the interventions' version
  // triggers (migration 0022); SQLite's own ADD COLUMN takes the REFERENCES clause as it is.
  const postgres = knex.client.config.client === "pg";
  if (!postgres) await knex.raw("ALTER TABLE action ADD COLUMN id_stade_culture integer REFERENCES stade_culture(id) ON DELETE SET NULL");
  await knex.schema.alterTable("action", (t) => {
    t.string("heure_debut", 5);
    t.string("heure_fin", 5);
    if (postgres) t.integer("id_stade_culture").references("id").inTable("stade_culture").onDelete("SET NULL");
    t.string("siret_prestataire", 14);
    t.boolean("rentree_anticipee");
    t.string("lot_semences", 60);
  });
}

export async function down(knex: Knex): Promise<void> {
  const columns = ["heure_debut", "heure_fin", "id_stade_culture", "siret_prestataire", "rentree_anticipee", "lot_semences"];
  if (knex.client.config.client === "pg") await knex.schema.alterTable("action", (t) => t.dropColumns(...columns));
  // SQLite ≥ 3.35 drops a column in place (no rebuild, the triggers stay); a foreign-key column cannot be dropped so.
  else for (const c of columns.filter((c) => c !== "id_stade_culture")) await knex.raw(`ALTER TABLE action DROP COLUMN ${c}`);
  await knex.schema.dropTableIfExists("culture_code_eppo");
  await knex.schema.dropTableIfExists("code_eppo");
}
