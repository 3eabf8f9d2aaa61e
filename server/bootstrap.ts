import { db } from "./db";
import { prepareDatabase } from "./prepare-database";
import { env, mapConfig, trustProxy } from "./env";
import { purgeOrphanFiles } from "./observation/files";
import { marquerSeriesInterrompues } from "./calcul-serie/service";

/** Run once by server/start.js before the server listens: settings, database, reference lists, demo data. */
export async function bootstrap(): Promise<void> {
  const settings = env();
  const result = await prepareDatabase(db(), { demo: settings.SEED_DEMO === "1" });
  if (result.migrations.length) console.log(`Migrations applied: ${result.migrations.join(", ")}`);
  if (result.demo) console.log("Demo data loaded (users admin, animateur, redacteur, lecteur, synthese, nouveau; password demo1234)");
  const interrompues = await marquerSeriesInterrompues(db());
  if (interrompues) console.log(`Calculation series left running by a stop marked failed: ${interrompues}`);
  const orphans = await purgeOrphanFiles(db());
  if (orphans) console.log(`Attached files without their series removed: ${orphans}`);
}

/** What the HTTP edge of server/start.js needs from the settings (docs/decisions/0020-http-edge.md). */
export function edgeSettings(): { trustProxy: boolean; tileOrigins: string[]; formTargets: string[]; logLevel: string } {
  const map = mapConfig();
  const settings = env();
  return {
    trustProxy: trustProxy(),
    tileOrigins: [map.imageryTiles, map.labelsTiles].map(originOf).filter((o): o is string => !!o),
    // The actualisation page is reached by a form of the app (app/routes/api/actualisation.ts).
    formTargets: [originOf(settings.ACTUALISATION_URL)].filter((o): o is string => !!o),
    logLevel: settings.LOG_LEVEL,
  };
}

/** The origin of an address or tile template ({z}/{x}/{y} placeholders allowed), or null. */
function originOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url.replace(/[{}]/g, "")).origin;
  } catch {
    return null;
  }
}
