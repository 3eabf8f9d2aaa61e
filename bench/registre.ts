// Benchmark of the plant-protection register and its checks (issue 28, decisions 0104, 0105) as the adviser waits for
// it, on a folder of 20 farms x 300 plots: (1) the folder view (the farms by register status, `statutsDuDossier`);
// (2) one farm's register of its 2025 campaign with its checks (`registreExploitation`); (3) the folder's archive (one
// CSV per farm, `archiveDuDossier`). Each call is a request of its own (a fresh request scope), as the screens ask it.
// Data: a fresh database (migrated, reference lists, demo data), then a new folder "Banc registre" in Réseau démo
// (the demo user `animateur` animates it) with `--farms` farms, each with a 2025 campaign of `--plots` plots (wheat,
// oilseed rape, spring barley, sugar beet in turn, the demo's management modes copied); every plot has 3 to 6 phyto
// inputs on 2 or 3 sprayings of products of the E-Phy catalogue (intrant_phyto) with uses (usage_phyto: the demo's
// and illustrative ones added here, identifiers BANC…), a target each, and two plots in three a harvest; some doses
// above the use's, some uses not authorised, some harvests inside the pre-harvest interval, some plots without PAC
// block nor geometry. Written set-based (batch inserts). Goal (issue 28): each ≤ 2 s.
// On SQLite (in a temporary folder), or on PostgreSQL with DATABASE_URL=postgres://... (an empty scratch database:
// it is migrated and seeded). Writes only under a temporary folder. Markdown rows for docs/performance.md on stdout.
//
//   npx vite-node bench/registre.ts [-- --runs 7 --farms 20 --plots 300 --statements]
//
// --statements: after the runs, the SQL statements of one folder view grouped by their text (count, total ms).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { requestScope } from "../server/access/scope";
import { selectInContext } from "../server/contexte/service";
import { createDb, type Db } from "../server/db/knex";
import { migrateLatest } from "../server/db/migrate";
import { seedReference } from "../server/db/seed-reference";
import { createCampagne, createDossier, createExploitation, grantFolder, linkFarm } from "../server/demo/factories";
import { seedDemo } from "../server/demo/seed-demo";
import { archiveDuDossier, registreExploitation, statutsDuDossier } from "../server/registre/service";
import { unzip } from "../server/referentiel-intrants/csv";
import { findUtilisateurByUsername, toPublic } from "../server/utilisateur/repo";

const argv = process.argv.slice(2);
const arg = (name: string, d: number) => Number(argv[argv.indexOf(`--${name}`) + 1] || d) || d;
const runs = arg("runs", 7);
const FARMS = arg("farms", 20);
const PLOTS = arg("plots", 300);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-bench-registre-"));
const url = process.env.DATABASE_URL ?? `file:${path.join(dir, "bench.sqlite")}`;
const dialect = url.startsWith("postgres") ? "PostgreSQL" : "SQLite";
const db = createDb(url);

const strip = (r: Record<string, unknown>) => {
  const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = r;
  return rest;
};

/** Batch inserts (at most ~2,000 bound values and 400 rows a statement); the new ids in order. */
async function insertIds(table: string, rows: Record<string, unknown>[]): Promise<number[]> {
  const ids: number[] = [];
  if (!rows.length) return ids;
  const lot = Math.min(400, Math.max(1, Math.floor(2000 / Object.keys(rows[0]).length))); // SQLite: at most 500 rows a compound insert
  for (let k = 0; k < rows.length; k += lot) {
    const r = await db(table)
      .insert(rows.slice(k, k + lot))
      .returning("id");
    ids.push(...r.map((x) => Number(typeof x === "object" ? (x as { id: number }).id : x)));
  }
  return ids;
}

