import { db, prepareDatabase } from "./db";
import { env } from "./env";

/** Run once by server/start.js before the server listens: settings, database, reference lists, demo data. */
export async function bootstrap(): Promise<void> {
  const settings = env();
  const result = await prepareDatabase(db(), { demo: settings.SEED_DEMO === "1" });
  if (result.migrations.length) console.log(`Migrations applied: ${result.migrations.join(", ")}`);
  if (result.demo) console.log("Demo data loaded (users admin, animateur, redacteur, lecteur, synthese, nouveau; password demo1234)");
}
