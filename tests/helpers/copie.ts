import { expect } from "vitest";
import type { Db } from "../../server/db/knex";
import type { DemoIds } from "../../server/demo/seed-demo";

/** Helpers of the copy and duplication tests (server/copie, tests/routes): a source plot full of rows, a plot's rows as a tree. */

export async function insertId(db: Db, table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await db(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}
const bare = ({ id: _i, createdAt: _c, updatedAt: _u, ...rest }: Record<string, unknown>) => rest;

/**
 * A source plot of Tilleuls 2025 holding `n` interventions, each with the inputs (and their characteristics and
 * targets) of a demo intervention that has some, and one harvest with its characteristics.
 */
export async function sourcePlotIn(t: { db: () => Db; demo: () => DemoIds }, n: number) {
  const db = t.db();
  const idCampagne = t.demo().campagnes.tilleuls2025;
  const withInputs = await db("action as a").join("intrant as i", "i.idAction", "a.id").where("a.idCampagne", idCampagne).first("a.id");
  const withHarvest = await db("action as a")
    .join("recolte as r", "r.idAction", "a.id")
    .join("caracteristique_recolte as c", "c.idRecolte", "r.id")
    .where("a.idCampagne", idCampagne)
    .first("a.id", "r.id as idRecolte");
  expect(withInputs && withHarvest).toBeTruthy();
  const plots = await db("parcelle").where({ idCampagne }).orderBy("id").pluck("id");
  const source = Number(plots[0]);
  const action = await db("action").where({ id: withInputs!.id }).first();
  const intrants = await db("intrant").where({ idAction: withInputs!.id }).whereNull("idIntrantSemence");
  const recolte = await db("recolte").where({ id: withHarvest!.idRecolte }).first();
  const caracs = await db("caracteristique_recolte").where({ idRecolte: withHarvest!.idRecolte });
  await db("action").where({ idCampagne, idParcelle: source }).del();
  const ids: number[] = [];
  for (let k = 0; k < n; k++) {
    const idAction = await insertId(db, "action", { ...bare(action), idParcelle: source });
    ids.push(idAction);
    for (const i of intrants) {
      const idIntrant = await insertId(db, "intrant", { ...bare(i), idAction });
      await insertId(db, "caracteristique_intrant", { idIntrant, n: k % 50, p2o5: 10 });
    }
    const idRecolte = await insertId(db, "recolte", { ...bare(recolte), idAction, idObservationSerie: null });
    for (const c of caracs) await insertId(db, "caracteristique_recolte", { ...bare(c), idRecolte });
  }
  return { idCampagne, source, targets: plots.slice(1, 3).map(Number), ids };
}

/**
 * A plot's interventions as a tree of rows (date order), without ids or timestamps: the inputs (seeds before their
 * treatments), each with its characteristics and target (its target rows), the harvests with their characteristics.
 * A reference to another copied row is the position of that row (a treatment's seed among its intervention's inputs).
 */
export async function tree(db: Db, idParcelle: number, idCampagne: number): Promise<Record<string, unknown>[]> {
  const strip = ({ id: _i, createdAt: _c, updatedAt: _u, ...rest }: Record<string, unknown>) => rest;
  const actions = await db("action")
    .where({ idParcelle, idCampagne })
    .orderBy([{ column: "date" }, { column: "id" }]);
  const out: Record<string, unknown>[] = [];
  for (const a of actions) {
    const intrants = await db("intrant").where({ idAction: a.id }).orderByRaw("CASE WHEN id_intrant_semence IS NULL THEN 0 ELSE 1 END, id");
    const position = new Map(intrants.map((i, k) => [Number(i.id), k]));
    const inputs = [];
    for (const i of intrants) {
      const carac = await db("caracteristique_intrant").where({ idIntrant: i.id }).first();
      const cible = await db("intrant_cible").where({ idIntrant: i.id }).first();
      const cibleCibles = cible ? await db("intrant_cible_cible").where({ idIntrantCible: cible.id }).orderBy("id") : [];
      const { idAction: _a, ...row } = strip(i);
      inputs.push({
        ...row,
        idIntrantSemence: i.idIntrantSemence == null ? null : (position.get(Number(i.idIntrantSemence)) ?? "outside"),
        caracteristique: carac ? (({ idIntrant: _x, ...c }) => c)(strip(carac)) : null,
        cible: cible
          ? { ...(({ idIntrant: _x, ...c }) => c)(strip(cible)), cibles: cibleCibles.map((cc) => (({ idIntrantCible: _x, ...c }) => c)(strip(cc))) }
          : null,
      });
    }
    const recoltes = [];
    for (const r of await db("recolte").where({ idAction: a.id }).orderBy("id")) {
      const caracs = await db("caracteristique_recolte").where({ idRecolte: r.id }).orderBy("id");
      const { idAction: _a, ...row } = strip(r);
      recoltes.push({ ...row, caracteristiques: caracs.map((c) => (({ idRecolte: _x, ...rest }) => rest)(strip(c))) });
    }
    out.push({ ...strip(a), intrants: inputs, recoltes });
  }
  return out;
}
