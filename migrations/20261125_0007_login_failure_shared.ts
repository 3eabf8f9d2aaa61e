import type { Knex } from "knex";

/**
 * The sign-in throttle reads its counts from login_failure (server/auth/throttle.ts), so that every server
 * process and every container shares them: usernames are stored in lower case, a good sign-in marks the
 * name's failures as resolved (they still count for the address), and failures are looked up by address.
 */
export async function up(knex: Knex): Promise<void> {
  await knex("login_failure").update({ username: knex.raw("lower(username)") });
  await knex.schema.alterTable("login_failure", (t) => {
    t.boolean("resolu").notNullable().defaultTo(false);
    t.index(["ip", "at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("login_failure", (t) => {
    t.dropIndex(["ip", "at"]);
    t.dropColumn("resolu");
  });
}
