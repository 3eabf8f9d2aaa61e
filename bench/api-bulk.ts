// Benchmark of the API's season write (issue 27, decision 0112): POST /api/v1/parcelles/{id}/saison with 300
// interventions and 900 inputs (a phyto with a target, a fertiliser, water on each) in one call, through the whole
// API adapter (bearer token, quota, body read and parsed, one transaction), against the screens' path for the same
// rows: the interventions grid's save of the 300 rows (saveInterventionsGrid) then the 900 inputs each saved by the
// input dialog's service (saveIntrant), as a user of the screens does it. The grid's save alone is given too.
// Fresh database (migrated, reference lists, demo data); on SQLite, or PostgreSQL with DATABASE_URL=postgres://...
// (an empty database). Each run's rows are deleted before the next. Markdown rows for docs/performance.md.
//
//   npx vite-node bench/api-bulk.ts [-- --runs 5]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TYPE_INTRANT } from "~/domain/intrant";
import { API_CALLS } from "../server/api/calls";
import { requestScope } from "../server/access/scope";
import { issueApiToken } from "../server/auth/api-token";
import { selectInContext } from "../server/contexte/service";
import { createDb } from "../server/db/knex";
import { migrateLatest } from "../server/db/migrate";
import { seedReference } from "../server/db/seed-reference";
import { seedDemo } from "../server/demo/seed-demo";
import { answerApi } from "../server/http/api.server";
import { saveIntrant, type IntrantKind } from "../server/intrant/service";
import { parseIntrant } from "../server/intervention/saison";
import { saveInterventionsGrid } from "../server/intervention/service";
import { findUtilisateurByUsername, toPublic } from "../server/utilisateur/repo";

const argv = process.argv.slice(2);
const runs = Number(argv[argv.indexOf("--runs") + 1] || 5) || 5;
const N = 300;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-bench-api-bulk-"));
const url = process.env.DATABASE_URL ?? `file:${path.join(dir, "bench.sqlite")}`;
const dialect = url.startsWith("postgres") ? "PostgreSQL" : "SQLite";
const db = createDb(url);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  await migrateLatest(db);
  await seedReference(db);
  const ids = await seedDemo(db);
  const idCampagne = ids.campagnes.tilleuls2025;
  const user = toPublic((await findUtilisateurByUsername(db, "redacteur"))!);
  await selectInContext(db, user, { intent: "oad", id: ids.oads.reseauDemo });
  await selectInContext(db, user, { intent: "dossier", id: ids.dossiers.beauce });
  await selectInContext(db, user, { intent: "exploitations", ids: [ids.exploitations.tilleuls] });
  await selectInContext(db, user, { intent: "campagne", id: idCampagne });
  const token = await issueApiToken(db, user.id, { label: "bench", nature: "personnel", acces: "ecriture" });
  const plot = Number((await db("parcelle").where({ idCampagne }).orderBy("libelle").first("id")).id);
  const [op] = await db("operation_culturale").insert({ idCampagne, idTypeAction: 1, libelle: "Banc d'essai API", debitReel: 2 }).returning("id");
  const idOp = typeof op === "object" ? (op as { id: number }).id : (op as number);
  const phyto = await db("intrant_phyto").orderBy("idProduit").first("idProduit");
  const cible = await db("cible").orderBy("id").first("id");
  const fert = await db("reference_fertilisant").whereNotNull("idTypeFertilisant").orderBy("id").first("id", "idTypeFertilisant");
  const eau = await db("categorie_intrant").where({ idTypeIntrant: TYPE_INTRANT.EAU }).orderBy("id").first("id");
  const inputs = [
    { type: "phyto", idIntrant: Number(phyto.idProduit), origine: 776, quantite: 1.5, dicLlUnite: "l/ha", cible1: Number(cible.id) },
    { type: "fertilisant", idCategorie: Number(fert.idTypeFertilisant), idIntrant: Number(fert.id), origine: 776, quantite: 200, dicLlUnite: "kg/ha" },
    { type: "eau", idCategorie: Number(eau.id), quantite: 30, dicLlUnite: "mm" },
  ];
  const fields = (i: number) => ({
    date: `2025-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
    idOperationCulturale: idOp,
    frequence: 1,
    tauxSurface: 1,
    realisee: true,
    prevue: false,
  });
  const clear = async () => {
    await db("action").where({ idCampagne, idOperationCulturale: idOp }).delete();
  };
  const quota = { perToken: 1e9, perAddress: 1e9, windowMs: 60_000 };

  const bulk: number[] = [];
  const grid: number[] = [];
  const screens: number[] = [];
  for (let run = 0; run < runs + 1; run++) {
    // The API: one call.
    const body = JSON.stringify({ interventions: Array.from({ length: N }, (_, i) => ({ ...fields(i), intrants: inputs })) });
    let started = performance.now();
    const response = await answerApi(
      API_CALLS,
      new Request(`http://bench.test/api/v1/parcelles/${plot}/saison`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) },
        body,
      }),
      db,
      { quota },
    );
    const answer = (await response.json()) as { interventions?: { intrants: number[] }[] };
    const tBulk = performance.now() - started;
    if (response.status !== 201 || answer.interventions?.length !== N || answer.interventions.some((x) => x.intrants.length !== 3))
      throw new Error(`bulk: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
    await clear();

    // The screens: the grid's save of the rows, then each input by the dialog's service.
    started = performance.now();
    const { saved } = await saveInterventionsGrid(
      requestScope(db, user),
      Array.from({ length: N }, (_, i) => ({ id: -(i + 1), values: { idParcelle: plot, ...fields(i) } })),
    );
    const tGrid = performance.now() - started;
    for (const row of saved)
      for (const raw of inputs) {
        const { kind, values } = parseIntrant(raw);
        await saveIntrant(requestScope(db, user), row.id, kind as IntrantKind, values);
      }
    const tScreens = performance.now() - started;
    if (saved.length !== N) throw new Error(`grid: ${saved.length} rows`);
    await clear();
    if (run === 0) continue; // warm-up
    bulk.push(tBulk);
    grid.push(tGrid);
    screens.push(tScreens);
  }
  const ratio = median(bulk) / median(screens);
  console.log(`| ${dialect} | ${runs} | ${median(bulk).toFixed(0)} | ${median(screens).toFixed(0)} | ${median(grid).toFixed(0)} | ${ratio.toFixed(2)} |`);
} finally {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
