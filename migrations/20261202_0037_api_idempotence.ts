import type { Knex } from "knex";

/**
 * Idempotency-Key on the API's creating calls (issue 27, decision 0113): the answer of a POST made with a key, kept a
 * day per user and key, so that the same request sent again is answered the same without creating twice. The unique
 * (user, key) index makes two concurrent requests with one key create once: the second one's transaction fails on
 * it and is rolled back.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("api_idempotence", (t) => {
    t.increments("id").primary();
    t.integer("id_user").notNullable();
    t.string("cle", 255).notNullable();
    t.string("requete", 64).notNullable(); // SHA-256 of method, path and body
    t.integer("statut").notNullable();
    t.text("reponse").notNullable();
    t.bigInteger("expire").notNullable(); // ms since 1970 (as api_quota's windows)
    t.unique(["id_user", "cle"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("api_idempotence");
}