/** The bench's crops: the crop, its E-Phy crop label (culture_ift), its spraying dates and harvest date in 2025. */
const CROPS = [
  { idCulture: 1, label: "Blé", sprays: ["03-12", "04-08", "05-06"], harvest: "07-18" },
  { idCulture: 14, label: "Crucifères oléagineuses", sprays: ["02-25", "03-20", "05-30"], harvest: "07-08" },
  { idCulture: 5, label: "Orge", sprays: ["04-02", "05-10", "06-12"], harvest: "07-12" },
  { idCulture: 25, label: "Betterave industrielle et fourragère", sprays: ["04-25", "05-20", "07-15"], harvest: "10-10" },
];

type Product = { idProduit: number; nomProduit: string; ammProduit: string; idCategorie: number; crops: number[]; dose: number };

/** The folder, its farms and their campaigns, written set-based; what the runs ask. */
async function build(ids: Awaited<ReturnType<typeof seedDemo>>) {
  const animateur = toPublic((await findUtilisateurByUsername(db, "animateur"))!);
  const source = ids.campagnes.tilleuls2025;

  // Products of the catalogue with uses: the demo's three, and 27 more given illustrative uses on two crops each.
  const demoUses = await db("usage_phyto as u").join("intrant_phyto as p", "p.id", "u.idIntrantPhyto").distinct("p.id");
  const demoIds = new Set(demoUses.map((r) => Number(r.id)));
  const catalogue = await db("intrant_phyto")
    .where({ idSource: 1 })
    .whereNotNull("ammProduit")
    .orderBy("id")
    .select("id", "idProduit", "nomProduit", "ammProduit", "retire", "dateRetrait");
  const withUses = [
    ...catalogue.filter((p) => demoIds.has(Number(p.id))),
    ...catalogue.filter((p) => !demoIds.has(Number(p.id)) && !p.retire && p.dateRetrait == null).slice(0, 27),
  ];
  const categories = [5391, 5392, 5393, 5396];
  const products: Product[] = withUses.map((p, i) => ({
    idProduit: Number(p.idProduit),
    nomProduit: String(p.nomProduit),
    ammProduit: String(p.ammProduit),
    idCategorie: categories[i % categories.length],
    crops: [i % CROPS.length, (i + 1) % CROPS.length],
    dose: [0.5, 1, 1.5, 2, 0.25][i % 5],
  }));
  const newUses = products
    .filter((p) => !demoIds.has(p.idProduit))
    .flatMap((p, i) =>
      p.crops.map((c, j) => ({
        idIntrantPhyto: p.idProduit,
        identifiantUsage: `BANC${String(i * 2 + j + 1).padStart(4, "0")}`,
        libelleUsage: `${CROPS[c].label}*Trt Part.Aer.*Usage du banc`,
        cultureUsage: CROPS[c].label,
        traitementUsage: "Trt Part.Aer.",
        cibleUsage: "Usage du banc",
        doseRetenue: p.dose,
        uniteDose: "L/ha",
        etatUsage: "Autorisé",
        delaiAvantRecolte: [3, 21, 35, 60][i % 4],
        nombreMaxApplication: 1 + (i % 3),
      })),
    );
  await insertIds("usage_phyto", newUses);
  const byCrop = CROPS.map((_, c) => products.filter((p) => p.crops.includes(c)));
  const cibles = (await db("cible").orderBy("id").limit(40).pluck("id")).map(Number);

  // Templates: the demo's 2025 management modes, a spraying and a harvest with their operations.
  const modes = await db("mode_conduite").where({ idCampagne: source }).orderBy("id");
  const mcc = await db("mode_conduite_culture").whereIn(
    "idModeConduite",
    modes.map((m) => m.id),
  );
  const templatePlots = await db("parcelle").where({ idCampagne: source }).orderBy("id");
  const withGeometry = templatePlots.find((p) => p.geometrie != null)!;
  const spray = await db("action").where({ idCampagne: source, dicIdTypeAction: 11 }).orderBy("id").first();
  const harvestRow = await db("recolte as r").join("action as a", "a.id", "r.idAction").where("a.idCampagne", source).first("r.*");
  const harvest = await db("action").where({ id: harvestRow.idAction }).first();
  const inputTemplate = await db("intrant").where({ idAction: spray.id }).first();
  const ops = await db("operation_culturale").whereIn("id", [spray.idOperationCulturale, harvest.idOperationCulturale]);

  const idOad = ids.oads.reseauDemo;
  const idDossier = await createDossier(db, { libelle: "Banc registre", idOad });
  await grantFolder(db, animateur.id, idDossier, "animation", { ordre: 9 });
  const farms: { idExploitation: number; idCampagne: number }[] = [];
  for (let f = 0; f < FARMS; f++) {
    const idExploitation = await createExploitation(db, { libelle: `Ferme du banc ${String(f + 1).padStart(2, "0")}` });
    await db("exploitation")
      .where({ id: idExploitation })
      .update({ siret: `9${String(f + 1).padStart(13, "0")}` });
    await linkFarm(db, idDossier, idExploitation, "ecriture");
    const idCampagne = await createCampagne(db, { idExploitation, anneeRecolte: 2025 });
    farms.push({ idExploitation, idCampagne });
    const opIds = await insertIds(
      "operation_culturale",
      ops.map((o) => ({ ...strip(o), idCampagne })),
    );
    const opOf = new Map(ops.map((o, i) => [Number(o.id), opIds[i]]));
    const modeIds = await insertIds(
      "mode_conduite",
      modes.map((m) => ({ ...strip(m), idCampagne })),
    );
    const modeOf = new Map(modes.map((m, i) => [Number(m.id), modeIds[i]]));
    await insertIds(
      "mode_conduite_culture",
      mcc.map((r) => ({ ...strip(r), idModeConduite: modeOf.get(Number(r.idModeConduite)) })),
    );
    // The mode of each crop: the demo's mode whose first crop it is, else the first mode.
    const modeOfCrop = CROPS.map((c) => {
      const m = mcc.filter((r) => Number(r.idCulture) === c.idCulture).sort((a, b) => Number(a.ordre) - Number(b.ordre))[0];
      return modeOf.get(Number(m?.idModeConduite ?? modes[0].id)) ?? null;
    });
    const plotIds = await insertIds(
      "parcelle",
      Array.from({ length: PLOTS }, (_, k) => {
        const t = templatePlots[k % templatePlots.length];
        // One plot in ten has no PAC block: half of those have a geometry (its centroid), half nothing (a missing field).
        const noBlock = k % 10 === 9;
        return {
          ...strip(t),
          idCampagne,
          libelle: `Parcelle ${String(k + 1).padStart(3, "0")}`,
          surface: 3 + ((k * 37) % 180) / 10,
          noIlotPac: noBlock ? null : String(1 + (k % 60)),
          geometrie: noBlock && k % 20 === 9 ? withGeometry.geometrie : t.geometrie,
          idModeConduite: modeOfCrop[k % CROPS.length],
          idLot: null,
          idPlotSource: null,
        };
      }),
    );
    // Sprayings: 3 to 6 inputs per plot, two per spraying (the last one alone when odd).
    type Input = { k: number; a: number; p: Product; dose: number };
    const actionRows: Record<string, unknown>[] = [];
    const inputs: Input[] = [];
    const harvests: { m: number; idCulture: number }[] = [];
    plotIds.forEach((idParcelle, k) => {
      const crop = CROPS[k % CROPS.length];
      const n = 3 + ((k * 7 + f) % 4);
      for (let j = 0; j < n; j++) {
        if (j % 2 === 0)
          actionRows.push({
            ...strip(spray),
            idCampagne,
            idParcelle,
            idOperationCulturale: opOf.get(Number(spray.idOperationCulturale)),
            idCultureConcernee: crop.idCulture,
            date: `2025-${crop.sprays[j / 2]}`,
            precisionStade: null,
            siretPrestataire: k % 8 === 0 ? "12345678900011" : null,
            realisee: true,
            prevue: false,
          });
        // One input in 23 is a product without a use on that crop (not authorised); one in 13 above the use's dose; the
        // fourth input repeats the first product (a second application).
        const list = (k + j) % 23 === 0 ? products : byCrop[k % CROPS.length];
        const p = list[(k * 3 + (j % 3)) % list.length];
        inputs.push({ k, a: actionRows.length - 1, p, dose: p.dose * ((k + j) % 13 === 0 ? 1.25 : 0.8) });
      }
      if (k % 3 !== 2) {
        harvests.push({ m: actionRows.length, idCulture: crop.idCulture });
        actionRows.push({
          ...strip(harvest),
          idCampagne,
          idParcelle,
          idOperationCulturale: opOf.get(Number(harvest.idOperationCulturale)),
          idCultureConcernee: crop.idCulture,
          date: `2025-${crop.harvest}`,
          realisee: true,
          prevue: false,
        });
      }
    });
    const actionIds = await insertIds("action", actionRows);
    const inputIds = await insertIds(
      "intrant",
      inputs.map((x) => ({
        ...strip(inputTemplate),
        idAction: actionIds[x.a],
        idCategorie: x.p.idCategorie,
        idIntrant: x.p.idProduit,
        libelleIntrant: x.p.nomProduit,
        codeIntrant: x.p.ammProduit,
        quantite: Number(x.dose.toFixed(4)),
        dicLlUnite: "l/ha",
        idIntrantSemence: null,
      })),
    );
    const targetIds = await insertIds(
      "intrant_cible",
      inputIds.map((idIntrant) => ({ idIntrant })),
    );
    await insertIds(
      "intrant_cible_cible",
      targetIds.map((idIntrantCible, m) => ({ idIntrantCible, idCible: cibles[m % cibles.length], rang: 1 })),
    );
    await insertIds(
      "recolte",
      harvests.map((h) => ({ ...strip(harvestRow), idAction: actionIds[h.m], idCulture: h.idCulture, idObservationSerie: null })),
    );
  }
  if (dialect === "PostgreSQL") await db.raw("ANALYZE");
  await selectInContext(db, animateur, { intent: "oad", id: idOad });
  await selectInContext(db, animateur, { intent: "dossier", id: idDossier });
  await selectInContext(db, animateur, { intent: "exploitations", ids: [farms[0].idExploitation] });
  await selectInContext(db, animateur, { intent: "campagne", id: farms[0].idCampagne });
  return { animateur, idDossier, farms };
}

