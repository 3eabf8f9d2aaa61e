import type { Knex } from "knex";

/**
 * Prices (spec 3 §3.7, §3.8; docs/data-model.md §7; decision 0034): the supply price of each input used in a
 * campaign (prix_appro), the sale price of each harvested output per management mode (prix_vente), and the
 * reference-source price of plant-protection products (prix_phytcom, global, origin 773).
 *
 * A price row stands for a product as the campaign's inputs (or harvests) name it; `cle` is that name written out
 * (server/prix/keys.ts), unique per campaign, so that the rows are found again and created once. The fuel price
 * is not a row here: it is the campaign's caracteristique.prix_fioul.
 *
 * prix_vente.id_qualifiant_recolte is a plain integer (the harvest qualifiers are another migration's table).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("prix_appro", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.string("cle", 400).notNullable();
    t.integer("id_origine_intrant"); // 773, 776, 777
    t.integer("id_type_intrant").notNullable(); // 538, 539, 540, 542, 543
    t.integer("id_intrant"); // the catalogue row, as intrant.id_intrant (no foreign key: it depends on the origin)
    t.integer("id_modalite"); // water: the irrigation method (categorie_intrant)
    t.boolean("traitement_semence").notNullable().defaultTo(false);
    t.string("libelle_intrant", 255).notNullable();
    t.string("libelle_intrant_concat", 500);
    t.decimal("prix_achat", 14, 4); // € per the part of the unit before the slash
    t.string("unite", 30); // upper-cased
    t.unique(["id_campagne", "cle"]);
    t.index(["cle"]); // the proposed prices read one product's prices across campaigns
    t.timestamps(true, true);
  });

  await knex.schema.createTable("prix_vente", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.string("cle", 200).notNullable();
    t.integer("id_mode_conduite").references("id").inTable("mode_conduite").onDelete("CASCADE");
    t.integer("id_culture").notNullable().references("id").inTable("culture");
    t.integer("id_type_sortie").notNullable().references("id").inTable("type_sortie");
    t.integer("id_qualifiant_recolte"); // the spec's qualifiantRecolte; no foreign key here (see above)
    t.decimal("prix_vente", 14, 4); // €/t
    t.unique(["id_campagne", "cle"]);
    t.timestamps(true, true);
  });

  await knex.schema.createTable("prix_phytcom", (t) => {
    t.increments("id");
    t.integer("id_intrant_phyto").notNullable().references("id").inTable("intrant_phyto").onDelete("CASCADE");
    t.string("libelle", 255);
    t.decimal("prix_phytcom", 14, 4);
    t.string("unite", 30);
    t.date("date_phytcom");
    t.text("source");
    t.index(["id_intrant_phyto"]);
    t.timestamps(true, true);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["prix_phytcom", "prix_vente", "prix_appro"]) await knex.schema.dropTableIfExists(table);
}
