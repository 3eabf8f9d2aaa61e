// The job runner alone in a process of its own (bench/calcul-serie.ts, decision 0102): what the cluster's primary does
// when WEB_CONCURRENCY > 1 (server/start.js), the server processes only recording the jobs. Runs until killed.
//
//   npx vite-node bench/executeur-banc.ts -- <database url>
import { createDb } from "../server/db/knex";
import { Executeur } from "../server/jobs/runner";
import "../server/calcul-serie/lancement";

const url = process.argv[process.argv.length - 1];
const db = createDb(url);
const e = new Executeur(db, { concurrence: 1, instance: `banc-enfant:${process.pid}`, intervalleMs: 20 });
await e.demarrer();
process.stdout.write("pret\n");
process.on("SIGTERM", () => {
  void e
    .arreter()
    .then(() => db.destroy())
    .then(() => process.exit(0));
});
