// Benchmark of the interventions grid's bulk save (issue 11): 500 changed rows in one save, on SQLite (and on
// PostgreSQL with DATABASE_URL=postgres://...). Prepares a fresh database (migrated, reference lists, demo data),
// adds 500 interventions on one plot of EARL des Tilleuls 2025, then times `saveInterventionsGrid` saving all
// 500 changed (frequency and surface rate), `--runs` times (default 20). Markdown row for docs/performance.md.
//
//   npx vite-node bench/interventions-save.ts [-- --runs 20]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { selectInContext } from "../server/contexte/service";
import { createDb } from "../server/db/knex";
import { migrateLatest } from "../server/db/migrate";
import { seedReference } from "../server/db/seed-reference";
import { seedDemo } from "../server/demo/seed-demo";
import { getInterventions, saveInterventionsGrid } from "../server/intervention/service";
import { findUtilisateurByUsername, toPublic } from "../server/utilisateur/repo";
import { requestScope } from "../server/access/scope";

const argv = process.argv.slice(2);
const runs = Number(argv[argv.indexOf("--runs") + 1] || 20) || 20;
const N = 500;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-bench-save-"));
const url = process.env.DATABASE_URL ?? `file:${path.join(dir, "bench.sqlite")}`;
const db = createDb(url);

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
  const plot = Number((await db("parcelle").where({ idCampagne }).orderBy("libelle").first("id")).id);
  const [op] = await db("operation_culturale").insert({ idCampagne, idTypeAction: 1, libelle: "Banc d'essai", debitReel: 2 }).returning("id");
  const idOp = typeof op === "object" ? (op as { id: number }).id : (op as number);
  await saveInterventionsGrid(
    requestScope(db, user),
    Array.from({ length: N }, (_, i) => ({
      id: -(i + 1),
      values: { idParcelle: plot, date: "2025-04-01", idOperationCulturale: idOp, frequence: 1, tauxSurface: 1, realisee: true, prevue: false },
    })),
  );

  const times: number[] = [];
  for (let run = 0; run < runs + 2; run++) {
    const rows = (await getInterventions(requestScope(db, user), { parcelleIds: [plot] })).rows.filter((r) => r.idOperationCulturale === idOp);
    const patches = rows.map((r) => ({
      id: r.id,
      updatedAt: r.updatedAt,
      values: {
        idParcelle: r.idParcelle,
        date: r.date,
        idOperationCulturale: idOp,
        frequence: String(2 + (run % 3)),
        tauxSurface: "0,5",
        realisee: true,
        prevue: run % 2 === 0,
      },
    }));
    const started = performance.now();
    const { saved, conflicts } = await saveInterventionsGrid(requestScope(db, user), patches);
    const ms = performance.now() - started;
    if (saved.length !== N || conflicts.length) throw new Error(`saved ${saved.length} rows, ${conflicts.length} conflicts`);
    if (run >= 2) times.push(ms); // two warm-up runs
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
  console.log(
    `| grid bulk save, ${N} changed interventions (${url.startsWith("postgres") ? "PostgreSQL" : "SQLite"}) | ${times.length} | ${at(50).toFixed(1)} | ${at(95).toFixed(1)} |`,
  );
} finally {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
