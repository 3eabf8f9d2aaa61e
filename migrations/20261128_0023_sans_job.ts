import type { Knex } from "knex";

/**
 * The frame's `job` table was never used: the job runner of issue 14 keeps its jobs in `tache` (migration 0017,
 * decision 0051). One queue, one table: the unused one goes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("job");
}

export async function down(knex: Knex): Promise<void> {
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
    t.timestamps(true, true);
  });
}
