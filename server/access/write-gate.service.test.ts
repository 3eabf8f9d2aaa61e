import { describe, expect, test } from "vitest";
import { MainOeuvreSchema } from "~/domain/main-oeuvre";
import { ParcMaterielSchema } from "~/domain/parc-materiel";
import { countRows, demoUser, expectRefused, insertUser, snapshot, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { deleteCampagne, setScenarios } from "../campagne/service";
import { findContexte, saveContexte } from "../contexte/repo";
import { selectInContext } from "../contexte/service";
import { createCampagne, createDossier, createExploitation, farmRightFlags, folderRightFlags, grantFolder, linkFarm } from "../demo/factories";
import { saveCoordonnees, saveDescription } from "../exploitation-description/service";
import { saveMainOeuvre } from "../main-oeuvre/service";
import { removeParcMateriels, saveParcMateriel } from "../parc-materiel/service";
import { getParcelles, removeParcelles, saveParcelle } from "../parcelle/service";
import type { Utilisateur } from "../utilisateur/repo";
import { campaignContext, ensureWrite } from "./description";

/**
 * The write gate (issue 10, defects 1 and 2): every write is decided from the farm that owns the row, with its
 * campaign's lock; never from the combined right of the farms selected together.
 */
const t = useTestDb();

const FOLDER_RIGHTS = ["synthese", "lecture", "ecriture", "animation"] as const;
const FARM_RIGHTS = ["aucun", "synthese", "lecture", "ecriture", "animation"] as const;
type FarmLevel = (typeof FARM_RIGHTS)[number];
type FolderLevel = (typeof FOLDER_RIGHTS)[number];

const NO_FARM_FLAGS = { dexSynthese: false, dexLecture: false, dexEcriture: false, dexAnimation: false };
const farmFlags = (r: FarmLevel) => (r === "aucun" ? NO_FARM_FLAGS : farmRightFlags(r));
const writes = (r: FolderLevel | FarmLevel) => r === "ecriture" || r === "animation";

/** What a call gave: done, refused with 403 errors.forbidden, or no campaign to write (the 412 of the layout). */
async function outcome(call: Promise<unknown>): Promise<"ok" | "403" | "412"> {
  try {
    await call;
    return "ok";
  } catch (e) {
    const err = e as { key?: string; status?: number; init?: { status?: number } };
    if (err.key === "errors.forbidden" && err.status === 403) return "403";
    if (err.init?.status === 412) return "412";
    throw e;
  }
}

const LABOUR = MainOeuvreSchema.parse({ libelle: "Salarié", idTypeUser: "951", uta: "1" });

describe(`write gate: two farms in one context (${dialect})`, () => {
  test("[issue10-1] [A-RIGHTS-03] [A-RIGHTS-07] [B-RIGHTS-01] for every folder right and every pair of rights on farms A and B selected together, writes to a campaign of B follow B's right only", async () => {
    const db = t.db();
    const { oads } = t.demo();
    const idDossier = await createDossier(db, { libelle: "Dossier matrice", idOad: oads.reseauDemo });
    const idUser = await insertUser(db, { username: "matrice", nom: "Matrice", prenom: "Test" });
    const folderLink = await grantFolder(db, idUser, idDossier, "ecriture");
    const farmA = await createExploitation(db, { libelle: "Ferme A" });
    const farmB = await createExploitation(db, { libelle: "Ferme B" });
    const linkA = await linkFarm(db, idDossier, farmA, "ecriture");
    const linkB = await linkFarm(db, idDossier, farmB, "ecriture");
    await createCampagne(db, { idExploitation: farmA, anneeRecolte: 2025 });
    const campagneB = await createCampagne(db, { idExploitation: farmB, anneeRecolte: 2025 });
    const user = await demoUser(db, "matrice");

    const seen: string[] = [];
    for (const folder of FOLDER_RIGHTS) {
      await db("utilisateur_dossier").where({ id: folderLink }).update(folderRightFlags(folder));
      for (const a of FARM_RIGHTS) {
        await db("dossier_exploitation").where({ id: linkA }).update(farmFlags(a));
        for (const b of FARM_RIGHTS) {
          await db("dossier_exploitation").where({ id: linkB }).update(farmFlags(b));
          // The context as the bar leaves it: both farms, the campaign of B (a farm without any right drops out).
          await saveContexte(db, {
            ...(await findContexte(db, idUser)),
            idOad: oads.reseauDemo,
            idDossier,
            exploitations: [farmA, farmB],
            idCampagne: campagneB,
            idCampagneDeverrouillee: null,
          });
          const allowed = writes(folder) && writes(b);
          const expected = allowed ? "ok" : b === "aucun" ? "412" : "403";
          const label = `folder ${folder}, A ${a}, B ${b}`;
          const before = await countRows(db, "main_oeuvre", { idCampagne: campagneB });
          const got = await outcome(saveMainOeuvre(scopeOf(db, user), LABOUR));
          seen.push(`${label}: ${got}`);
          expect(`${label}: ${got}`).toBe(`${label}: ${expected}`);
          expect(await countRows(db, "main_oeuvre", { idCampagne: campagneB })).toBe(before + (allowed ? 1 : 0));
          if (b !== "aucun") {
            // The screens grey out with the same answer; the gate, asked directly, agrees.
            expect((await campaignContext(scopeOf(db, user))).abilities.canWriteDescriptif, label).toBe(allowed);
            expect(await outcome(ensureWrite(scopeOf(db, user), { dossier: idDossier, campagne: campagneB })), label).toBe(allowed ? "ok" : "403");
          }
        }
      }
    }
    expect(seen).toHaveLength(FOLDER_RIGHTS.length * FARM_RIGHTS.length * FARM_RIGHTS.length);
  });

  test("[issue10-1] [B-RIGHTS-01] a folder writer whose folder only reads farm B selects A (writable) and B together: every description write to B is refused and nothing changes", async () => {
    const db = t.db();
    const { oads, dossiers, exploitations, campagnes } = t.demo();
    // Bocage: Ferme de la Vallée with animation, GAEC du Moulin with read only.
    const u = await demoUser(db, "redacteur");
    await selectInContext(db, u, { intent: "oad", id: oads.reseauDemo });
    await selectInContext(db, u, { intent: "dossier", id: dossiers.bocage });
    await selectInContext(db, u, { intent: "exploitations", ids: [exploitations.vallee, exploitations.moulin] });
    await selectInContext(db, u, { intent: "campagne", id: campagnes.moulin2025 });
    const ctx = await campaignContext(scopeOf(db, u));
    // The context bar keeps the highest right among the farms (A-RIGHTS-03); the campaign of B is read-only.
    expect(ctx.view.abilities.isDoEcritureExEcriture).toBe(true);
    expect(ctx.abilities.canWriteDescriptif).toBe(false);
    expect((await getParcelles(scopeOf(db, u))).canWrite).toBe(false);

    const TABLES = ["exploitation", "caracteristique", "parcelle", "parc_materiel", "main_oeuvre", "audit"];
    const before = await snapshot(db, ...TABLES);
    const plot = await db("parcelle").where({ idCampagne: campagnes.moulin2025 }).first("id");
    const machine = {
      libelle: "Tracteur",
      noClasse: "1",
      idCategorieMateriel: "1",
      idBasemeq: "101",
      typePropriete: "0",
      copropriete: "100",
      puissance: "100",
      prixNeuf: "75000",
      prixAchat: "75000",
      utilisationAnnuelle: "500",
    };
    const calls: [string, () => Promise<unknown>][] = [
      ["description", () => saveDescription(scopeOf(db, u), { strategie: "Intrusion" }, { farm: new Date().toISOString(), caracteristique: null })],
      ["coordinates", () => saveCoordonnees(scopeOf(db, u), { nom: "Intrus" }, new Date().toISOString())],
      ["plot created", () => saveParcelle(scopeOf(db, u), { libelle: "Parcelle intruse", surface: 1 })],
      ["labour", () => saveMainOeuvre(scopeOf(db, u), LABOUR)],
      ["machinery", () => saveParcMateriel(scopeOf(db, u), ParcMaterielSchema.parse(machine))],
      ["machinery deleted", () => removeParcMateriels(scopeOf(db, u), [1])],
    ];
    if (plot) calls.push(["plot deleted", () => removeParcelles(scopeOf(db, u), [Number(plot.id)])]);
    for (const [what, call] of calls) expect(`${what}: ${await outcome(call())}`).toBe(`${what}: 403`);
    expect(await snapshot(db, ...TABLES)).toEqual(before);

    // The same writer on Vallée (animation link) in the same context writes.
    await selectInContext(db, u, { intent: "campagne", id: campagnes.vallee2025 });
    expect((await campaignContext(scopeOf(db, u))).abilities.canWriteDescriptif).toBe(true);
    await saveMainOeuvre(scopeOf(db, u), LABOUR);
  });
});

describe(`write gate: the lock (${dialect})`, () => {
  async function farmWriter(): Promise<{ u: Utilisateur; ctx: { idDossier: number; idExploitation: number } }> {
    const { dossiers, exploitations } = t.demo();
    return { u: await demoUser(t.db(), "redacteur"), ctx: { idDossier: dossiers.beauce, idExploitation: exploitations.moulin } };
  }

  test("[issue10-2] [A-LOCK-01] [B-RIGHTS-02] a campaign whose series is validated cannot be deleted through the farm settings, by a writer or an animator; nothing changes", async () => {
    const db = t.db();
    const { ctx } = await farmWriter();
    const id = await createCampagne(db, { idExploitation: ctx.idExploitation, anneeRecolte: 2019, serieValide: true });
    for (const who of ["redacteur", "animateur"]) {
      const u = await demoUser(db, who);
      const before = await snapshot(db, "campagne", "audit");
      await expectRefused(deleteCampagne(scopeOf(db, u), ctx, id), "errors.forbidden", 403);
      expect(await snapshot(db, "campagne", "audit")).toEqual(before);
    }
    // Nor can it become a simulation (its flag is written too).
    const u = await demoUser(db, "redacteur");
    const sim = await createCampagne(db, { idExploitation: ctx.idExploitation, anneeRecolte: 2019, simulation: true });
    await expectRefused(
      setScenarios(scopeOf(db, u), ctx, [
        { id, simulation: true },
        { id: sim, simulation: false },
      ]),
      "errors.forbidden",
      403,
    );
    expect(await countRows(db, "campagne", { id })).toBe(1);
  });

  test("[issue10-2] [A-LOCK-02] [A-LOCK-04] a campaign with published indicators is deleted only once the user unlocked it; an unlocked campaign is deleted", async () => {
    const db = t.db();
    const { u, ctx } = await farmWriter();
    const id = await createCampagne(db, { idExploitation: ctx.idExploitation, anneeRecolte: 2018, indicateurPublie: true });
    await expectRefused(deleteCampagne(scopeOf(db, u), ctx, id), "errors.forbidden", 403);
    expect(await countRows(db, "campagne", { id })).toBe(1);
    // The unlock of the farm settings (the user's own, for the selected campaign).
    await saveContexte(db, { ...(await findContexte(db, u.id)), idCampagne: id, idCampagneDeverrouillee: id });
    await deleteCampagne(scopeOf(db, u), ctx, id);
    expect(await countRows(db, "campagne", { id })).toBe(0);
    // An ordinary campaign is deleted as before.
    const free = await createCampagne(db, { idExploitation: ctx.idExploitation, anneeRecolte: 2017 });
    await deleteCampagne(scopeOf(db, u), ctx, free);
    expect(await countRows(db, "campagne", { id: free })).toBe(0);
  });

  test("[issue10-2] a campaign of another farm is not found through this farm's settings", async () => {
    const db = t.db();
    const { u, ctx } = await farmWriter();
    await expectRefused(deleteCampagne(scopeOf(db, u), ctx, t.demo().campagnes.tilleuls2025), "errors.services.campagnes-service-error", 404);
    // And a reader of the folder is refused before anything is looked up.
    await expectRefused(deleteCampagne(scopeOf(db, await demoUser(db, "lecteur")), ctx, t.demo().campagnes.moulin2025), "errors.forbidden", 403);
  });
});
