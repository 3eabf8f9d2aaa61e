import { describe, expect, test } from "vitest";
import { countRows, demoUser, expectRefused, insertUser, lastAudit, snapshot, withBrokenTable, withFailingWrite, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { abilitiesFor } from "../access/abilities";
import { loadContextView, selectInContext } from "../contexte/service";
import { createDossier as insertDossier, grantFolder, linkFarm } from "../demo/factories";
import { findDossier, listFolderUsers, listVisibleUsersOfGroupe } from "./repo";
import { createDossier, deleteDossier, DROITS_ERRORS, getDossierSettings, saveFolderRights, updateDossier } from "./service";

const t = useTestDb();
const user = (name: string) => demoUser(t.db(), name);
const FOLDER_TABLES = ["dossier", "utilisateur_dossier", "dossier_exploitation", "audit"];

const ALL = { udoAnimation: true, udoEcriture: true, udoLecture: true, udoSynthese: true };
const NONE = { udoAnimation: false, udoEcriture: false, udoLecture: false, udoSynthese: false };

/** A new folder of the demo network, animated by `animateur` (through the service, as a user would). */
async function newFolder(libelle: string): Promise<number> {
  return createDossier(t.db(), await user("animateur"), { libelle, remarque: "", idOad: t.demo().oads.reseauDemo });
}

async function rightsOf(idDossier: number) {
  const rows = await listFolderUsers(t.db(), idDossier);
  return Object.fromEntries(
    rows.map((r) => [r.username, { udoAnimation: r.udoAnimation, udoEcriture: r.udoEcriture, udoLecture: r.udoLecture, udoSynthese: r.udoSynthese }]),
  );
}

describe(`folder settings (${dialect})`, () => {
  test("[A-RIGHTS-09] [A-FOLDER-01] [A-FOLDER-03] [A-FOLDER-04] [A-FOLDER-05] the folder's animators get its settings: name, remark, network, users with their rights", async () => {
    const { beauce } = t.demo().dossiers;
    for (const name of ["animateur", "admin"]) {
      const s = await getDossierSettings(t.db(), await user(name), beauce);
      expect(s.dossier).toMatchObject({
        id: beauce,
        libelle: "Groupe Grandes cultures Beauce",
        idOad: t.demo().oads.reseauDemo,
        remarque: expect.stringContaining("démonstration"),
      });
      expect(s.users?.map((u) => u.username).sort()).toEqual(["admin", "animateur", "lecteur", "redacteur", "synthese"]);
      expect(s.users?.find((u) => u.username === "animateur")).toMatchObject({ displayName: "DURAND Bruno", ...ALL });
      expect(s.users?.find((u) => u.username === "redacteur")).toMatchObject({ displayName: "LEFÈVRE Claire", ...ALL, udoAnimation: false });
      expect(s.users?.find((u) => u.username === "lecteur")).toMatchObject({
        displayName: "MOREAU David",
        udoAnimation: false,
        udoEcriture: false,
        udoLecture: true,
        udoSynthese: true,
      });
      expect(s.users?.find((u) => u.username === "synthese")).toMatchObject({ ...NONE, udoSynthese: true });
    }
  });

  test("[A-RIGHTS-09] without the animation right the settings are refused with 403 errors.forbidden and every write changes nothing", async () => {
    const { dossiers, oads } = t.demo();
    const cases: [string, number][] = [
      ["redacteur", dossiers.beauce],
      ["lecteur", dossiers.beauce],
      ["synthese", dossiers.beauce],
      ["nouveau", dossiers.beauce],
      ["admin", dossiers.bocage],
      ["redacteur", dossiers.bocage],
    ];
    const before = await snapshot(t.db(), ...FOLDER_TABLES);
    for (const [name, idDossier] of cases) {
      const u = await user(name);
      await expectRefused(getDossierSettings(t.db(), u, idDossier), "errors.forbidden", 403);
      await expectRefused(
        updateDossier(scopeOf(t.db(), u), idDossier, { libelle: "Piraté", remarque: "", idOad: oads.reseauDemo, updatedAt: new Date().toISOString() }),
        "errors.forbidden",
        403,
      );
      await expectRefused(deleteDossier(scopeOf(t.db(), u), idDossier), "errors.forbidden", 403);
      await expectRefused(saveFolderRights(scopeOf(t.db(), u), idDossier, { rows: [{ idUser: u.id, ...ALL }] }), "errors.forbidden", 403);
    }
    expect(await snapshot(t.db(), ...FOLDER_TABLES)).toEqual(before);
  });

  test("[A-FOLDER-06] [A-FOLDER-07] [A-FOLDER-08] users are sorted: synthesis holders first, then ordre, then name", async () => {
    const db = t.db();
    const idDossier = await insertDossier(db, { libelle: "Dossier tri", idOad: t.demo().oads.reseauDemo });
    const animateur = await user("animateur");
    await grantFolder(db, animateur.id, idDossier, "animation", { ordre: 3 });
    const add = async (username: string, nom: string, prenom: string, right: "ecriture" | "lecture" | "synthese" | null, ordre: number) => {
      const id = await insertUser(db, { username, nom, prenom });
      if (right) await grantFolder(db, id, idDossier, right, { ordre });
      else await db("utilisateur_dossier").insert({ idUser: id, idDossier, ...NONE, udoNominatif: true, ordre });
    };
    await add("tri-sans", "Aaron", "Zoé", null, 0); // no synthesis: last, whatever its order and name
    await add("tri-zola", "Zola", "Émile", "synthese", 2);
    await add("tri-emery", "Émery", "Anne", "lecture", 2); // É sorts with E, before Z
    await add("tri-abel", "Abel", "Paul", "ecriture", 2);
    await add("tri-martin", "Martin", "Bob", "ecriture", 1);
    const s = await getDossierSettings(db, animateur, idDossier);
    expect(s.users?.map((u) => u.displayName)).toEqual(["MARTIN Bob", "ABEL Paul", "ÉMERY Anne", "ZOLA Émile", "DURAND Bruno", "AARON Zoé"]);
  });

  test("[A-FOLDER-09] [A-RIGHTS-20] [A-RIGHTS-04] without accepted visibility the user list is not sent, and rights cannot be shared", async () => {
    const db = t.db();
    const idDossier = await insertDossier(db, { libelle: "Dossier de Nouveau", idOad: t.demo().oads.reseauDemo });
    const nouveau = await user("nouveau");
    await grantFolder(db, nouveau.id, idDossier, "animation", { ordre: 1 });
    const hidden = await getDossierSettings(db, nouveau, idDossier);
    expect(hidden.users).toBeNull();
    expect(hidden.groupes).toEqual([]);
    expect(hidden.dossier.libelle).toBe("Dossier de Nouveau");

    const before = await snapshot(db, ...FOLDER_TABLES);
    const lecteur = await user("lecteur");
    await expectRefused(
      saveFolderRights(scopeOf(db, nouveau), idDossier, { rows: [{ idUser: lecteur.id, ...NONE, udoLecture: true, udoSynthese: true }] }),
      "dossier.visibility-required",
      403,
    );
    expect(await snapshot(db, ...FOLDER_TABLES)).toEqual(before);

    // A visible animator of the same folder sees the list (with the invisible user in it).
    const animateur = await user("animateur");
    await grantFolder(db, animateur.id, idDossier, "animation", { ordre: 2 });
    const shown = await getDossierSettings(db, animateur, idDossier);
    expect(shown.users?.map((u) => u.username)).toEqual(["nouveau", "animateur"]);
  });
});

describe(`folder edit, create and delete (${dialect})`, () => {
  test("[A-FOLDER-01] an animator updates name, remark and network; a stale updatedAt is refused with errors.stale and changes nothing", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const idDossier = await newFolder("Dossier à renommer");
    const { dossier } = await getDossierSettings(db, animateur, idDossier);
    // Make sure the update gets a later timestamp than the creation.
    await new Promise((r) => setTimeout(r, 5));
    await updateDossier(scopeOf(db, animateur), idDossier, {
      libelle: "Dossier renommé",
      remarque: "Nouvelle remarque",
      idOad: t.demo().oads.international,
      updatedAt: dossier.updatedAt,
    });
    const after = await findDossier(db, idDossier);
    expect(after).toMatchObject({ libelle: "Dossier renommé", remarque: "Nouvelle remarque", idOad: t.demo().oads.international });
    expect(after!.updatedAt).not.toBe(dossier.updatedAt);
    expect(await lastAudit(db)).toMatchObject({ action: "dossier.update", idDossier, idUser: animateur.id, userLabel: "DURAND Bruno" });

    const before = await snapshot(db, ...FOLDER_TABLES);
    await expectRefused(
      updateDossier(scopeOf(db, animateur), idDossier, { libelle: "Écrasé", remarque: "", idOad: t.demo().oads.reseauDemo, updatedAt: dossier.updatedAt }),
      "errors.stale",
      409,
    );
    expect(await snapshot(db, ...FOLDER_TABLES)).toEqual(before);
    // The current version's updatedAt is accepted.
    await updateDossier(scopeOf(db, animateur), idDossier, {
      libelle: "Dossier renommé 2",
      remarque: "",
      idOad: t.demo().oads.reseauDemo,
      updatedAt: after!.updatedAt,
    });
    expect((await findDossier(db, idDossier))?.libelle).toBe("Dossier renommé 2");
  });

  test("[A-CRUD-02] any user creates a folder and becomes its animator (owner); an audit row is written", async () => {
    const db = t.db();
    const lecteur = await user("lecteur");
    const id = await createDossier(db, lecteur, { libelle: "Dossier de David", remarque: "Essai", idOad: t.demo().oads.reseauDemo });
    expect(await findDossier(db, id)).toMatchObject({ libelle: "Dossier de David", remarque: "Essai", idOad: t.demo().oads.reseauDemo });
    const rows = await listFolderUsers(db, id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ idUser: lecteur.id, ...ALL, udoProprietaire: true });
    expect((await abilitiesFor(db, lecteur, { idDossier: id })).isDoAnimation).toBe(true);
    const audit = await lastAudit(db);
    expect(audit).toMatchObject({ action: "dossier.create", entite: "dossier", idEntite: id, idDossier: id, idUser: lecteur.id, userLabel: "MOREAU David" });
    expect(audit.details).toEqual({ libelle: "Dossier de David" });
    // The trail shows in the folder settings.
    expect((await getDossierSettings(db, lecteur, id)).audit.map((a) => a.action)).toEqual(["dossier.create"]);
  });

  test("[A-CRUD-13] deleting a folder is refused with dossier.delete-orphan-farms while one of its farms has no other folder", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const before = await snapshot(db, ...FOLDER_TABLES, "exploitation", "campagne");
    // Beauce holds EARL des Tilleuls alone; GAEC du Moulin is also in Bocage.
    await expectRefused(deleteDossier(scopeOf(db, animateur), t.demo().dossiers.beauce), "dossier.delete-orphan-farms", 409, {
      params: { farms: "EARL des Tilleuls" },
    });
    await expectRefused(deleteDossier(scopeOf(db, animateur), t.demo().dossiers.bocage), "dossier.delete-orphan-farms", 409, {
      params: { farms: "Ferme de la Vallée" },
    });
    expect(await snapshot(db, ...FOLDER_TABLES, "exploitation", "campagne")).toEqual(before);
  });

  test("[A-CRUD-13] [A-CRUD-14] a folder whose farms all have another folder is deleted, its links go, the farms stay, the selection is cleared", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const { oads, exploitations } = t.demo();
    const idDossier = await newFolder("Dossier à supprimer");
    await linkFarm(db, idDossier, exploitations.moulin, "lecture");
    await selectInContext(db, animateur, { intent: "oad", id: oads.reseauDemo });
    await selectInContext(db, animateur, { intent: "dossier", id: idDossier });
    expect((await loadContextView(db, animateur)).selected.idDossier).toBe(idDossier);
    const moulinLinks = await countRows(db, "dossier_exploitation", { idExploitation: exploitations.moulin });

    await deleteDossier(scopeOf(db, animateur), idDossier);
    expect(await findDossier(db, idDossier)).toBeUndefined();
    expect(await countRows(db, "utilisateur_dossier", { idDossier })).toBe(0);
    expect(await countRows(db, "dossier_exploitation", { idDossier })).toBe(0);
    expect(await countRows(db, "exploitation", { id: exploitations.moulin })).toBe(1);
    expect(await countRows(db, "dossier_exploitation", { idExploitation: exploitations.moulin })).toBe(moulinLinks - 1);
    expect(await lastAudit(db)).toMatchObject({
      action: "dossier.delete",
      idEntite: idDossier,
      idUser: animateur.id,
      details: { libelle: "Dossier à supprimer" },
    });
    const view = await loadContextView(db, animateur);
    expect(view.selected.idDossier).toBeNull();
    expect(view.dossiers.map((d) => d.id)).not.toContain(idDossier);
  });
});