const quantile = (x: number[], q: number) => [...x].sort((a, b) => a - b)[Math.min(x.length - 1, Math.ceil(q * x.length) - 1)] ?? NaN;

try {
  await migrateLatest(db);
  await seedReference(db);
  const ids = await seedDemo(db);
  const t0 = performance.now();
  const { animateur, idDossier, farms } = await build(ids);
  const count = async (q: ReturnType<Db>) => Number((await q.count<{ n: number | string }[]>({ n: "*" }).first())?.n ?? 0);
  const campagnes = farms.map((f) => f.idCampagne);
  const counts = {
    plots: await count(db("parcelle").whereIn("idCampagne", campagnes)),
    sprayings: await count(db("action").whereIn("idCampagne", campagnes).where({ dicIdTypeAction: 11 })),
    inputs: await count(db("intrant as i").join("action as a", "a.id", "i.idAction").whereIn("a.idCampagne", campagnes)),
    harvests: await count(db("recolte as r").join("action as a", "a.id", "r.idAction").whereIn("a.idCampagne", campagnes)),
  };
  console.error(`folder built in ${((performance.now() - t0) / 1000).toFixed(1)} s:`, counts);

  const cpu = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
  const measures = {
    vue: { label: `folder view (statutsDuDossier), ${FARMS} farms`, ms: [] as number[], cpu: [] as number[] },
    ferme: { label: `one farm's register and checks (registreExploitation), ${PLOTS} plots`, ms: [] as number[], cpu: [] as number[] },
    archive: { label: `folder archive (archiveDuDossier), ${FARMS} CSV files`, ms: [] as number[], cpu: [] as number[] },
  };
  const one = { idDossier, idExploitation: farms[0].idExploitation, idCampagne: farms[0].idCampagne };
  let facts = "";
  for (let run = 0; run <= runs; run++) {
    const last: string[] = [];
    const time = async <T>(key: keyof typeof measures, call: () => Promise<T>): Promise<T> => {
      const c = process.cpuUsage();
      const t = performance.now();
      const r = await call();
      last.push(`${(performance.now() - t).toFixed(0)} ms`);
      if (run > 0) {
        measures[key].ms.push(performance.now() - t);
        measures[key].cpu.push(cpu(process.cpuUsage(c)));
      }
      return r;
    };
    const vue = await time("vue", () => statutsDuDossier(requestScope(db, animateur)));
    const reg = await time("ferme", () => registreExploitation(requestScope(db, animateur), one));
    const arch = await time("archive", () => archiveDuDossier(requestScope(db, animateur)));
    if (run === 0) {
      const files = unzip(arch.zip);
      const parRegle = new Map<string, number>();
      for (const c of reg.constats) parRegle.set(c.regle, (parRegle.get(c.regle) ?? 0) + 1);
      facts = `${vue.exploitations.length} farms (${vue.exploitations.reduce((s, e) => s + e.lignes, 0)} lines, statuses ${[...new Set(vue.exploitations.map((e) => e.statut))].join(", ")}); one farm: ${reg.lignes.length} lines, ${reg.constats.length} findings (${[...parRegle].map(([k, v]) => `${k} ${v}`).join(", ")}); archive ${Math.round(arch.zip.length / 1024)} kB, ${files.size} files`;
      console.error(facts);
      if (vue.exploitations.length !== FARMS || [...files.keys()].filter((n) => n.endsWith(".csv")).length !== FARMS)
        throw new Error("the folder view or its archive does not hold every farm");
    }
    console.error(`run ${run}${run === 0 ? " (warm-up)" : ""}: ${last.join(", ")}`);
  }

  if (argv.includes("--statements")) {
    const started = new Map<string, number>();
    const bySql = new Map<string, { n: number; ms: number }>();
    db.on("query", (q: { __knexQueryUid: string }) => started.set(q.__knexQueryUid, performance.now()));
    db.on("query-response", (_r: unknown, q: { __knexQueryUid: string; sql: string }) => {
      const key = q.sql.replace(/(\?|\$\d+)(, ?(\?|\$\d+))+/g, "…").slice(0, 160);
      const s = bySql.get(key) ?? { n: 0, ms: 0 };
      s.n++;
      s.ms += performance.now() - (started.get(q.__knexQueryUid) ?? performance.now());
      bySql.set(key, s);
    });
    const t = performance.now();
    await statutsDuDossier(requestScope(db, animateur));
    const total = performance.now() - t;
    const sql = [...bySql].sort((a, b) => b[1].ms - a[1].ms);
    console.error(
      `\none folder view: ${total.toFixed(0)} ms, ${sql.reduce((s, [, v]) => s + v.n, 0)} statements, ${sql.reduce((s, [, v]) => s + v.ms, 0).toFixed(0)} ms in them`,
    );
    for (const [k, v] of sql.slice(0, 12)) console.error(`${String(v.n).padStart(5)} × ${v.ms.toFixed(0).padStart(6)} ms  ${k}`);
  }

  console.log(`\n${dialect}; ${counts.plots} plots, ${counts.sprayings} sprayings, ${counts.inputs} phyto inputs, ${counts.harvests} harvests; ${facts}`);
  console.log(
    `load average ${os.loadavg()[0].toFixed(1)}, cores ${os.availableParallelism()}; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB\n`,
  );
  console.log("| Database | What the user waits for | Runs | Median | p95 | CPU median |");
  console.log("|---|---|---|---|---|---|");
  for (const m of Object.values(measures))
    console.log(
      `| ${dialect} | ${m.label} | ${m.ms.length} | ${quantile(m.ms, 0.5).toFixed(0)} ms | ${quantile(m.ms, 0.95).toFixed(0)} ms | ${quantile(m.cpu, 0.5).toFixed(0)} ms |`,
    );
} finally {
  await db.destroy();
  if (argv.includes("--keep")) console.error(`database kept: ${url}`);
  else fs.rmSync(dir, { recursive: true, force: true });
}
