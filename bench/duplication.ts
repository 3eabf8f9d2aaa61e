// Benchmark of the duplication of interventions (issue 12): a 300-plot campaign's interventions (30 per plot, 9,000,
// each with the inputs, input characteristics and targets of a demo intervention that has some) duplicated to another
// farm, plot by plot to its counterpart, through the duplication dialog's service (`duplicateInterventions`), on SQLite
// (and on PostgreSQL with DATABASE_URL=postgres://...). Prepares a fresh database (migrated, reference lists, demo data),
// adds 300 plots to EARL des Tilleuls 2025 and 300 to GAEC du Moulin 2025 (written by `redacteur` through Beauce), then
// times the 300 duplications, `--runs` times (default 3; the destination plots are emptied by the deletion option).
// With `--mode dialogue` (default, issue 30) the 300 plots go as the duplication dialog sends them now: one POST of the
// pairs (the dialog's form fields, `pairesFormFields`) to the interventions route's action, as React Router calls it
// for a signed-in user, which parses it and calls duplicateCampaignInterventions (one transaction, decision 0123);
// with `--mode campagne` the service call alone (decision 0078); with `--mode parcelle` one call per plot, as the
// dialog did before issue 30 (one source plot per request). Prints the Markdown row for docs/performance.md.
//
//   npx vite-node bench/duplication.ts [-- --runs 3 --plots 300 --per-plot 30 --mode dialogue|campagne|parcelle]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { selectInContext } from "../server/contexte/service";
import { duplicateCampaignInterventions, duplicateInterventions } from "../server/copie/service";
import { createDb } from "../server/db/knex";
import { migrateLatest } from "../server/db/migrate";
import { seedReference } from "../server/db/seed-reference";
import { seedDemo } from "../server/demo/seed-demo";
import { findUtilisateurByUsername, toPublic } from "../server/utilisateur/repo";
import { requestScope } from "../server/access/scope";
import { pairesFormFields } from "../app/domain/copie";
import { action as interventionsAction } from "../app/routes/au-champs/interventions";
import { postForm } from "../tests/helpers/route-call";

const argv = process.argv.slice(2);
const arg = (name: string, def: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) || def : def);
const runs = arg("--runs", 3);
const PLOTS = arg("--plots", 300);
const PER_PLOT = arg("--per-plot", 30);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-bench-dup-"));
const url = process.env.DATABASE_URL ?? `file:${path.join(dir, "bench.sqlite")}`;
const db = createDb(url);
const idOf = (r: unknown) => (typeof r === "object" ? (r as { id: number }).id : (r as number));
const bare = ({ id: _i, createdAt: _c, updatedAt: _u, ...rest }: Record<string, unknown>) => rest;

/** `PLOTS` plots in the campaign, copies of its first plot. */
async function plotsIn(idCampagne: number, prefix: string): Promise<number[]> {
  const model = bare(await db("parcelle").where({ idCampagne }).orderBy("id").first());
  const ids: number[] = [];
  for (let k = 0; k < PLOTS; k++)
    ids.push(
      idOf(
        (
          await db("parcelle")
            .insert({ ...model, libelle: `${prefix} ${k + 1}`, geometrie: null })
            .returning("id")
        )[0],
      ),
    );
  return ids;
}

