// The benches' large campaign (bench/calcul-serie.ts, bench/calcul-direct.ts): a new simulation campaign of EARL des
// Tilleuls whose plots, interventions, inputs, targets and harvests are copied, in batches, from the demo's 2025
// campaign, with its operations, modes and prices copied and remapped (the snapshot reads them by campaign), and the
// fertilisers' compositions (the pre-check then says "Avertissement" at most: the seeds' emission coefficients).
import type { Db } from "../server/db/knex";
import { createCampagne } from "../server/demo/factories";
import type { seedDemo } from "../server/demo/seed-demo";

const strip = (r: Record<string, unknown>) => {
  const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = r;
  return rest;
};

async function insertIds(db: Db, table: string, rows: Record<string, unknown>[]): Promise<number[]> {
  const ids: number[] = [];
  const lot = Math.max(1, Math.floor(2000 / Math.max(1, Object.keys(rows[0] ?? {}).length)));
  for (let k = 0; k < rows.length; k += lot) {
    const r = await db(table)
      .insert(rows.slice(k, k + lot))
      .returning("id");
    ids.push(...r.map((x) => (typeof x === "object" ? (x as { id: number }).id : (x as number))));
  }
  return ids;
}

export type CampagneBanc = {
  /** Number of plots. */
  parcelles: number;
  /** Interventions of the plot of that rank (0 is the first). */
  interventionsDe: (rang: number) => number;
  /** Inputs per intervention. */
  intrants: number;
};

/** Builds the campaign; every plot gets a harvest on its last intervention. */
export async function construireCampagneBanc(
  db: Db,
  ids: Awaited<ReturnType<typeof seedDemo>>,
  banc: CampagneBanc,
): Promise<{ idCampagne: number; idParcelles: number[] }> {
  const source = ids.campagnes.tilleuls2025;
  const idCampagne = await createCampagne(db, { idExploitation: ids.exploitations.tilleuls, anneeRecolte: 2025, apiLibelle: "Banc", simulation: true });
  const ops = await db("operation_culturale").where({ idCampagne: source }).orderBy("id");
  const opIds = await insertIds(
    db,
    "operation_culturale",
    ops.map((o) => ({ ...strip(o), idCampagne })),
  );
  const opMap = new Map(ops.map((o, i) => [o.id as number, opIds[i]]));
  const modes = await db("mode_conduite").where({ idCampagne: source }).orderBy("id");
  const modeIds = await insertIds(
    db,
    "mode_conduite",
    modes.map((m) => ({ ...strip(m), idCampagne })),
  );
  const modeMap = new Map(modes.map((m, i) => [m.id as number, modeIds[i]]));
  const mcc = await db("mode_conduite_culture").whereIn("idModeConduite", [...modeMap.keys()]);
  if (mcc.length)
    await insertIds(
      db,
      "mode_conduite_culture",
      mcc.map((r) => ({ ...strip(r), idModeConduite: modeMap.get(r.idModeConduite as number) })),
    );
  for (const table of ["prix_appro", "prix_vente"]) {
    const rows = await db(table).where({ idCampagne: source });
    if (rows.length)
      await insertIds(
        db,
        table,
        rows.map((r) => ({ ...strip(r), idCampagne })),
      );
  }
  const plots = await db("parcelle").where({ idCampagne: source }).orderBy("id");
  const actions = await db("action").where({ idCampagne: source }).whereNotNull("idOperationCulturale").orderBy("id");
  const inputs = await db("intrant")
    .whereIn(
      "idAction",
      actions.map((a) => a.id),
    )
    .whereNull("idIntrantSemence")
    .orderBy("id");
  const cibles = await db("intrant_cible").whereIn(
    "idIntrant",
    inputs.map((i) => i.id),
  );
  const cibleCibles = await db("intrant_cible_cible").whereIn(
    "idIntrantCible",
    cibles.map((c) => c.id),
  );
  const harvests = await db("recolte").whereIn(
    "idAction",
    actions.map((a) => a.id),
  );

  const plotIds = await insertIds(
    db,
    "parcelle",
    Array.from({ length: banc.parcelles }, (_, k) => {
      const p = plots[k % plots.length];
      return {
        ...strip(p),
        idCampagne,
        libelle: `Banc ${k + 1}`,
        idModeConduite: p.idModeConduite == null ? null : modeMap.get(p.idModeConduite as number),
        idLot: null,
        idPlotSource: null,
      };
    }),
  );
  let n = 0;
  const actionRows = plotIds.flatMap((idParcelle, k) =>
    Array.from({ length: banc.interventionsDe(k) }, () => {
      const a = actions[n++ % actions.length];
      return { ...strip(a), idCampagne, idParcelle, idOperationCulturale: opMap.get(a.idOperationCulturale as number) ?? null, realisee: true, prevue: true };
    }),
  );
  const actionIds = await insertIds(db, "action", actionRows);
  const per = banc.intrants;
  const inputSources = actionIds.flatMap((_, m) => Array.from({ length: per }, (_, j) => inputs[(m * per + j) % inputs.length]));
  const inputIds = await insertIds(
    db,
    "intrant",
    inputSources.map((x, m) => ({ ...strip(x), idAction: actionIds[Math.floor(m / per)], idIntrantSemence: null })),
  );
  // The fertilisers' composition (caracteristique_intrant): without it the pre-check refuses the campaign (issue 30).
  const compositions = await db("caracteristique_intrant").whereIn(
    "idIntrant",
    inputs.map((i) => i.id),
  );
  const compositionOf = new Map(compositions.map((c) => [c.idIntrant as number, c]));
  const avecComposition = inputSources.map((x, m) => ({ x, id: inputIds[m] })).filter((e) => compositionOf.has(e.x.id as number));
  if (avecComposition.length)
    await insertIds(
      db,
      "caracteristique_intrant",
      avecComposition.map((e) => ({ ...strip(compositionOf.get(e.x.id as number)!), idIntrant: e.id })),
    );
  const cibleOf = new Map(cibles.map((c) => [c.idIntrant as number, c]));
  const cc = cibleCibles.reduce(
    (m, r) => m.set(r.idIntrantCible as number, [...(m.get(r.idIntrantCible as number) ?? []), r]),
    new Map<number, Record<string, unknown>[]>(),
  );
  const withTargets = inputSources.map((x, m) => ({ x, id: inputIds[m] })).filter((e) => cibleOf.has(e.x.id as number));
  const newCibles = await insertIds(
    db,
    "intrant_cible",
    withTargets.map((e) => ({ ...strip(cibleOf.get(e.x.id as number)!), idIntrant: e.id })),
  );
  await insertIds(
    db,
    "intrant_cible_cible",
    withTargets.flatMap((e, k) =>
      (cc.get(cibleOf.get(e.x.id as number)!.id as number) ?? []).map((r: Record<string, unknown>) => ({ ...strip(r), idIntrantCible: newCibles[k] })),
    ),
  );
  if (harvests.length) {
    let end = 0;
    const last = plotIds.map((_, k) => (end += banc.interventionsDe(k)) - 1);
    await insertIds(
      db,
      "recolte",
      last.map((m, k) => ({ ...strip(harvests[k % harvests.length]), idAction: actionIds[m] })),
    );
  }
  return { idCampagne, idParcelles: plotIds };
}
