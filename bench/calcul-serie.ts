// Benchmark of a calculation from the click (issues 14, 30): a 1,000-plot campaign (30,000 interventions, 90,000
// inputs with their targets and the fertilisers' compositions, a harvest per plot: the pre-check says "Avertissement"
// at most, the seeds' emission coefficients) against the bare read of the same rows (plots, interventions, inputs,
// targets, harvests: `select *`, nothing joined or computed). Each run, as the screen does it: the launch request
// (answers with its job), the job's pre-check, which stops on the warnings; the confirmed launch, the job's check
// again and its series (snapshot, engine plot by plot, every row stored), its progress polled every 20 ms until done.
// Beside it the path before issue 30 (the check, then the launch's own check and the series, each in the request),
// and the series alone (what this bench timed before). Then `/healthz` (a `select 1` answered by an HTTP server in
// this process, probed from a child process) while a confirmed 1,000-plot launch runs: the job in this process
// (one server process: cooperative yielding, decision 0102), then in a process of its own (the cluster's primary).
// On SQLite, or on PostgreSQL with DATABASE_URL=postgres://... (a fresh database). Writes only under a temporary
// folder. Markdown rows for docs/performance.md.
//
//   npx vite-node bench/calcul-serie.ts [-- --runs 3 --plots 1000]
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createDb } from "../server/db/knex";
import { construireCampagneBanc } from "./campagne-banc";
import { migrateLatest } from "../server/db/migrate";
import { seedReference } from "../server/db/seed-reference";
import { seedDemo } from "../server/demo/seed-demo";
import { controlerSansDroits, creerSerie, executerSerie, lancerSerie } from "../server/calcul-serie/service";
import { lancerCalcul, type ResultatLancement } from "../server/calcul-serie/lancement";
import { Executeur } from "../server/jobs/runner";
import { findUtilisateurByUsername, toPublic, type Utilisateur } from "../server/utilisateur/repo";

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

