import type { Knex } from "knex";

/** Who changed rights or created/deleted a folder, farm or campaign, and when (beyond the spec: issue 3). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("audit", (t) => {
    t.increments("id");
    t.integer("id_user").references("id").inTable("utilisateur").onDelete("SET NULL");
    t.string("user_label", 255).notNullable().defaultTo("");
    t.string("action", 60).notNullable();
    t.string("entite", 60).notNullable();
    t.integer("id_entite");
    t.integer("id_dossier");
    t.integer("id_exploitation");
    t.text("details").notNullable().defaultTo("{}");
    t.index(["id_dossier", "id"]);
    t.index(["id_exploitation", "id"]);
    t.timestamps(true, true);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("audit");
}
