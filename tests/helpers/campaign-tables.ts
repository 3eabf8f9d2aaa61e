import { registerCampaignTable, shiftDateByYears } from "../../server/campagne/duplication";
import type { Db } from "../../server/db/knex";

/**
 * Throw-away campaign-scoped tables for the tests of the duplication mechanism (server/campagne/duplication.ts):
 * test_parcelle (a parent) and test_action (a child pointing to its parcel, copied only with "inter",
 * its date moved by the year shift when "majDtInter" is chosen), registered the way each area registers its tables.
 */
export async function createTestCampaignTables(db: Db): Promise<void> {
  await db.schema.createTable("test_parcelle", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.string("libelle", 120).notNullable();
  });
  await db.schema.createTable("test_action", (t) => {
    t.increments("id");
    t.integer("id_campagne").notNullable().references("id").inTable("campagne").onDelete("CASCADE");
    t.integer("id_test_parcelle").references("id").inTable("test_parcelle").onDelete("CASCADE");
    t.date("date");
  });
}

export const testActionEntry = {
  table: "test_action",
  references: { idTestParcelle: "test_parcelle" },
  onlyWith: "inter" as const,
  transform: (row: Record<string, unknown>, ctx: { options: { majDtInter: boolean }; yearShift: number }) =>
    ctx.options.majDtInter ? { ...row, date: shiftDateByYears(row.date, ctx.yearShift) } : row,
};

export function registerTestCampaignTables(): void {
  registerCampaignTable({ table: "test_parcelle" });
  registerCampaignTable(testActionEntry);
}

/** Adds parcels and actions to a campaign; returns their ids by label. */
export async function fillCampaign(
  db: Db,
  idCampagne: number,
  parcels: { libelle: string; actions?: string[] }[],
): Promise<{ parcels: Record<string, number>; actions: number[] }> {
  const out = { parcels: {} as Record<string, number>, actions: [] as number[] };
  for (const p of parcels) {
    const [r] = await db("test_parcelle").insert({ idCampagne, libelle: p.libelle }).returning("id");
    const idParcelle = typeof r === "object" ? (r as { id: number }).id : (r as number);
    out.parcels[p.libelle] = idParcelle;
    for (const date of p.actions ?? []) {
      const [a] = await db("test_action").insert({ idCampagne, idTestParcelle: idParcelle, date }).returning("id");
      out.actions.push(typeof a === "object" ? (a as { id: number }).id : (a as number));
    }
  }
  return out;
}

/** A date column as yyyy-mm-dd, whatever the dialect hands back (PostgreSQL: a Date at local midnight). */
export function isoDay(value: unknown): string {
  if (value instanceof Date) {
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
  }
  return String(value).slice(0, 10);
}

/** The parcels of a campaign with their actions, by parcel label (to compare a copy with its source). */
export async function campaignContent(db: Db, idCampagne: number) {
  const parcels = await db("test_parcelle").where({ idCampagne }).orderBy("libelle");
  const actions = await db("test_action").where({ idCampagne }).orderBy("id");
  return parcels.map((p) => ({
    libelle: p.libelle as string,
    id: p.id as number,
    actions: actions
      .filter((a) => a.idTestParcelle === p.id)
      .map((a) => isoDay(a.date))
      .sort(),
  }));
}
