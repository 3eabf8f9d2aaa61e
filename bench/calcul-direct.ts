// Benchmark of the live plot recompute (issue 14, "live plot recompute after a save <= 100 ms"): the time from an
// intervention save by the grid's service (`saveInterventionsGrid`, one changed row: its frequency) to the plot's
// indicators returned by `getIndicateursParcelle` (server/calcul/service.ts, what the interventions screen's loader
// runs at once after the save), against the bare read of that plot's rows (the plot, its interventions, inputs,
// targets and harvests: `select *`, nothing joined beyond the plot's scope, nothing computed) measured in the same
// loop. Wall time and the process's CPU time (process.cpuUsage, user + system) of each step.
//
// Two plots: the demo-sized one (the plot of EARL des Tilleuls 2025 with the most interventions) and a large one
// (60 interventions, 180 inputs, in a campaign of 300 plots of 30 interventions and 90 inputs each, built by copying
// the rows of EARL des Tilleuls 2025 like bench/calcul-serie.ts). On SQLite, or on PostgreSQL with
// DATABASE_URL=postgres://... (an empty database: it is migrated and seeded). Markdown rows for docs/performance.md.
//
//   npx vite-node bench/calcul-direct.ts [-- --runs 50 --plots 300]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getIndicateursParcelle } from "../server/calcul/service";
import { selectInContext } from "../server/contexte/service";
import { createDb } from "../server/db/knex";
import { construireCampagneBanc } from "./campagne-banc";
import { migrateLatest } from "../server/db/migrate";
import { seedReference } from "../server/db/seed-reference";
import { seedDemo } from "../server/demo/seed-demo";
import { getInterventions, saveInterventionsGrid } from "../server/intervention/service";
import { findUtilisateurByUsername, toPublic, type Utilisateur } from "../server/utilisateur/repo";
import { requestScope } from "../server/access/scope";

const argv = process.argv.slice(2);
const arg = (name: string, d: number) => Number(argv[argv.indexOf(`--${name}`) + 1] || d) || d;
const runs = arg("runs", 50);
const PLOTS = arg("plots", 300);
const PER_PLOT = 30;
const BIG_PLOT = 60;
const INPUTS = 3;
const WARMUP = 3;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-bench-direct-"));
const url = process.env.DATABASE_URL ?? `file:${path.join(dir, "bench.sqlite")}`;
const dialect = url.startsWith("postgres") ? "PostgreSQL" : "SQLite";
const db = createDb(url);

/** The bare read of one plot's rows: the plot, its interventions, their inputs, targets and harvests. */
async function bareRead(idParcelle: number): Promise<number> {
  const plots = await db("parcelle").where({ id: idParcelle }).select("*");
  const actions = await db("action").where({ idParcelle }).select("*");
  const inputs = await db("intrant as i").join("action as a", "a.id", "i.idAction").where("a.idParcelle", idParcelle).select("i.*");
  const targets = await db("intrant_cible_cible as cc")
    .join("intrant_cible as ic", "ic.id", "cc.idIntrantCible")
    .join("intrant as i", "i.id", "ic.idIntrant")
    .join("action as a", "a.id", "i.idAction")
    .where("a.idParcelle", idParcelle)
    .select("cc.*");
  const harvests = await db("recolte as r").join("action as a", "a.id", "r.idAction").where("a.idParcelle", idParcelle).select("r.*");
  return plots.length + actions.length + inputs.length + targets.length + harvests.length;
}