describe(`folder user rights (${dialect})`, () => {
  test("[A-FOLDER-12] [A-FOLDER-14] [A-FOLDER-15] [A-RIGHTS-04] a visible user of a group is added with the chosen rights", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const lecteur = await user("lecteur");
    const idDossier = await newFolder("Dossier partagé");
    const s = await getDossierSettings(db, animateur, idDossier);
    expect(s.groupes).toEqual(
      expect.arrayContaining([
        { idGroupe: t.demo().groupes.agriculteurs, nomGroupe: "Agriculteurs du réseau démo" },
        { idGroupe: t.demo().groupes.conseillers, nomGroupe: "Conseillers du réseau démo" },
      ]),
    );
    // The group lookup lists its visible, active users only (nouveau has not accepted visibility).
    const members = await listVisibleUsersOfGroupe(db, t.demo().groupes.agriculteurs);
    expect(members).toEqual([
      { id: (await user("synthese")).id, nom: "Garnier", prenom: "Émilie" },
      { id: lecteur.id, nom: "Moreau", prenom: "David" },
    ]);

    await saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [{ idUser: lecteur.id, ...NONE, udoLecture: true, udoSynthese: true }] });
    expect(await rightsOf(idDossier)).toEqual({ animateur: ALL, lecteur: { ...NONE, udoLecture: true, udoSynthese: true } });
    const audit = await lastAudit(db);
    expect(audit).toMatchObject({ action: "dossier.droits", idDossier, idUser: animateur.id });
    expect(audit.details.changes).toEqual([{ idUser: lecteur.id, removed: false, added: true, ...NONE, udoLecture: true, udoSynthese: true }]);
    expect((await getDossierSettings(db, animateur, idDossier)).users?.map((u) => u.username)).toEqual(["animateur", "lecteur"]);
    // The new user now sees the folder.
    expect((await abilitiesFor(db, lecteur, { idDossier })).canReadFolder).toBe(true);
  });

  test("[A-FOLDER-13] a user is removed from the folder", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const lecteur = await user("lecteur");
    const idDossier = await newFolder("Dossier à quitter");
    await saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [{ idUser: lecteur.id, ...ALL, udoAnimation: false }] });
    await saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [{ idUser: lecteur.id, ...NONE, removed: true }] });
    expect(await rightsOf(idDossier)).toEqual({ animateur: ALL });
    expect((await abilitiesFor(db, lecteur, { idDossier })).canReadFolder).toBe(false);
    expect((await lastAudit(db)).details.changes).toEqual([{ idUser: lecteur.id, removed: true, added: false }]);
  });

  test("[A-RIGHTS-04] a user who has not accepted visibility, an unknown or a disabled user cannot be added; nothing changes", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const idDossier = await newFolder("Dossier fermé");
    const disabled = await insertUser(db, { username: "ancien", nom: "Ancien", prenom: "Compte", actif: false });
    const before = await snapshot(db, ...FOLDER_TABLES);
    await expectRefused(
      saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [{ idUser: (await user("nouveau")).id, ...NONE, udoSynthese: true }] }),
      "dossier.user-not-visible",
      400,
    );
    await expectRefused(
      saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [{ idUser: 999999, ...ALL }] }),
      "errors.services.utilisateurs-create-service-error",
      404,
    );
    await expectRefused(
      saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [{ idUser: disabled, ...ALL }] }),
      "errors.services.utilisateurs-create-service-error",
      404,
    );
    expect(await snapshot(db, ...FOLDER_TABLES)).toEqual(before);
  });

  test("[A-CASC-11] saved rights are normalised with the cascade: animation gives writing, reading and synthesis; each level gives those below", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const [redacteur, lecteur, synthese] = await Promise.all([user("redacteur"), user("lecteur"), user("synthese")]);
    const idDossier = await newFolder("Dossier cascade");
    await saveFolderRights(scopeOf(db, animateur), idDossier, {
      rows: [
        { idUser: redacteur.id, ...NONE, udoAnimation: true },
        { idUser: lecteur.id, ...NONE, udoEcriture: true },
        { idUser: synthese.id, ...NONE, udoLecture: true },
      ],
    });
    expect(await rightsOf(idDossier)).toEqual({
      animateur: ALL,
      redacteur: ALL,
      lecteur: { ...ALL, udoAnimation: false },
      synthese: { ...NONE, udoLecture: true, udoSynthese: true },
    });
  });

  test("[A-CASC-15] [A-CASC-16] unticking or removing the last animator is refused with dossier.required-animator-error; the database is unchanged", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const lecteur = await user("lecteur");
    const idDossier = await newFolder("Dossier à un animateur");
    await saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [{ idUser: lecteur.id, ...NONE, udoLecture: true, udoSynthese: true }] });
    const before = await snapshot(db, ...FOLDER_TABLES);
    await expectRefused(
      saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [{ idUser: animateur.id, ...ALL, udoAnimation: false }] }),
      "dossier.required-animator-error",
      409,
    );
    await expectRefused(
      saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [{ idUser: animateur.id, ...ALL, removed: true }] }),
      "dossier.required-animator-error",
      409,
    );
    // Unticking synthesis cascades up to animation: refused the same way.
    await expectRefused(
      saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [{ idUser: animateur.id, ...NONE }] }),
      "dossier.required-animator-error",
      409,
    );
    expect(await snapshot(db, ...FOLDER_TABLES)).toEqual(before);

    // With another animator in the same save, the first one may step down.
    await saveFolderRights(scopeOf(db, animateur), idDossier, {
      rows: [
        { idUser: lecteur.id, ...ALL },
        { idUser: animateur.id, ...ALL, udoAnimation: false },
      ],
    });
    expect(await rightsOf(idDossier)).toEqual({ animateur: { ...ALL, udoAnimation: false }, lecteur: ALL });
  });

  test("[A-FOLDER-16] all modified rights are saved together: when one row is refused, none is saved", async () => {
    const db = t.db();
    const animateur = await user("animateur");
    const [redacteur, lecteur, nouveau] = await Promise.all([user("redacteur"), user("lecteur"), user("nouveau")]);
    const idDossier = await newFolder("Dossier tout ou rien");
    await saveFolderRights(scopeOf(db, animateur), idDossier, {
      rows: [
        { idUser: redacteur.id, ...ALL, udoAnimation: false },
        { idUser: lecteur.id, ...NONE, udoLecture: true, udoSynthese: true },
      ],
    });
    const before = await snapshot(db, ...FOLDER_TABLES);
    const good = [
      { idUser: redacteur.id, ...ALL }, // promoted
      { idUser: lecteur.id, ...NONE, removed: true }, // removed
      { idUser: (await user("synthese")).id, ...NONE, udoSynthese: true }, // added
    ];
    await expectRefused(
      saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [...good, { idUser: nouveau.id, ...NONE, udoSynthese: true }] }),
      "dossier.user-not-visible",
      400,
    );
    await expectRefused(
      saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [...good, { idUser: 999999, ...ALL }] }),
      "errors.services.utilisateurs-create-service-error",
      404,
    );
    await expectRefused(
      saveFolderRights(scopeOf(db, animateur), idDossier, {
        rows: [...good, { idUser: redacteur.id, ...ALL, udoAnimation: false }, { idUser: animateur.id, ...NONE, removed: true }],
      }),
      "dossier.required-animator-error",
      409,
    );
    expect(await snapshot(db, ...FOLDER_TABLES)).toEqual(before);

    // The same list without the bad row is saved as a whole.
    await saveFolderRights(scopeOf(db, animateur), idDossier, { rows: good });
    expect(await rightsOf(idDossier)).toEqual({ animateur: ALL, redacteur: ALL, synthese: { ...NONE, udoSynthese: true } });
  });

  test("[A-ERR-08] a failed load of the user groups leaves the settings usable without groups and names the failure", async () => {
    const animateur = await user("animateur");
    await withBrokenTable(t.db(), "groupe_utilisateur", async (trx) => {
      const s = await getDossierSettings(trx, animateur, t.demo().dossiers.beauce);
      expect(s.groupes).toEqual([]);
      expect(s.groupesError).toBe("errors.services.reference_groupes_utilisateurs-service-error");
      expect(s.users?.length).toBeGreaterThan(0);
    });
    expect((await getDossierSettings(t.db(), animateur, t.demo().dossiers.beauce)).groupesError).toBeNull();
  });

  test("[A-ERR-10] [A-ERR-11] [A-ERR-12] [A-ERR-13] a failed right change names its kind (added, changed, all rights taken, removed from the folder) and saves nothing", async () => {
    const db = t.db();
    const idDossier = await newFolder("Dossier des erreurs de droits");
    const animateur = await user("animateur");
    const [redacteur, lecteur] = [await user("redacteur"), await user("lecteur")];
    await saveFolderRights(scopeOf(db, animateur), idDossier, {
      rows: [
        { idUser: redacteur.id, ...NONE, udoLecture: true },
        { idUser: lecteur.id, ...NONE, udoSynthese: true },
      ],
    });
    const before = await snapshot(db, "utilisateur_dossier");
    const nouveau = await insertUser(db, { username: "droits-erreur", nom: "Erreur", prenom: "Droits", isVisible: true });
    await withFailingWrite(db, "utilisateur_dossier", "insert", (trx) =>
      expectRefused(
        saveFolderRights(scopeOf(trx, animateur), idDossier, { rows: [{ idUser: nouveau, ...NONE, udoLecture: true }] }),
        DROITS_ERRORS.creation,
        500,
      ),
    );
    await withFailingWrite(db, "utilisateur_dossier", "update", (trx) =>
      expectRefused(
        saveFolderRights(scopeOf(trx, animateur), idDossier, { rows: [{ idUser: redacteur.id, ...NONE, udoEcriture: true }] }),
        DROITS_ERRORS.modification,
        500,
      ),
    );
    await withFailingWrite(db, "utilisateur_dossier", "delete", (trx) =>
      expectRefused(saveFolderRights(scopeOf(trx, animateur), idDossier, { rows: [{ idUser: lecteur.id, ...NONE }] }), DROITS_ERRORS.retraitDroits, 500),
    );
    await withFailingWrite(db, "utilisateur_dossier", "delete", (trx) =>
      expectRefused(
        saveFolderRights(scopeOf(trx, animateur), idDossier, { rows: [{ idUser: lecteur.id, ...NONE, removed: true }] }),
        DROITS_ERRORS.retraitDossier,
        500,
      ),
    );
    expect(await snapshot(db, "utilisateur_dossier")).toEqual(before);
    // Without a failure, a user left with no right leaves the folder.
    await saveFolderRights(scopeOf(db, animateur), idDossier, { rows: [{ idUser: lecteur.id, ...NONE }] });
    expect(Object.keys(await rightsOf(idDossier)).sort()).toEqual(["animateur", "redacteur"]);
  });
});
