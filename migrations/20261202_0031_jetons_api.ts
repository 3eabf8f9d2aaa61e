import type { Knex } from "knex";

/**
 * API tokens done properly (issue 26, decision 0098). `api_token` already kept the SHA-256 of each token, its user,
 * its session and its expiry; it now says what the token is (`nature`: "session" for the tokens tied to a browser
 * session, "connexion" for the token of POST login_check, "personnel" for a personal access token made on the profile
 * page) and what it may do (`acces`: "lecture" refuses every write, "ecriture" may write what the user may write).
 * `api_quota` counts the calls per token and per client address in fixed one-minute windows, in the database so that
 * every server process shares the counts (as login_failure does for sign-ins).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("api_token", (t) => {
    t.string("nature", 20).notNullable().defaultTo("session");
    t.string("acces", 10).notNullable().defaultTo("ecriture");
    t.index(["id_user"]);
  });
  await knex.schema.createTable("api_quota", (t) => {
    t.string("cle", 120).notNullable();
    t.bigInteger("fenetre").notNullable(); // start of the minute, in ms since 1970
    t.integer("compte").notNullable().defaultTo(0);
    t.primary(["cle", "fenetre"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("api_quota");
  await knex.schema.alterTable("api_token", (t) => {
    t.dropIndex(["id_user"]);
    t.dropColumn("nature");
    t.dropColumn("acces");
  });
}