async function selectCampaign(user: Utilisateur, ids: Awaited<ReturnType<typeof seedDemo>>, idCampagne: number) {
  await selectInContext(db, user, { intent: "oad", id: ids.oads.reseauDemo });
  await selectInContext(db, user, { intent: "dossier", id: ids.dossiers.beauce });
  await selectInContext(db, user, { intent: "exploitations", ids: [ids.exploitations.tilleuls] });
  await selectInContext(db, user, { intent: "campagne", id: idCampagne });
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const at = (x: number[], p: number) => {
  const s = [...x].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** `runs` saves of one intervention of the plot, each followed by the plot's indicators; the bare read beside. */
async function measure(user: Utilisateur, idParcelle: number, label: string) {
  const counts = {
    interventions: Number((await db("action").where({ idParcelle }).count({ n: "*" }))[0].n),
    intrants: Number((await db("intrant as i").join("action as a", "a.id", "i.idAction").where("a.idParcelle", idParcelle).count({ n: "*" }))[0].n),
    parcellesCampagne: Number(
      (
        await db("parcelle")
          .where({ idCampagne: (await db("parcelle").where({ id: idParcelle }).first("idCampagne")).idCampagne })
          .count({ n: "*" })
      )[0].n,
    ),
  };
  const target = await db("action").where({ idParcelle }).whereNotNull("idOperationCulturale").orderBy("id").first();
  const m = { bare: [] as number[], bareCpu: [] as number[], save: [] as number[], ind: [] as number[], total: [] as number[], totalCpu: [] as number[] };
  let rows = 0;
  let last = 0;
  for (let run = 0; run < runs + WARMUP; run++) {
    const row = (await getInterventions(requestScope(db, user), { parcelleIds: [idParcelle] })).rows.find((r) => r.id === target.id)!;
    const patch = {
      id: row.id,
      updatedAt: row.updatedAt,
      values: {
        idParcelle,
        date: String(row.date).slice(0, 10),
        idOperationCulturale: row.idOperationCulturale,
        idCultureConcernee: row.idCultureConcernee,
        debit: row.debit,
        frequence: String(1 + (run % 3)),
        tauxSurface: row.tauxSurface ?? 1,
        realisee: true,
        prevue: true,
      },
    };
    let c = cpu();
    let t = performance.now();
    rows = await bareRead(idParcelle);
    const bare = performance.now() - t;
    const bareCpu = cpu() - c;
    c = cpu();
    t = performance.now();
    const { saved } = await saveInterventionsGrid(requestScope(db, user), [patch]);
    const t1 = performance.now();
    const res = await getIndicateursParcelle(requestScope(db, user), idParcelle);
    const t2 = performance.now();
    const totalCpu = cpu() - c;
    if (saved.length !== 1 || res.idParcelle !== idParcelle) throw new Error("save or recompute failed");
    last = res.indicateurs.find((i) => i.code === "ift.cible.total")?.valeur ?? 0;
    if (run < WARMUP) continue;
    m.bare.push(bare);
    m.bareCpu.push(bareCpu);
    m.save.push(t1 - t);
    m.ind.push(t2 - t1);
    m.total.push(t2 - t);
    m.totalCpu.push(totalCpu);
  }
  const f = (x: number[]) => `${at(x, 50).toFixed(1)} / ${at(x, 95).toFixed(1)}`;
  console.error(`${label}: ${counts.interventions} interventions, ${counts.intrants} inputs, ${rows} bare rows, last IFT ${last.toFixed(2)}`);
  console.log(
    `| ${label}: ${counts.interventions} interventions, ${counts.intrants} inputs, campaign of ${counts.parcellesCampagne} plots (${dialect}) | ${m.total.length} ` +
      `| ${f(m.bare)} (CPU ${at(m.bareCpu, 50).toFixed(1)}) | ${f(m.save)} | ${f(m.ind)} | **${f(m.total)}** | ${at(m.totalCpu, 50).toFixed(1)} / ${at(m.totalCpu, 95).toFixed(1)} | ${(at(m.total, 50) / at(m.bare, 50)).toFixed(1)}× |`,
  );
}

try {
  await migrateLatest(db);
  await seedReference(db);
  const ids = await seedDemo(db);
  const user = toPublic((await findUtilisateurByUsername(db, "redacteur"))!);
  const built = performance.now();
  const banc = await construireCampagneBanc(db, ids, { parcelles: PLOTS, interventionsDe: (k) => (k === 0 ? BIG_PLOT : PER_PLOT), intrants: INPUTS });
  const big = { idCampagne: banc.idCampagne, idParcelle: banc.idParcelles[0]! };
  console.error(`campaign built in ${((performance.now() - built) / 1000).toFixed(1)} s`);
  // The demo-sized plot: the demo campaign's plot with the most interventions.
  const demo = await db("action")
    .where({ idCampagne: ids.campagnes.tilleuls2025 })
    .groupBy("idParcelle")
    .orderBy([{ column: "n", order: "desc" }, { column: "idParcelle" }])
    .first("idParcelle", db.raw("count(*) as n"));
  console.log(
    "| plot | runs | bare read of the plot's rows, median / p95 ms | save (grid, one row) | getIndicateursParcelle | save → indicators | its CPU ms, median / p95 | ÷ bare |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  await selectCampaign(user, ids, ids.campagnes.tilleuls2025);
  await measure(user, Number(demo.idParcelle), "demo plot (EARL des Tilleuls 2025)");
  await selectCampaign(user, ids, big.idCampagne);
  await measure(user, big.idParcelle, "large plot");
} finally {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
