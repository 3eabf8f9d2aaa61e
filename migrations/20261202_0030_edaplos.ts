import type { Knex } from "knex";

/**
 * eDaplos export sessions (spec 3 §3.12, §4.6, §7 e_daplos; issue 25; decision 0096). An eDaplos session is a row of
 * session_export (migration 0018) of nature 2, with its campaigns in session_export_campagne, its file an XML
 * (`<uuid>.xml` under DATA_DIR/exports) written by a job; what this adds:
 *
 * - session_export.taille: the size of the finished file in bytes (spec: taille), null while it is written;
 * - session_export_log: the log lines of a session (spec: id, exploitation, campagne, modeConduite, parcelle, action
 *   with its dicIdTypeAction, intrant, niveau, logMessage). niveau 1 is information (a value written approximately),
 *   2 an error (a record or a value that cannot be expressed and is not in the file). log_message is a translation key
 *   (edaplos.logs.*) with its parameters as JSON; the linked rows are kept as ids without foreign keys, so that a line
 *   outlives a plot deleted after the export, and their labels are read when the lines are listed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("session_export", (t) => {
    t.bigInteger("taille");
  });
  await knex.schema.createTable("session_export_log", (t) => {
    t.increments("id");
    t.integer("id_session_export").notNullable().references("id").inTable("session_export").onDelete("CASCADE");
    t.integer("niveau").notNullable();
    t.string("log_message", 120).notNullable();
    t.text("parametres");
    t.integer("id_exploitation");
    t.integer("id_campagne");
    t.integer("id_mode_conduite");
    t.integer("id_parcelle");
    t.integer("id_action");
    t.integer("dic_id_type_action");
    t.integer("id_intrant");
    t.index(["id_session_export", "id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("session_export_log");
  await knex.schema.alterTable("session_export", (t) => {
    t.dropColumn("taille");
  });
}
