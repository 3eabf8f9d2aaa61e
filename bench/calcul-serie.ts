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
import { createDb } from "../server/db/knex";
import { construireCampagneBanc } from "./campagne-banc";
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

async function bareRead(idCampagne: number): Promise<number> {
  const plots = await db("parcelle").where({ idCampagne }).select("*");
  const actions = await db("action").where({ idCampagne }).select("*");
  const inputs = await db("intrant as i").join("action as a", "a.id", "i.idAction").where("a.idCampagne", idCampagne).select("i.*");
  const targets = await db("intrant_cible_cible as cc")
    .join("intrant_cible as ic", "ic.id", "cc.idIntrantCible")
    .join("intrant as i", "i.id", "ic.idIntrant")
    .join("action as a", "a.id", "i.idAction")
    .where("a.idCampagne", idCampagne)
    .select("cc.*");
  const harvests = await db("recolte as r").join("action as a", "a.id", "r.idAction").where("a.idCampagne", idCampagne).select("r.*");
  return plots.length + actions.length + inputs.length + targets.length + harvests.length;
}

try {
  await migrateLatest(db);
  await seedReference(db);
  const ids = await seedDemo(db);
  const built = performance.now();
  const { idCampagne } = await construireCampagneBanc(db, ids, { parcelles: PLOTS, interventionsDe: () => PER_PLOT, intrants: INPUTS });
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
    json = Number(
      (
        await db("calcul_resultat")
          .where({ idCalculSerie: id })
          .sum({ n: db.raw("length(explication)") })
      )[0].n,
    );
    if (run >= 1) {
      // one warm-up run
      bare.push(b);
      full.push(f);
      bareCpu.push(bc);
      fullCpu.push(fc);
      for (const [k, v] of Object.entries(ph)) phases[k] = (phases[k] ?? 0) + v / runs;
    }
    console.error(
      `run ${run}: bare read ${b.toFixed(0)} ms (cpu ${bc.toFixed(0)}), series ${f.toFixed(0)} ms (cpu ${fc.toFixed(0)}), ${s.nbParcellesTraiteesReussies} plots, ${stored} result rows, ${(json / 1e6).toFixed(1)} MB of explanation JSON; ` +
        Object.entries(ph)
          .map(([k, v]) => `${k} ${v.toFixed(0)}`)
          .join(", "),
    );
  }
  const med = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor((x.length - 1) / 2)];
  const dialect = url.startsWith("postgres") ? "PostgreSQL" : "SQLite";
  console.error(
    `mean phases (wall ms): ${Object.entries(phases)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(", ")}; load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  console.log(
    `| calculation series, ${counts.parcelles} plots, ${counts.interventions} interventions, ${counts.intrants} inputs (${dialect}) | ${full.length} | bare read ${med(bare).toFixed(0)} ms, cpu ${med(bareCpu).toFixed(0)} ms (${rows} rows) | series ${med(full).toFixed(0)} ms, cpu ${med(fullCpu).toFixed(0)} ms (${stored} result rows, ${(json / 1e6).toFixed(1)} MB JSON) | wall ${(med(full) / med(bare)).toFixed(1)}×, cpu ${(med(fullCpu) / med(bareCpu)).toFixed(1)}× |`,
  );
} finally {
  await db.destroy();
  if (argv.includes("--keep")) console.error(`database kept: ${url}`);
  else fs.rmSync(dir, { recursive: true, force: true });
}
