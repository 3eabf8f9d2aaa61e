// A runner process killed in the middle of a job (server/jobs/tache.service.test.ts): it claims the waiting job of
// type "test-interrompue", reports some progress, then kills itself (SIGKILL, as a crashed container).
// Run with tsx: tsx server/jobs/enfant-interrompu.fixture.ts <database url>
import { createDb } from "../db/knex";
import { definirTache, Executeur } from "./runner";

const db = createDb(process.argv[2]);
definirTache("test-interrompue", async ({ progression }) => {
  await progression(3, 10);
  process.stdout.write("claimed\n");
  process.kill(process.pid, "SIGKILL");
  await new Promise(() => {});
});
await new Executeur(db, { concurrence: 1, intervalleMs: 100 }).demarrer();
