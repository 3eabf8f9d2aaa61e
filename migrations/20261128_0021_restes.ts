import type { Knex } from "knex";

/**
 * Why: deleting interventions (the copy's and duplication's "delete the destination's interventions" option, a plot or
 * campaign deletion) makes the database look up, for every deleted intervention and input, the rows that point to it.
 * Two such foreign keys had no index, so each deleted row read the whole observation tables (issue 12's bench:
 * bench/duplication.ts). Indexes only; no data change.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("observation", (t) => t.index(["id_action"]));
  await knex.schema.alterTable("observation_serie", (t) => t.index(["id_intrant"]));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("observation", (t) => t.dropIndex(["id_action"]));
  await knex.schema.alterTable("observation_serie", (t) => t.dropIndex(["id_intrant"]));
}
