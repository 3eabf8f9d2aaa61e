import { describe, expect, test } from "vitest";
import { demoUser, insertUser, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { selectInContext } from "../contexte/service";
import { createCampagne, createDossier, createExploitation, grantFolder, linkFarm } from "../demo/factories";
import { campagnesChoisies, choixCampagnes } from "./selection";

const t = useTestDb();

let n = 0;

/** A folder writer of a new folder: farm A written through the folder's link, farm B only read. */
async function deuxFermes() {
  const db = t.db();
  const { oads } = t.demo();
  const username = `resultats${++n}`;
  const idDossier = await createDossier(db, { libelle: `Dossier résultats ${n}`, idOad: oads.reseauDemo });
  const idUser = await insertUser(db, { username, nom: "Résultats", prenom: "Test" });
  await grantFolder(db, idUser, idDossier, "ecriture");
  const fermeA = await createExploitation(db, { libelle: "Ferme A" });
  const fermeB = await createExploitation(db, { libelle: "Ferme B" });
  await linkFarm(db, idDossier, fermeA, "ecriture");
  await linkFarm(db, idDossier, fermeB, "lecture");
  const a2025 = await createCampagne(db, { idExploitation: fermeA, anneeRecolte: 2025 });
  const b2025 = await createCampagne(db, { idExploitation: fermeB, anneeRecolte: 2025 });
  const b2024 = await createCampagne(db, { idExploitation: fermeB, anneeRecolte: 2024, indicateurPublie: true });
  const user = await demoUser(db, username);
  await selectInContext(db, user, { intent: "oad", id: oads.reseauDemo });
  await selectInContext(db, user, { intent: "dossier", id: idDossier });
  return { db, user, idDossier, fermeA, fermeB, a2025, b2025, b2024 };
}

const campagnesDe = (choix: Awaited<ReturnType<typeof choixCampagnes>>, idExploitation: number) =>
  choix.dossiers
    .flatMap((d) => d.exploitations)
    .find((e) => e.id === idExploitation)
    ?.campagnes.map((c) => c.id) ?? null;

describe(`selection of farms and campaigns of the resultats screens (${dialect})`, () => {
  test("[A-RIGHTS-14] [A-RIGHTS-15] [A-RIGHTS-16] the calculation screen offers written farms; the raw export the read ones, published campaigns only without write; the published screen every read campaign", async () => {
    const { db, user, fermeA, fermeB, a2025, b2025, b2024 } = await deuxFermes();
    const calcul = await choixCampagnes(scopeOf(db, user), "calcul");
    expect(campagnesDe(calcul, fermeA)).toEqual([a2025]);
    expect(campagnesDe(calcul, fermeB)).toBeNull();
    const brutes = await choixCampagnes(scopeOf(db, user), "donneesBrutes");
    expect(campagnesDe(brutes, fermeA)).toEqual([a2025]);
    expect(campagnesDe(brutes, fermeB)).toEqual([b2024]);
    const indicateurs = await choixCampagnes(scopeOf(db, user), "indicateurs");
    expect(campagnesDe(indicateurs, fermeB)).toEqual([b2025, b2024]);
  });

  test("[A-RIGHTS-25] a campaign asked for outside the user's rights is refused, whatever else is asked with it", async () => {
    const { db, user, a2025, b2025 } = await deuxFermes();
    expect((await campagnesChoisies(scopeOf(db, user), "calcul", [a2025])).map((c) => c.idCampagne)).toEqual([a2025]);
    await expect(campagnesChoisies(scopeOf(db, user), "calcul", [a2025, b2025])).rejects.toMatchObject({ key: "errors.forbidden", status: 403 });
    await expect(campagnesChoisies(scopeOf(db, user), "donneesBrutes", [b2025])).rejects.toMatchObject({ key: "errors.forbidden", status: 403 });
  });
});
