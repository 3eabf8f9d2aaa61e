import { createDb } from "./server/db/knex";
import { getInterventions } from "./server/intervention/service";
import { listInterventions } from "./server/intervention/repo";
import { getIndicateursParcelle } from "./server/calcul/service";
import { findUtilisateurByUsername, toPublic } from "./server/utilisateur/repo";
import { packRows } from "./app/components/grid/packed-rows";
const db = createDb("file:bench/.data-interventions/sillon.sqlite");
const user = toPublic((await findUtilisateurByUsername(db, "animateur"))!);
const camp = (await db("campagne as c").join("exploitation as e", "e.id", "c.idExploitation").where("e.libelle", "EARL de la Charge").first("c.id")).id;
const plots = (await db("parcelle").where({ idCampagne: camp }).pluck("id")).map(Number);
const sqlTimes = new Map<string, number>(); const starts = new Map<string, number>();
db.on("query", (q) => starts.set(q.__knexQueryUid, performance.now()));
db.on("query-response", (_r, q) => { const k = q.sql.slice(0, 90); sqlTimes.set(k, (sqlTimes.get(k) ?? 0) + performance.now() - starts.get(q.__knexQueryUid)!); });
async function time(name: string, f: () => Promise<unknown>, n = 20) { for (let i = 0; i < 3; i++) await f(); sqlTimes.clear(); const s = performance.now(); for (let i = 0; i < n; i++) await f(); console.log(name, ((performance.now() - s) / n).toFixed(1), "ms"); for (const [k, v] of [...sqlTimes].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log("   ", (v / n).toFixed(1), k); }
await time("listInterventions", () => listInterventions(db, camp, plots));
const rows = await listInterventions(db, camp, plots);
await time("packRows", async () => packRows(rows));
console.log("context needed; user's campaign:", camp);
await db.destroy();
