import type { Knex } from "knex";

/**
 * Result export (issue 14, decision 0058): the indicator groups of a calculation export session are the groups a
 * series publishes (app/domain/calc/serie.ts GROUPES_SERIE, ids 1 to 6: the engine's families), not the protocol's
 * `groupe_indicateur` pillars (3 rows) that migration 0018 referenced. The link table is made again without that
 * foreign key; the ids are checked by the service against GROUPES_SERIE. No session of nature 1 could be recorded
 * before (the reference refused groups 4 to 6 and meant something else), so nothing is lost.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("session_export_groupe_indicateur");
  await knex.schema.createTable("session_export_groupe_indicateur", (t) => {
    t.increments("id");
    t.integer("id_session_export").notNullable().references("id").inTable("session_export").onDelete("CASCADE");
    t.integer("id_groupe_indicateur").notNullable(); // GROUPES_SERIE id
    t.unique(["id_session_export", "id_groupe_indicateur"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("session_export_groupe_indicateur");
  await knex.schema.createTable("session_export_groupe_indicateur", (t) => {
    t.increments("id");
    t.integer("id_session_export").notNullable().references("id").inTable("session_export").onDelete("CASCADE");
    t.integer("id_groupe_indicateur").notNullable().references("id").inTable("groupe_indicateur").onDelete("CASCADE");
    t.unique(["id_session_export", "id_groupe_indicateur"]);
  });
}
