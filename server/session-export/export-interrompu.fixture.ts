// A runner process killed in the middle of an export (server/session-export/interruption.service.test.ts): it claims
// the waiting raw-data export, opens the session's workbook through ecrireSessionExport, reports some progress, then
// kills itself (SIGKILL, as a crashed container) while the session is being written.
// Run with tsx: tsx server/session-export/export-interrompu.fixture.ts <database url>
import { createDb } from "../db/knex";
import { definirTache, Executeur } from "../jobs/runner";
import { TACHE_EXPORT_DONNEES_BRUTES } from "./donnees-brutes";
import { ecrireSessionExport, type ParametresSessionExport } from "./service";

const db = createDb(process.argv[2]);
definirTache<ParametresSessionExport>(TACHE_EXPORT_DONNEES_BRUTES, (ctx) =>
  ecrireSessionExport(ctx, async ({ progression }) => {
    await progression(1, 10);
    process.stdout.write("writing\n");
    process.kill(process.pid, "SIGKILL");
    await new Promise(() => {});
  }),
);
await new Executeur(db, { concurrence: 1, intervalleMs: 100 }).demarrer();
