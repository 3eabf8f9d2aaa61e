import { describe, expect, test } from "vitest";
import { demoUser, expectRefused, insertUser } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { createCampagne, createExploitation, grantFolder, linkFarm } from "../demo/factories";
import { searchExportCampagnes } from "./export-search";

const t = useTestDb();
const user = (name: string) => demoUser(t.db(), name);
const demoUserById = async (id: number) => demoUser(t.db(), (await t.db()("utilisateur").where({ id }).first("username")).username);

/** "farm year[ label]" of each listed campaign, as the search returns them. */
const labels = (rows: Awaited<ReturnType<typeof searchExportCampagnes>>) => rows.map((c) => `${c.exploitation.libelle} ${c.libelle}`);

describe(`raw-export campaign search (${dialect})`, () => {
  test("[A-RIGHTS-14] [A-RIGHTS-15] a folder writer on a written farm finds every campaign; a folder reader finds only campaigns with published indicators", async () => {
    const db = t.db();
    const { dossiers } = t.demo();
    // Beauce: EARL des Tilleuls (animation link; 2024 published), GAEC du Moulin (write link; nothing published).
    expect(labels(await searchExportCampagnes(db, await user("redacteur"), { idDossier: dossiers.beauce }))).toEqual([
      "EARL des Tilleuls 2025",
      "EARL des Tilleuls 2025 Simulation réduction phyto",
      "EARL des Tilleuls 2024",
      "GAEC du Moulin 2025",
      "GAEC du Moulin 2024",
    ]);
    const lecteur = await searchExportCampagnes(db, await user("lecteur"), { idDossier: dossiers.beauce });
    expect(labels(lecteur)).toEqual(["EARL des Tilleuls 2024"]);
    expect(lecteur.every((c) => c.indicateurPublie)).toBe(true);
  });

  test("[A-RIGHTS-15] the rule is applied farm by farm: a read-only link lists only published campaigns, even next to a written farm", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    // Bocage: Ferme de la Vallée (animation link), GAEC du Moulin (read link). redacteur writes in Bocage.
    const redacteur = await user("redacteur");
    expect(labels(await searchExportCampagnes(db, redacteur, { idDossier: dossiers.bocage }))).toEqual(["Ferme de la Vallée 2025", "Ferme de la Vallée 2024"]);
    // Once the Moulin 2024 indicators are published, it appears through the read link; 2025 does not.
    await db("campagne").where({ id: campagnes.moulin2024 }).update({ indicateurPublie: true });
    const after = await searchExportCampagnes(db, redacteur, { idDossier: dossiers.bocage, idsExploitation: [exploitations.moulin] });
    expect(after.map((c) => c.id)).toEqual([campagnes.moulin2024]);
    expect(after[0].exploitation).toEqual({ id: exploitations.moulin, libelle: "GAEC du Moulin" });
  });

  test("[A-RIGHTS-15] a synthesis-only user finds nothing; a user without any right on the folder is refused", async () => {
    const db = t.db();
    const { dossiers } = t.demo();
    expect(await searchExportCampagnes(db, await user("synthese"), { idDossier: dossiers.beauce })).toEqual([]);
    await expectRefused(searchExportCampagnes(db, await user("lecteur"), { idDossier: dossiers.bocage }), "errors.forbidden", 403);
  });

  test("[A-RIGHTS-15] the search text and the farm filter narrow the list; a new writer of a new farm finds its unpublished campaigns", async () => {
    const db = t.db();
    const { dossiers, exploitations } = t.demo();
    const redacteur = await user("redacteur");
    expect(labels(await searchExportCampagnes(db, redacteur, { idDossier: dossiers.beauce, q: "reduction" }))).toEqual([
      "EARL des Tilleuls 2025 Simulation réduction phyto",
    ]);
    expect(labels(await searchExportCampagnes(db, redacteur, { idDossier: dossiers.beauce, q: "moulin" }))).toEqual([
      "GAEC du Moulin 2025",
      "GAEC du Moulin 2024",
    ]);
    expect(labels(await searchExportCampagnes(db, redacteur, { idDossier: dossiers.beauce, idsExploitation: [exploitations.tilleuls], q: "2024" }))).toEqual([
      "EARL des Tilleuls 2024",
    ]);

    const idExploitation = await createExploitation(db, { libelle: "Ferme neuve" });
    await linkFarm(db, dossiers.bocage, idExploitation, "ecriture");
    await createCampagne(db, { idExploitation, anneeRecolte: 2026 });
    const newcomer = await demoUserById(await insertUser(db, { username: "export-writer", nom: "Neuf", prenom: "Nina" }));
    await grantFolder(db, newcomer.id, dossiers.bocage, "ecriture");
    expect(labels(await searchExportCampagnes(db, newcomer, { idDossier: dossiers.bocage, idsExploitation: [idExploitation] }))).toEqual(["Ferme neuve 2026"]);
    await db("utilisateur_dossier").where({ idUser: newcomer.id, idDossier: dossiers.bocage }).update({ udoEcriture: false });
    expect(await searchExportCampagnes(db, newcomer, { idDossier: dossiers.bocage, idsExploitation: [idExploitation] })).toEqual([]);
  });
});
