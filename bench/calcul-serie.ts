// Benchmark of a calculation series (issue 14): a 1,000-plot campaign (30,000 interventions, 90,000 inputs with their
// targets, a harvest per plot) calculated end to end by the series service (snapshot, pre-check complements, the
// engine plot by plot, every result row with its explanation stored in batches) against the bare read of the same
// rows (plots, interventions, inputs, targets, harvests: `select *`, nothing joined or computed). On SQLite, or on
// PostgreSQL with DATABASE_URL=postgres://... Prepares a fresh database (migrated, reference lists, demo data) and
// builds the campaign by copying the rows of EARL des Tilleuls 2025 (its plots, interventions, inputs, targets and
// harvests) into a new campaign of that farm. Markdown rows for docs/performance.md.
//
//   npx vite-node bench/calcul-serie.ts [-- --runs 3 --plots 1000]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCampagne } from "../server/demo/factories";
import { createDb, type Db } from "../server/db/knex";
import { migrateLatest } from "../server/db/migrate";
import { seedReference } from "../server/db/seed-reference";
import { seedDemo } from "../server/demo/seed-demo";
import { creerSerie, executerSerie } from "../server/calcul-serie/service";

const argv = process.argv.slice(2);
const arg = (name: string, d: number) => Number(argv[argv.indexOf(`--${name}`) + 1] || d) || d;
const runs = arg("runs", 3);
const PLOTS = arg("plots", 1000);
const PER_PLOT = 30;
const INPUTS = 3;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-bench-calcul-"));
const url = process.env.DATABASE_URL ?? `file:${path.join(dir, "bench.sqlite")}`;
const db = createDb(url);

const strip = (r: Record<string, unknown>) => {
  const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = r;
  return rest;
};
async function insertIds(trx: Db, table: string, rows: Record<string, unknown>[]): Promise<number[]> {
  const ids: number[] = [];
  const lot = Math.max(1, Math.floor(2000 / Math.max(1, Object.keys(rows[0] ?? {}).length)));
  for (let k = 0; k < rows.length; k += lot) {
    const r = await trx(table).insert(rows.slice(k, k + lot)).returning("id");
    ids.push(...r.map((x) => (typeof x === "object" ? (x as { id: number }).id : (x as number))));
  }
  return ids;
}

