// Benchmark of the measures screen's loader (issue 15): one plot with 500 observation series and 10,000 observations,
// the list of its series and the detail of one series, through the built server.
//
//   node bench/mesures.mjs [--requests 400] [--concurrency 20] [--processes N]
//
// Prepares a fresh data folder under the system's temporary folder (removed at the end): the seeded demo, then 500 series of 20 observations each on the
// first plot of EARL des Tilleuls 2025 (written directly in SQLite); starts the server on port 3602, signs in
// `animateur` once per simulated user, selects that campaign, then asks the screen's data (`.data`) with that plot
// and one series selected: p50 / p95 with one user, then with `concurrency` users asking without pause. Markdown rows
// for docs/performance.md on stdout.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { argsOf, demoIds, fmt, headers, prepareData, selectContext, signIn, startServer, stopServer, summary, tempDataDir } from "./lib.mjs";

const args = argsOf(process.argv.slice(2));
const port = Number(args.port ?? 3602);
const requests = Number(args.requests ?? 400);
const concurrency = Number(args.concurrency ?? 20);
const processes = args.processes ?? process.env.WEB_CONCURRENCY ?? "";
const origin = `http://127.0.0.1:${port}`;
const dataDir = tempDataDir("mesures");

prepareData({ port, dataDir });

function fill() {
  const db = new Database(path.join(dataDir, "sillon.sqlite"));
  const one = (sql, ...p) => db.prepare(sql).get(...p).id;
  const { oad, dossier, exploitation, campagne } = demoIds(db);
  const plot = one("select id from parcelle where id_campagne = ? order by libelle, id limit 1", campagne);
  const serie = db.prepare(
    "insert into observation_serie (id_campagne, id_exploitation, id_parcelle, nom, date, dic_id_type_serie, is_placette_selected) values (?, ?, ?, ?, ?, ?, 0)",
  );
  const obs = db.prepare(
    "insert into observation (id_observation_serie, id_parcelle, dico_id_elt_observe, obs_val_num, dic_ll_unite, date, ordre) values (?, ?, ?, ?, ?, ?, ?)",
  );
  const elements = [2100, 2101, 2102, 2103, 2104, 2105, 2106, 1193];
  let last = 0;
  db.transaction(() => {
    for (let s = 0; s < 500; s++) {
      const date = `2025-${String(1 + (s % 12)).padStart(2, "0")}-${String(1 + (s % 28)).padStart(2, "0")}`;
      last = Number(serie.run(campagne, exploitation, plot, `Série de charge ${s + 1}`, date, 1130).lastInsertRowid);
      for (let o = 0; o < 20; o++) obs.run(last, plot, elements[o % elements.length], (s * 20 + o) % 97, "% MS", date, o + 1);
    }
  })();
  const count = db
    .prepare("select count(*) as n from observation o join observation_serie s on s.id = o.id_observation_serie where s.id_parcelle = ?")
    .get(plot).n;
  db.close();
  return { oad, dossier, exploitation, campagne, plot, serie: last, count };
}

const ids = fill();
const url = `${origin}/home/description/au_champs/mesures.data?parcelleId=${ids.plot}&id=${ids.serie}`;

async function load(cookie) {
  const started = performance.now();
  const res = await fetch(url, { headers: headers(origin, cookie) });
  const text = await res.text();
  return { ms: performance.now() - started, ok: res.status === 200 && text.length > 10_000 };
}

const server = await startServer({ port, dataDir, processes, keepData: true });
try {
  const cookies = [];
  for (let i = 0; i < concurrency; i++) {
    const cookie = await signIn(origin);
    await selectContext(origin, cookie, ids);
    cookies.push(cookie);
  }
  for (let i = 0; i < 10; i++) await load(cookies[0]); // warm-up
  const one = [];
  for (let i = 0; i < 100; i++) one.push(await load(cookies[0]));
  const many = [];
  let next = 0;
  await Promise.all(
    cookies.map(async (cookie) => {
      while (next++ < requests) many.push(await load(cookie));
    }),
  );
  const a = summary(one);
  const b = summary(many);
  console.log(
    `Plot with 500+ series and ${ids.count} observations (the demo's and the load's). Server processes: ${processes || "default"}; cores: ${(await import("node:os")).availableParallelism()}`,
  );
  console.log("| measure | requests | errors | p50 ms | p95 ms |");
  console.log("|---|---|---|---|---|");
  console.log(`| measures loader (.data), one user | ${a.count} | ${a.errors} | ${fmt(a.p50)} | ${fmt(a.p95)} |`);
  console.log(`| measures loader (.data), ${concurrency} concurrent users | ${b.count} | ${b.errors} | ${fmt(b.p50)} | ${fmt(b.p95)} |`);
} finally {
  await stopServer(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
