import type { Knex } from "knex";

/**
 * (id_campagne, id) indexes on the tables whose lists are read by campaign in key order (issue 30, decision 0127):
 * the interventions, plots, plot lots, layouts, observation series and sampling points of a campaign, read by the
 * screens (`where id_campagne = ? order by id`) and paged by the raw export (`id_campagne in (…) and id > ? order by
 * id limit …`). The single-column index on id_campagne stays: dropping it buys little and would change plans
 * elsewhere.
 */
const TABLES = ["action", "parcelle", "lot_parcelle", "amenagement", "observation_serie", "placette"] as const;
const nom = (table: string) => `${table}_id_campagne_id_index`;

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.schema.alterTable(table, (t) => t.index(["id_campagne", "id"], nom(table)));
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.schema.alterTable(table, (t) => t.dropIndex(["id_campagne", "id"], nom(table)));
}