try {
  await migrateLatest(db);
  await seedReference(db);
  const demo = await seedDemo(db);
  const source = demo.campagnes.tilleuls2025;
  const target = demo.campagnes.moulin2025;
  const user = toPublic((await findUtilisateurByUsername(db, "redacteur"))!);
  await selectInContext(db, user, { intent: "oad", id: demo.oads.reseauDemo });
  await selectInContext(db, user, { intent: "dossier", id: demo.dossiers.beauce });
  await selectInContext(db, user, { intent: "exploitations", ids: [demo.exploitations.tilleuls] });
  await selectInContext(db, user, { intent: "campagne", id: source });

  // The source: each plot gets PER_PLOT copies of a demo intervention with inputs (their characteristics and targets).
  const model = await db("action as a")
    .join("intrant as i", "i.idAction", "a.id")
    .where("a.idCampagne", source)
    .groupBy("a.id")
    .havingRaw("count(*) >= 2")
    .orderBy("a.id")
    .first("a.id");
  const action = bare(await db("action").where({ id: model.id }).first());
  const intrants = await db("intrant").where({ idAction: model.id }).whereNull("idIntrantSemence").orderBy("id");
  const caracs = new Map(
    (
      await db("caracteristique_intrant").whereIn(
        "idIntrant",
        intrants.map((i) => i.id),
      )
    ).map((c) => [Number(c.idIntrant), bare(c)]),
  );
  const cibles = new Map(
    (
      await db("intrant_cible").whereIn(
        "idIntrant",
        intrants.map((i) => i.id),
      )
    ).map((c) => [Number(c.idIntrant), c]),
  );
  const cibleCibles = await db("intrant_cible_cible").whereIn(
    "idIntrantCible",
    [...cibles.values()].map((c) => c.id),
  );
  const sources = await plotsIn(source, "Banc source");
  const targets = await plotsIn(target, "Banc destination");
  await db.transaction(async (trx) => {
    for (const idParcelle of sources) {
      for (let k = 0; k < PER_PLOT; k++) {
        const idAction = idOf(
          (
            await trx("action")
              .insert({ ...action, idParcelle })
              .returning("id")
          )[0],
        );
        for (const i of intrants) {
          const idIntrant = idOf(
            (
              await trx("intrant")
                .insert({ ...bare(i), idAction })
                .returning("id")
            )[0],
          );
          const c = caracs.get(Number(i.id));
          if (c) await trx("caracteristique_intrant").insert({ ...c, idIntrant });
          const ic = cibles.get(Number(i.id));
          if (ic) {
            const idIc = idOf(
              (
                await trx("intrant_cible")
                  .insert({ ...bare(ic), idIntrant })
                  .returning("id")
              )[0],
            );
            for (const cc of cibleCibles.filter((x) => Number(x.idIntrantCible) === Number(ic.id)))
              await trx("intrant_cible_cible").insert({ ...bare(cc), idIntrantCible: idIc });
          }
        }
      }
    }
  });
  // Statistics as a database in service has them (autovacuum lags behind a quarter of a million rows written at once:
  // PostgreSQL would plan for the demo's few thousand rows).
  if (url.startsWith("postgres")) await db.raw("ANALYZE");
  const count = async (table: string, campagne: number) =>
    Number(
      (await db(`${table} as x`)
        .join("action as a", "a.id", table === "action" ? "x.id" : "x.idAction")
        .where("a.idCampagne", campagne)
        .whereIn("a.idParcelle", campagne === source ? sources : targets)
        .count({ n: "*" })
        .first())!.n,
    );
  const actions = await count("action", source);
  const inputs = await count("intrant", source);

  const sqlTimes = new Map<string, [number, number]>();
  const started_ = new Map<string, number>();
  if (process.env.BENCH_SQL) {
    db.on("query", (q: { __knexQueryUid: string }) => started_.set(q.__knexQueryUid, performance.now()));
    db.on("query-response", (_r: unknown, q: { __knexQueryUid: string; sql: string }) => {
      const k = q.sql
        .replace(/\(\?(, \?)*\)(, \(\?(, \?)*\))*/g, "(…)")
        .replace(/\d+/g, "N")
        .slice(0, 90);
      const e = sqlTimes.get(k) ?? [0, 0];
      sqlTimes.set(k, [e[0] + performance.now() - (started_.get(q.__knexQueryUid) ?? performance.now()), e[1] + 1]);
    });
  }
  // `--mode campagne` (default): one call for the 300 plots (duplicateCampaignInterventions, one transaction);
  // `--mode parcelle`: one duplication dialog call per plot (duplicateInterventions), as the dialog does.
  const mode = argv.includes("--mode") ? argv[argv.indexOf("--mode") + 1] : "dialogue";
  const base = {
    dossierSource: demo.dossiers.beauce,
    campagneSource: source,
    dossierDestination: demo.dossiers.beauce,
    campagneDestination: target,
    suppressionInterventionsParcellesDst: "on",
  };
  const times: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    if (mode === "dialogue") {
      // The dialog's request: its fields as it appends them, then the route's action (parsing, write gate, service).
      const form = new FormData();
      form.append("intent", "duplicationCampagneInterventions");
      for (const [k, v] of Object.entries(base)) form.append(k, String(v));
      for (const [k, v] of pairesFormFields(sources.map((s, k) => ({ parcelleSource: s, parcellesDestination: [targets[k]] })))) form.append(k, v);
      const answer = await postForm(interventionsAction as never, { db, user, path: "home/description/au_champs/interventions", form });
      if (answer.status !== 200 || !(answer.body as { ok?: boolean }).ok)
        throw new Error(`the dialog's request failed: ${answer.status} ${JSON.stringify(answer.body)}`);
    } else if (mode === "parcelle") {
      for (let k = 0; k < PLOTS; k++)
        await duplicateInterventions(requestScope(db, user), { ...base, parcelleSource: sources[k], parcellesDestination: [targets[k]] });
    } else {
      await duplicateCampaignInterventions(requestScope(db, user), {
        ...base,
        paires: sources.map((s, k) => ({ parcelleSource: s, parcellesDestination: [targets[k]] })),
      });
    }
    times.push(performance.now() - started);
    const used = process.cpuUsage(cpuStarted);
    cpu.push((used.user + used.system) / 1000);
    if (process.env.BENCH_VERBOSE)
      console.log(`run ${run + 1}: wall ${times[run].toFixed(0)} ms, user ${(used.user / 1000).toFixed(0)} ms, system ${(used.system / 1000).toFixed(0)} ms`);
    if ((await count("action", target)) !== actions || (await count("intrant", target)) !== inputs) throw new Error("incomplete copy");
  }
  if (process.env.BENCH_SQL)
    console.log(
      [...sqlTimes]
        .sort((a, b) => b[1][0] - a[1][0])
        .slice(0, 25)
        .map(([k, [ms, n]]) => `${ms.toFixed(0)} ms ${n}× ${k}`)
        .join("\n"),
    );
  // Wall time, and the process's CPU time (SQLite runs in the process: on a machine shared with other work, CPU time
  // is the work itself, wall time adds the waiting for a core).
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `| duplication of ${actions} interventions (${inputs} inputs) from ${PLOTS} plots to another farm (${url.startsWith("postgres") ? "PostgreSQL" : "SQLite"}, ${mode === "parcelle" ? `${PLOTS} calls` : mode === "dialogue" ? "the dialog's one request" : "one call"}) | ${times.length} | ${Math.min(...times).toFixed(0)} | ${median(times).toFixed(0)} | ${median(cpu).toFixed(0)} | ${os.loadavg()[0].toFixed(1)} |`,
  );
} finally {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