/** A new campaign of EARL des Tilleuls with PLOTS plots copied from 2025's, each with 30 interventions of 3 inputs. */
async function buildCampaign(ids: Awaited<ReturnType<typeof seedDemo>>): Promise<number> {
  const source = ids.campagnes.tilleuls2025;
  const idCampagne = await createCampagne(db, { idExploitation: ids.exploitations.tilleuls, anneeRecolte: 2025, apiLibelle: "Banc", simulation: true });
  // The description the interventions point at stays the source campaign's (operations, modes): the snapshot reads
  // operations by the campaign, so copy them and remap.
  const ops = await db("operation_culturale").where({ idCampagne: source }).orderBy("id");
  const opIds = await insertIds(db, "operation_culturale", ops.map((o) => ({ ...strip(o), idCampagne })));
  const opMap = new Map(ops.map((o, i) => [o.id as number, opIds[i]]));
  const modes = await db("mode_conduite").where({ idCampagne: source }).orderBy("id");
  const modeIds = await insertIds(db, "mode_conduite", modes.map((m) => ({ ...strip(m), idCampagne })));
  const modeMap = new Map(modes.map((m, i) => [m.id as number, modeIds[i]]));
  const mcc = await db("mode_conduite_culture").whereIn("idModeConduite", [...modeMap.keys()]);
  if (mcc.length) await insertIds(db, "mode_conduite_culture", mcc.map((r) => ({ ...strip(r), idModeConduite: modeMap.get(r.idModeConduite as number) })));
  for (const table of ["prix_appro", "prix_vente"]) {
    const rows = await db(table).where({ idCampagne: source });
    if (rows.length) await insertIds(db, table, rows.map((r) => ({ ...strip(r), idCampagne })));
  }
  const plots = await db("parcelle").where({ idCampagne: source }).orderBy("id");
  const actions = await db("action").where({ idCampagne: source }).whereNotNull("idOperationCulturale").orderBy("id");
  const inputs = await db("intrant").whereIn("idAction", actions.map((a) => a.id)).whereNull("idIntrantSemence").orderBy("id");
  const cibles = await db("intrant_cible").whereIn("idIntrant", inputs.map((i) => i.id));
  const cibleCibles = await db("intrant_cible_cible").whereIn("idIntrantCible", cibles.map((c) => c.id));
  const harvests = await db("recolte").whereIn("idAction", actions.map((a) => a.id));

  const plotIds = await insertIds(db, "parcelle", Array.from({ length: PLOTS }, (_, k) => {
    const p = plots[k % plots.length];
    return { ...strip(p), idCampagne, libelle: `Banc ${k + 1}`, idModeConduite: p.idModeConduite == null ? null : modeMap.get(p.idModeConduite as number), idLot: null, idPlotSource: null };
  }));
  const actionRows = plotIds.flatMap((idParcelle, k) => Array.from({ length: PER_PLOT }, (_, j) => {
    const a = actions[(k * PER_PLOT + j) % actions.length];
    return { ...strip(a), idCampagne, idParcelle, idOperationCulturale: opMap.get(a.idOperationCulturale as number) ?? null, realisee: true, prevue: true };
  }));
  const actionIds = await insertIds(db, "action", actionRows);
  const inputSources = actionIds.flatMap((_, n) => Array.from({ length: INPUTS }, (_, j) => inputs[(n * INPUTS + j) % inputs.length]));
  const inputIds = await insertIds(db, "intrant", inputSources.map((x, m) => ({ ...strip(x), idAction: actionIds[Math.floor(m / INPUTS)], idIntrantSemence: null })));
  const cibleOf = new Map(cibles.map((c) => [c.idIntrant as number, c]));
  const cc = cibleCibles.reduce((m, r) => m.set(r.idIntrantCible as number, [...(m.get(r.idIntrantCible as number) ?? []), r]), new Map<number, Record<string, unknown>[]>());
  const withTargets = inputSources.map((x, m) => ({ x, id: inputIds[m] })).filter((e) => cibleOf.has(e.x.id as number));
  const newCibles = await insertIds(db, "intrant_cible", withTargets.map((e) => ({ ...strip(cibleOf.get(e.x.id as number)!), idIntrant: e.id })));
  await insertIds(db, "intrant_cible_cible", withTargets.flatMap((e, k) => (cc.get(cibleOf.get(e.x.id as number)!.id as number) ?? []).map((r: Record<string, unknown>) => ({ ...strip(r), idIntrantCible: newCibles[k] }))));
  if (harvests.length) await insertIds(db, "recolte", plotIds.map((_, k) => ({ ...strip(harvests[k % harvests.length]), idAction: actionIds[k * PER_PLOT + PER_PLOT - 1] })));
  return idCampagne;
}

async function bareRead(idCampagne: number): Promise<number> {
  const plots = await db("parcelle").where({ idCampagne }).select("*");
  const actions = await db("action").where({ idCampagne }).select("*");
  const inputs = await db("intrant as i").join("action as a", "a.id", "i.idAction").where("a.idCampagne", idCampagne).select("i.*");
  const targets = await db("intrant_cible_cible as cc").join("intrant_cible as ic", "ic.id", "cc.idIntrantCible").join("intrant as i", "i.id", "ic.idIntrant").join("action as a", "a.id", "i.idAction").where("a.idCampagne", idCampagne).select("cc.*");
  const harvests = await db("recolte as r").join("action as a", "a.id", "r.idAction").where("a.idCampagne", idCampagne).select("r.*");
  return plots.length + actions.length + inputs.length + targets.length + harvests.length;
}