/** Polls the job as the screen does (every 20 ms here, 500 ms on the screen) until it ends. */
async function fin(idTache: number): Promise<ResultatLancement> {
  for (;;) {
    const r = await db("tache").where({ id: idTache }).first("etat", "resultat", "erreur");
    if (r.etat === "echec") throw new Error(`job ${idTache} failed: ${r.erreur}`);
    if (r.etat === "terminee") return JSON.parse(String(r.resultat)) as ResultatLancement;
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

/** From the click: launch, the job's check (stops on warnings), the confirmed launch, the job's check and series. */
async function duClic(user: Utilisateur, idCampagne: number, confirme = false) {
  const t0 = performance.now();
  let { idTache } = await lancerCalcul(db, user, [idCampagne], { confirme });
  const requete = performance.now() - t0;
  let r = await fin(idTache);
  const controle = performance.now() - t0;
  let requeteConfirmee = 0;
  if (!r.lance) {
    if (r.controles.some((c) => c.controle.codeRetour === "Erreur")) throw new Error(`the check refuses: ${JSON.stringify(r.controles).slice(0, 500)}`);
    const t1 = performance.now();
    ({ idTache } = await lancerCalcul(db, user, [idCampagne], { confirme: true }));
    requeteConfirmee = performance.now() - t1;
    r = await fin(idTache);
  }
  const s = await db("calcul_serie").where({ id: r.series[0].id }).first("statut", "erreur");
  if (s.statut !== "termine") throw new Error(`series failed: ${s.erreur}`);
  return { total: performance.now() - t0, requete, controle, requeteConfirmee, idSerie: r.series[0].id };
}

/** A child process asking GET /healthz one after the other (5 ms apart) until told to stop; its latencies in ms. */
function sonde(port: number): { arreter: () => Promise<number[]> } {
  const script = `
    const lat = []; let stop = false; let erreurs = 0;
    process.stdin.on("data", () => (stop = true));
    (async () => {
      while (!stop) {
        const t = performance.now();
        // A reset connection (keep-alive closed by a server busy past its timeout) counts as the time it took.
        await fetch("http://127.0.0.1:" + process.env.PORT + "/healthz").then((r) => r.text()).catch(() => erreurs++);
        lat.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 5));
      }
      if (erreurs) process.stderr.write("healthz probe: " + erreurs + " connection errors\\n");
      process.stdout.write(JSON.stringify(lat), () => process.exit(0));
    })();`;
  const child = spawn(process.execPath, ["-e", script], { env: { ...process.env, PORT: String(port) }, stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  return {
    arreter: () =>
      new Promise((ok) => {
        child.on("exit", () => ok(JSON.parse(out || "[]") as number[]));
        child.stdin.write("stop\n");
      }),
  };
}

const quantile = (x: number[], q: number) => [...x].sort((a, b) => a - b)[Math.min(x.length - 1, Math.floor(q * x.length))] ?? NaN;
const med = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor((x.length - 1) / 2)];

let enfant: ChildProcess | undefined;
const serveur = http.createServer((_req, res) => {
  db.raw("select 1")
    .then(() => res.end("ok"))
    .catch(() => res.writeHead(503).end());
});
try {
  await migrateLatest(db);
  await seedReference(db);
  const ids = await seedDemo(db);
  const row = await findUtilisateurByUsername(db, "redacteur");
  const user = toPublic(row!);
  const built = performance.now();
  const { idCampagne } = await construireCampagneBanc(db, ids, { parcelles: PLOTS, interventionsDe: () => PER_PLOT, intrants: INPUTS });
  const counts = {
    parcelles: Number((await db("parcelle").where({ idCampagne }).count({ n: "*" }))[0].n),
    interventions: Number((await db("action").where({ idCampagne }).count({ n: "*" }))[0].n),
    intrants: Number((await db("intrant as i").join("action as a", "a.id", "i.idAction").where("a.idCampagne", idCampagne).count({ n: "*" }))[0].n),
  };
  console.error(`campaign built in ${((performance.now() - built) / 1000).toFixed(1)} s:`, counts);
  const controle = await controlerSansDroits(db, idCampagne);
  const parCode = new Map<string, number>();
  for (const d of controle.details) parCode.set(`${d.severite} ${d.code}`, (parCode.get(`${d.severite} ${d.code}`) ?? 0) + 1);
  console.error(`pre-check: ${controle.codeRetour}`, Object.fromEntries(parCode));
  if (controle.codeRetour === "Erreur") throw new Error("the bench campaign is refused by the pre-check");

  // The job runner of a one-process server: in this process.
  const executeur = new Executeur(db, { concurrence: 1, instance: `banc:${process.pid}`, intervalleMs: 20 });
  await executeur.demarrer();
  const lignes: Record<string, number[]> = {
    bare: [],
    clic: [],
    avant: [],
    serie: [],
    requete: [],
    controle: [],
    bareCpu: [],
    clicCpu: [],
    avantCpu: [],
    serieCpu: [],
  };
  // --healthz-only: the /healthz part alone.
  for (let run = 0; run < (argv.includes("--healthz-only") ? 0 : runs + 1); run++) {
    // CPU of this process (the job runs in it; SQLite's work too): what a loaded machine does not blur.
    const cpu = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
    let t = performance.now();
    let c = process.cpuUsage();
    await bareRead(idCampagne);
    const b = performance.now() - t;
    const bc = cpu(process.cpuUsage(c));
    c = process.cpuUsage();
    const clic = await duClic(user, idCampagne);
    const clicCpu = cpu(process.cpuUsage(c));
    // Before issue 30: the check request, then the launch request's own check and the series (run in place).
    t = performance.now();
    c = process.cpuUsage();
    await controlerSansDroits(db, idCampagne);
    const { execution } = await lancerSerie(db, user, idCampagne, { executer: (id) => executerSerie(db, id) });
    await execution;
    const avant = performance.now() - t;
    const avantCpu = cpu(process.cpuUsage(c));
    t = performance.now();
    c = process.cpuUsage();
    const id = await creerSerie(db, idCampagne, null);
    await executerSerie(db, id);
    const serie = performance.now() - t;
    const serieCpu = cpu(process.cpuUsage(c));
    console.error(
      `run ${run}: bare read ${b.toFixed(0)} ms (cpu ${bc.toFixed(0)}); from the click ${clic.total.toFixed(0)} ms (cpu ${clicCpu.toFixed(0)}; launch request ${clic.requete.toFixed(1)} ms, check job done at ${clic.controle.toFixed(0)} ms, confirmed launch request ${clic.requeteConfirmee.toFixed(1)} ms), ${(clic.total / b).toFixed(1)}× the bare read (cpu ${(clicCpu / bc).toFixed(1)}×); before issue 30 ${avant.toFixed(0)} ms (cpu ${avantCpu.toFixed(0)}; ${(avant / b).toFixed(1)}×, cpu ${(avantCpu / bc).toFixed(1)}×); series alone ${serie.toFixed(0)} ms (cpu ${serieCpu.toFixed(0)}; ${(serie / b).toFixed(1)}×, cpu ${(serieCpu / bc).toFixed(1)}×)`,
    );
    if (run >= 1) {
      lignes.bare.push(b);
      lignes.clic.push(clic.total);
      lignes.avant.push(avant);
      lignes.serie.push(serie);
      lignes.requete.push(Math.max(clic.requete, clic.requeteConfirmee));
      lignes.controle.push(clic.controle);
      lignes.bareCpu.push(bc);
      lignes.clicCpu.push(clicCpu);
      lignes.avantCpu.push(avantCpu);
      lignes.serieCpu.push(serieCpu);
    }
  }

  // /healthz while a confirmed launch runs.
  await new Promise<void>((ok) => serveur.listen(0, "127.0.0.1", ok));
  const port = (serveur.address() as { port: number }).port;
  const sondage = async (label: string, pendant: () => Promise<unknown>) => {
    const s = sonde(port);
    await new Promise((ok) => setTimeout(ok, 200));
    const t = performance.now();
    await pendant();
    const duree = performance.now() - t;
    const lat = await s.arreter();
    const r = { label, n: lat.length, p50: quantile(lat, 0.5), p99: quantile(lat, 0.99), max: Math.max(...lat), duree };
    console.error(
      `/healthz during ${label}: ${r.n} requests, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(0)} ms (launch ${duree.toFixed(0)} ms)`,
    );
    return r;
  };
  const calme = await sondage("nothing (idle)", () => new Promise((ok) => setTimeout(ok, 1500)));
  const memeProcessus = await sondage("a launch whose job runs in the serving process", () => duClic(user, idCampagne, true));
  await executeur.arreter();
  enfant = spawn(path.join("node_modules", ".bin", "vite-node"), ["bench/executeur-banc.ts", "--", url], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((ok) => enfant!.stdout!.on("data", (d) => String(d).includes("pret") && ok()));
  const autreProcessus = await sondage("a launch whose job runs in another process", () => duClic(user, idCampagne, true));

  const dialect = url.startsWith("postgres") ? "PostgreSQL" : "SQLite";
  const ratios = (x: number[], base = lignes.bare) => x.map((v, i) => `${(v / base[i]).toFixed(1)}×`).join(", ");
  console.error(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  if (lignes.clic.length)
    console.log(
      `| calculation from the click, ${counts.parcelles} plots, ${counts.interventions} interventions, ${counts.intrants} inputs, check ${controle.codeRetour} (${dialect}) | ${lignes.clic.length} | bare read ${med(lignes.bare).toFixed(0)} ms | from the click ${med(lignes.clic).toFixed(0)} ms (run by run ${ratios(lignes.clic)}; launch request ≤ ${Math.max(...lignes.requete).toFixed(0)} ms; check job done at ${med(lignes.controle).toFixed(0)} ms); before issue 30 ${med(lignes.avant).toFixed(0)} ms (${ratios(lignes.avant)}); series alone ${med(lignes.serie).toFixed(0)} ms (${ratios(lignes.serie)}) | cpu: bare read ${med(lignes.bareCpu).toFixed(0)} ms, from the click ${med(lignes.clicCpu).toFixed(0)} ms (${ratios(lignes.clicCpu, lignes.bareCpu)}), before ${med(lignes.avantCpu).toFixed(0)} ms (${ratios(lignes.avantCpu, lignes.bareCpu)}), series alone ${med(lignes.serieCpu).toFixed(0)} ms (${ratios(lignes.serieCpu, lignes.bareCpu)}) |`,
    );
  for (const r of [calme, memeProcessus, autreProcessus])
    console.log(
      `| /healthz during ${r.label} (${dialect}) | ${r.n} requests | p50 ${r.p50.toFixed(1)} ms | p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(0)} ms |`,
    );
} finally {
  if (enfant) {
    enfant.kill("SIGTERM");
    await new Promise((ok) => enfant!.on("exit", ok));
  }
  serveur.close();
  await db.destroy();
  if (argv.includes("--keep")) console.error(`database kept: ${url}`);
  else fs.rmSync(dir, { recursive: true, force: true });
}
