import type { Knex } from "knex";

/**
 * Jobs (issue 14, decision 0051): work that outlives a request (a calculation series, an export), recorded here and
 * run by the job runner of server/tache/ in the primary server process of each container.
 *
 * - etat: 'en_attente' (created, not claimed yet), 'en_cours' (claimed by the runner named in `instance`),
 *   'terminee', 'echec' (erreur holds the error key, e.g. 'taches.interrompue', 'errors.unexpected').
 * - progression / total: what the job's handler reports (rows written of rows counted).
 * - parametres, resultat: JSON texts (the handler's input and what it returned).
 * - instance: `<host>:<pid>` of the runner that claimed the job; dt_battement, the heartbeat it writes while the
 *   job runs (the database's clock): a job 'en_cours' whose heartbeat is too old has lost its runner.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("tache", (t) => {
    t.increments("id");
    t.string("type", 100).notNullable();
    t.string("etat", 20).notNullable().defaultTo("en_attente");
    t.integer("progression").notNullable().defaultTo(0);
    t.integer("total").notNullable().defaultTo(0);
    t.string("erreur", 200);
    t.text("parametres");
    t.text("resultat");
    t.integer("id_utilisateur").notNullable().references("id").inTable("utilisateur").onDelete("CASCADE");
    t.string("instance", 200);
    t.timestamp("dt_creation").notNullable().defaultTo(knex.fn.now());
    t.timestamp("dt_debut");
    t.timestamp("dt_fin");
    t.timestamp("dt_battement");
    t.index(["etat", "id"]); // the runner's claim: the oldest waiting job
    t.index(["id_utilisateur", "etat"]); // a user's running jobs (the progress bars of his screens)
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("tache");
}