try {
  await migrateLatest(db);
  await seedReference(db);
  const ids = await seedDemo(db);
  const built = performance.now();
  const idCampagne = await buildCampaign(ids);
  const counts = {
    parcelles: Number((await db("parcelle").where({ idCampagne }).count({ n: "*" }))[0].n),
    interventions: Number((await db("action").where({ idCampagne }).count({ n: "*" }))[0].n),
    intrants: Number((await db("intrant as i").join("action as a", "a.id", "i.idAction").where("a.idCampagne", idCampagne).count({ n: "*" }))[0].n),
  };
  console.error(`campaign built in ${((performance.now() - built) / 1000).toFixed(1)} s:`, counts);
  const bare: number[] = [];
  const full: number[] = [];
  const bareCpu: number[] = [];
  const fullCpu: number[] = [];
  const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
  let rows = 0;
  let stored = 0;
  let json = 0;
  const phases: Record<string, number> = {};
  for (let run = 0; run < runs + 1; run++) {
    let t = performance.now();
    let c = process.cpuUsage();
    rows = await bareRead(idCampagne);
    const b = performance.now() - t;
    const bc = cpuMs(process.cpuUsage(c));
    const ph: Record<string, number> = {};
    t = performance.now();
    c = process.cpuUsage();
    const id = await creerSerie(db, idCampagne, null); // deletes the previous run's series and its rows
    ph.creation = performance.now() - t;
    ph["creation.cpu"] = cpuMs(process.cpuUsage(c));
    await executerSerie(db, id, undefined, ph);
    const f = performance.now() - t;
    const fc = cpuMs(process.cpuUsage(c));
    const s = await db("calcul_serie").where({ id }).first("statut", "erreur", "nbParcellesTraiteesReussies");
    if (s.statut !== "termine") throw new Error(`series failed: ${s.erreur}`);
    stored = Number((await db("calcul_resultat").where({ idCalculSerie: id }).count({ n: "*" }))[0].n);
    json = Number((await db("calcul_resultat").where({ idCalculSerie: id }).sum({ n: db.raw("length(explication)") }))[0].n);
    if (run >= 1) { // one warm-up run
      bare.push(b); full.push(f); bareCpu.push(bc); fullCpu.push(fc);
      for (const [k, v] of Object.entries(ph)) phases[k] = (phases[k] ?? 0) + v / runs;
    }
    console.error(`run ${run}: bare read ${b.toFixed(0)} ms (cpu ${bc.toFixed(0)}), series ${f.toFixed(0)} ms (cpu ${fc.toFixed(0)}), ${s.nbParcellesTraiteesReussies} plots, ${stored} result rows, ${(json / 1e6).toFixed(1)} MB of explanation JSON; ` +
      Object.entries(ph).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", "));
  }
  const med = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor((x.length - 1) / 2)];
  const dialect = url.startsWith("postgres") ? "PostgreSQL" : "SQLite";
  console.error(`mean phases (wall ms): ${Object.entries(phases).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ")}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  console.log(`| calculation series, ${counts.parcelles} plots, ${counts.interventions} interventions, ${counts.intrants} inputs (${dialect}) | ${full.length} | bare read ${med(bare).toFixed(0)} ms, cpu ${med(bareCpu).toFixed(0)} ms (${rows} rows) | series ${med(full).toFixed(0)} ms, cpu ${med(fullCpu).toFixed(0)} ms (${stored} result rows, ${(json / 1e6).toFixed(1)} MB JSON) | wall ${(med(full) / med(bare)).toFixed(1)}×, cpu ${(med(fullCpu) / med(bareCpu)).toFixed(1)}× |`);
} finally {
  await db.destroy();
  if (argv.includes("--keep")) console.error(`database kept: ${url}`);
  else fs.rmSync(dir, { recursive: true, force: true });
}
