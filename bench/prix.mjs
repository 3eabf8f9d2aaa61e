// Benchmark of the supply price screen (issue 13): its loader with 2,000 price rows, and the proposed prices of one
// row computed over 1,000 other campaigns, through the built server.
//
//   node bench/prix.mjs [--requests 300] [--concurrency 10] [--processes N]
//
// Prepares a fresh data folder under the system's temporary folder (removed at the end): the seeded demo; EARL des Tilleuls 2025 gets an intervention with
// 2,000 inputs of distinct products (2,000 price rows once the screen is opened); 100 farms of the Beauce folder get
// 10 campaigns each (1,000), each with a price of the first of those products. Signs in `animateur`, selects
// Tilleuls 2025, then asks the screen's data (`.data`, as a navigation does) and the proposed prices resource:
// p50 / p95 with one user, then with `concurrency` users. Markdown rows for docs/performance.md on stdout.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { argsOf, demoIds, fmt, headers, prepareData, selectContext, signIn, startServer, stopServer, summary, tempDataDir } from "./lib.mjs";

const args = argsOf(process.argv.slice(2));
const port = Number(args.port ?? 3611);
const requests = Number(args.requests ?? 300);
const concurrency = Number(args.concurrency ?? 10);
const processes = args.processes ?? process.env.WEB_CONCURRENCY ?? "";
const origin = `http://127.0.0.1:${port}`;
const dataDir = tempDataDir("prix");
const PRODUCTS = 2000;
const FARMS = 100;
const YEARS = 10;
/** The key of "Bench produit 0001" (server/prix/repo.ts cleAppro: origin 776, type 543, no catalogue id, folded label, unit). */
const CLE = "776|543||bench produit 0001||0|KG/HA";

prepareData({ port, dataDir });

function fill() {
  const db = new Database(path.join(dataDir, "sillon.sqlite"));
  const one = (sql, ...p) => db.prepare(sql).get(...p).id;
  const { oad, dossier, exploitation, campagne } = demoIds(db);
  const plot = one("select id from parcelle where id_campagne = ? order by id", campagne);
  const op = one("select id from operation_culturale where id_campagne = ? order by id", campagne);
  db.transaction(() => {
    const action = db
      .prepare(
        "insert into action (id_campagne, id_parcelle, date, annee_recolte, id_operation_culturale, frequence, taux_surface, nombre_passage, realisee, prevue) values (?, ?, '2025-04-01', 2025, ?, 1, 1, 1, 1, 0)",
      )
      .run(campagne, plot, op).lastInsertRowid;
    const input = db.prepare(
      "insert into intrant (id_action, id_categorie, libelle_intrant, dic_id_origine_intrant, quantite, dic_ll_unite) values (?, 5431, ?, 776, 1, 'kg/ha')",
    );
    for (let i = 1; i <= PRODUCTS; i++) input.run(action, `Bench produit ${String(i).padStart(4, "0")}`);
    const farm = db.prepare("insert into exploitation (libelle) values (?)");
    const link = db.prepare("insert into dossier_exploitation (id_dossier, id_exploitation, dex_lecture) values (?, ?, 1)");
    const camp = db.prepare("insert into campagne (id_exploitation, annee_recolte, prefixe_campagne) values (?, ?, ?)");
    const price = db.prepare(
      "insert into prix_appro (id_campagne, cle, id_origine_intrant, id_type_intrant, libelle_intrant, libelle_intrant_concat, prix_achat, unite) values (?, ?, 776, 543, 'Bench produit 0001', 'Bench produit 0001', ?, 'KG/HA')",
    );
    for (let f = 0; f < FARMS; f++) {
      const id = farm.run(`Ferme banc ${f}`).lastInsertRowid;
      link.run(dossier, id);
      for (let y = 0; y < YEARS; y++) {
        const c = camp.run(id, 2016 + y, String(2016 + y)).lastInsertRowid;
        price.run(c, CLE, 1 + ((f * YEARS + y) % 97) / 10);
      }
    }
  })();
  db.close();
  return { oad, dossier, exploitation, campagne };
}

const ids = fill();

async function timed(url, cookie, check) {
  const started = performance.now();
  const res = await fetch(url, { headers: headers(origin, cookie) });
  const text = await res.text();
  return { ms: performance.now() - started, ok: res.status === 200 && check(text) };
}

const server = await startServer({ port, dataDir, processes, keepData: true });
try {
  const cookies = [];
  for (let i = 0; i < concurrency; i++) {
    const cookie = await signIn(origin);
    await selectContext(origin, cookie, ids);
    cookies.push(cookie);
  }
  const screen = `${origin}/home/description/prix/prix_approvisionnement.data`;
  const first = await timed(screen, cookies[0], (t) => t.includes("Bench produit 2000"));
  const db = new Database(path.join(dataDir, "sillon.sqlite"), { readonly: true });
  const rows = db.prepare("select count(*) as n from prix_appro where id_campagne = ?").get(ids.campagne).n;
  const row = db.prepare("select id from prix_appro where id_campagne = ? and cle = ?").get(ids.campagne, CLE).id;
  db.close();
  const proposes = `${origin}/home/description/prix/prix_approvisionnement/proposes?id=${row}`;
  const loaderCheck = (t) => t.includes("Bench produit 2000");
  const statsCheck = (t) => t.includes(`"count":${FARMS * YEARS}`);
  for (let i = 0; i < 10; i++) await timed(screen, cookies[0], loaderCheck); // warm-up
  const run = async (url, check) => {
    const one = [];
    for (let i = 0; i < 100; i++) one.push(await timed(url, cookies[0], check));
    const many = [];
    let next = 0;
    await Promise.all(
      cookies.map(async (cookie) => {
        while (next++ < requests) many.push(await timed(url, cookie, check));
      }),
    );
    return [summary(one), summary(many)];
  };
  const [l1, ln] = await run(screen, loaderCheck);
  const [s1, sn] = await run(proposes, statsCheck);
  console.log(
    `Tilleuls 2025 with ${rows} price rows (the first load, which creates them: ${fmt(first.ms)} ms); proposed prices over ${FARMS * YEARS} campaigns. Server processes: ${processes || "default"}; cores: ${(await import("node:os")).availableParallelism()}`,
  );
  console.log("| measure | requests | errors | p50 ms | p95 ms |");
  console.log("|---|---|---|---|---|");
  console.log(`| supply prices loader (.data), one user | ${l1.count} | ${l1.errors} | ${fmt(l1.p50)} | ${fmt(l1.p95)} |`);
  console.log(`| supply prices loader (.data), ${concurrency} concurrent users | ${ln.count} | ${ln.errors} | ${fmt(ln.p50)} | ${fmt(ln.p95)} |`);
  console.log(`| proposed prices of one row, one user | ${s1.count} | ${s1.errors} | ${fmt(s1.p50)} | ${fmt(s1.p95)} |`);
  console.log(`| proposed prices of one row, ${concurrency} concurrent users | ${sn.count} | ${sn.errors} | ${fmt(sn.p50)} | ${fmt(sn.p95)} |`);
} finally {
  await stopServer(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
