import type { Knex } from "knex";

/**
 * The grace period of a withdrawn product (issue 28, decision 0117): E-Phy's file of uses
 * (usages_des_produits_autorises_*.csv) gives, use by use, the last day of sale and distribution ("date fin
 * distribution") and the last day of use ("date fin utilisation") that the withdrawal decision grants under
 * art. 46 of Regulation (EC) No 1107/2009. Both are stored as ISO days ("YYYY-MM-DD"), like date_decision; a use
 * without them has none.
 */
const COLUMNS = ["date_fin_distribution", "date_fin_utilisation"] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("usage_phyto", (t) => {
    for (const c of COLUMNS) t.string(c, 10);
  });
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === "pg") await knex.schema.alterTable("usage_phyto", (t) => t.dropColumns(...COLUMNS));
  // SQLite ≥ 3.35 drops a plain column in place, without rebuilding the table.
  else for (const c of COLUMNS) await knex.raw(`ALTER TABLE usage_phyto DROP COLUMN ${c}`);
}
