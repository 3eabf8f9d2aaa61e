import { e2eDb, expect, inEnglish, navigate, test } from "./fixtures";
import { demoIds, setContext, signIn } from "./helpers";
import { inserted, openScreen, saveAndReload, staleRound } from "./stale-forms";

/**
 * Stale forms, the second round (issue 29, decision 0136): the crop-management modes form, saved after someone else
 * changed the mode, shows the stale dialog, then keeps the typed values beside the other user's; "keep mine" saves
 * them, "take theirs" starts the form again from their mode.
 */

const SCREEN = "/home/description/exploitation/cultures";

/** A mode of the campaign with one crop (the form's save needs one), removed afterwards by the caller. */
async function insertMode(idCampagne: number, libelle: string) {
  const db = e2eDb();
  await db("mode_conduite").where({ idCampagne, libelle }).delete();
  const id = inserted((await db("mode_conduite").insert({ idCampagne, libelle, aideCouplee: 10 }).returning("id"))[0]);
  const ble = await db("culture").where({ libelle: "Blé tendre d'hiver" }).first("id", "idCatCulture");
  await db("mode_conduite_culture").insert({ idModeConduite: id, idCulture: ble.id, idCatCulture: ble.idCatCulture, ordre: 1 });
  return id;
}

async function removeMode(id: number) {
  const db = e2eDb();
  await db("mode_conduite_culture").where({ idModeConduite: id }).delete();
  await db("mode_conduite").where({ id }).delete();
}

test("[issue29-stale] the crop-management form saved after someone else changed the mode: keep mine saves the typed aid, take theirs shows theirs", async ({
  page,
}) => {
  const { idCampagne, open } = await openScreen(page, "redacteur", SCREEN);
  const db = e2eDb();
  const id = await insertMode(idCampagne, "E2E Mode périmé");
  try {
    await open(id);
    const aide = page.getByLabel("Aide couplée (€/ha)");
    await expect(aide).toHaveValue("10");
    await staleRound(page, {
      input: aide,
      change: () =>
        db("mode_conduite")
          .where({ id })
          .update({ aideCouplee: 20, updatedAt: new Date(Date.now() + 1000) }),
      mine: "30",
      line: "Aide couplée (€/ha) : la vôtre 30, la leur 20",
      choose: "stale-keep",
      shotName: "cultures-perime",
    });
    await expect(aide).toHaveValue("30");
    await saveAndReload(page, aide);
    await expect.poll(async () => Number((await db("mode_conduite").where({ id }).first("aideCouplee")).aideCouplee)).toBe(30);
    // The form started again from the saved mode: still the user's value, nothing left to save.
    await expect(aide).toHaveValue("30");
    await expect(page.getByTestId("list-save")).toBeDisabled();

    // A second round: the other user renamed the mode; this time the user takes theirs.
    await staleRound(page, {
      input: aide,
      change: () =>
        db("mode_conduite")
          .where({ id })
          .update({ aideCouplee: 40, remarque: "Vu au champ", updatedAt: new Date(Date.now() + 5000) }),
      mine: "50",
      line: "Aide couplée (€/ha) : la vôtre 50, la leur 40",
      choose: "stale-take",
    });
    await expect(aide).toHaveValue("40");
    await expect(page.getByLabel("Remarque")).toHaveValue("Vu au champ");
    await expect(page.getByTestId("list-save")).toBeDisabled();
    expect(Number((await db("mode_conduite").where({ id }).first("aideCouplee")).aideCouplee)).toBe(40);
  } finally {
    await removeMode(id);
  }
});

test.describe("in English", () => {
  test("[issue29-stale] the crop-management form's stale panel in English", async ({ page }) => {
    const { idCampagne, open } = await openScreen(page, "redacteur", SCREEN);
    const db = e2eDb();
    const id = await insertMode(idCampagne, "E2E Mode périmé EN");
    try {
      await inEnglish(page, SCREEN);
      await open(id);
      const aide = page.getByLabel("Coupled aid (€/ha)");
      await expect(aide).toHaveValue("10");
      await staleRound(page, {
        input: aide,
        change: () =>
          db("mode_conduite")
            .where({ id })
            .update({ aideCouplee: 20, updatedAt: new Date(Date.now() + 1000) }),
        mine: "30",
        line: "Coupled aid (€/ha): yours 30, theirs 20",
        choose: "stale-keep",
        shotName: "cultures-perime-en",
        said: /Someone else changed/,
      });
      await saveAndReload(page, aide);
      await expect.poll(async () => Number((await db("mode_conduite").where({ id }).first("aideCouplee")).aideCouplee)).toBe(30);
    } finally {
      await removeMode(id);
    }
  });
});

test("[issue29-stale] the decision-rule form saved after someone else changed the rule: keep mine saves the typed objective, take theirs brings their modes", async ({
  page,
}) => {
  const { idCampagne, open } = await openScreen(page, "redacteur", "/home/description/protocole/rdd");
  const db = e2eDb();
  const type = await db("rdd").where({ idCampagne }).first("dicIdTypeRdd");
  const orge = await db("mode_conduite").where({ idCampagne, libelle: "Orge de printemps brassicole" }).first("id");
  await db("rdd").where({ idCampagne, libelle: "E2E Règle périmée" }).delete();
  const id = inserted(
    (
      await db("rdd")
        .insert({ idCampagne, libelle: "E2E Règle périmée", dicIdTypeRdd: type.dicIdTypeRdd, macroRegle: true, aModifier: false, objectif: "Désherber tôt" })
        .returning("id")
    )[0],
  );
  try {
    await open(id);
    const objectif = page.getByLabel("Objectif", { exact: true });
    await expect(objectif).toHaveValue("Désherber tôt");
    await staleRound(page, {
      input: objectif,
      change: () =>
        db("rdd")
          .where({ id })
          .update({ objectif: "Désherber tard", updatedAt: new Date(Date.now() + 1000) }),
      mine: "Désherber au stade 2 feuilles",
      line: "Objectif : la vôtre Désherber au stade 2 feuilles, la leur Désherber tard",
      choose: "stale-keep",
      shotName: "rdd-perime",
    });
    await saveAndReload(page, objectif);
    await expect.poll(async () => (await db("rdd").where({ id }).first("objectif")).objectif).toBe("Désherber au stade 2 feuilles");

    // The other user puts the rule on one mode (the modes live in the form's React state): taking theirs ticks it.
    await staleRound(page, {
      input: objectif,
      change: async () => {
        await db("rdd_mode_conduite").insert({ idRdd: id, idModeConduite: orge.id });
        await db("rdd")
          .where({ id })
          .update({ macroRegle: false, updatedAt: new Date(Date.now() + 5000) });
      },
      mine: "Désherber deux fois",
      line: "Modes de conduite : la vôtre Macro-règle (tous les modes), la leur Orge de printemps brassicole",
      choose: "stale-take",
    });
    const modes = page.getByTestId("rdd-modes");
    await expect(modes.getByLabel("Orge de printemps brassicole")).toBeChecked();
    await expect(modes.getByLabel("Macro-règle (tous les modes)")).not.toBeChecked();
    await expect(objectif).toHaveValue("Désherber au stade 2 feuilles");
    await expect(page.getByTestId("list-save")).toBeDisabled();
  } finally {
    await db("rdd_mode_conduite").where({ idRdd: id }).delete();
    await db("rdd").where({ id }).delete();
  }
});

test("[issue29-stale] the farm settings form saved after someone else renamed the farm: keep mine saves the typed name, take theirs shows theirs", async ({
  page,
}) => {
  const ids = await demoIds();
  const db = e2eDb();
  const before = await db("exploitation").where({ id: ids.moulin }).first("libelle", "idTypeExploitation");
  await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.moulin] });
  try {
    await signIn(page, "animateur");
    await navigate(page, "/home/description/parametre_exploitation");
    const name = page.getByTestId("farm-form").getByLabel("Nom de l'exploitation");
    await expect(name).toHaveValue("GAEC du Moulin");
    const save = page.getByRole("button", { name: "Enregistrer", exact: true });
    await staleRound(page, {
      input: name,
      change: () =>
        db("exploitation")
          .where({ id: ids.moulin })
          .update({ libelle: "GAEC du Moulin (leur nom)", updatedAt: new Date(Date.now() + 1000) }),
      mine: "GAEC du Moulin (mon nom)",
      line: "Nom de l'exploitation : la vôtre GAEC du Moulin (mon nom), la leur GAEC du Moulin (leur nom)",
      choose: "stale-keep",
      shotName: "parametre-exploitation-perime",
      save,
    });
    await expect(name).toHaveValue("GAEC du Moulin (mon nom)");
    await saveAndReload(page, name, save);
    await expect.poll(async () => (await db("exploitation").where({ id: ids.moulin }).first("libelle")).libelle).toBe("GAEC du Moulin (mon nom)");

    await staleRound(page, {
      input: name,
      change: () =>
        db("exploitation")
          .where({ id: ids.moulin })
          .update({ libelle: "GAEC du Moulin (leur second nom)", updatedAt: new Date(Date.now() + 5000) }),
      mine: "GAEC du Moulin (mon second nom)",
      line: "Nom de l'exploitation : la vôtre GAEC du Moulin (mon second nom), la leur GAEC du Moulin (leur second nom)",
      choose: "stale-take",
      save,
    });
    await expect(name).toHaveValue("GAEC du Moulin (leur second nom)");
    expect((await db("exploitation").where({ id: ids.moulin }).first("libelle")).libelle).toBe("GAEC du Moulin (leur second nom)");
  } finally {
    await db("exploitation").where({ id: ids.moulin }).update(before);
  }
});

test("[issue29-stale] the farm coordinates saved after someone else changed them: keep mine saves the typed name, take theirs shows theirs", async ({
  page,
}) => {
  await openScreen(page, "redacteur", "/home/description/exploitation/coordonnees");
  const db = e2eDb();
  const farm = await db("exploitation").where({ libelle: "EARL des Tilleuls" }).first("id", "nom");
  try {
    await navigate(page, "/home/description/exploitation/coordonnees");
    const nom = page.getByLabel("Nom", { exact: true });
    await expect(nom).toHaveValue(farm.nom ?? "");
    const save = page.getByTestId("save-coordonnees");
    await staleRound(page, {
      input: nom,
      change: () =>
        db("exploitation")
          .where({ id: farm.id })
          .update({ nom: "Leur nom", updatedAt: new Date(Date.now() + 1000) }),
      mine: "Mon nom",
      line: "Nom : la vôtre Mon nom, la leur Leur nom",
      choose: "stale-keep",
      save,
    });
    await saveAndReload(page, nom, save);
    await expect.poll(async () => (await db("exploitation").where({ id: farm.id }).first("nom")).nom).toBe("Mon nom");

    await staleRound(page, {
      input: nom,
      change: () =>
        db("exploitation")
          .where({ id: farm.id })
          .update({ nom: "Leur second nom", updatedAt: new Date(Date.now() + 5000) }),
      mine: "Mon second nom",
      line: "Nom : la vôtre Mon second nom, la leur Leur second nom",
      choose: "stale-take",
      save,
    });
    await expect(nom).toHaveValue("Leur second nom");
    expect((await db("exploitation").where({ id: farm.id }).first("nom")).nom).toBe("Leur second nom");
  } finally {
    await db("exploitation").where({ id: farm.id }).update({ nom: farm.nom });
  }
});

test("[issue29-stale] the economic characteristics saved after someone else changed them: keep mine saves the typed MSA, take theirs shows theirs", async ({
  page,
}) => {
  const { idCampagne } = await openScreen(page, "redacteur", "/home/description/exploitation/caracteristiques_economiques");
  const db = e2eDb();
  const before = await db("caracteristique").where({ idCampagne }).select();
  await db("caracteristique").where({ idCampagne }).delete();
  await db("caracteristique").insert({ idCampagne, cotisationMsa: 5000 });
  try {
    await navigate(page, "/home/description/exploitation/caracteristiques_economiques");
    const msa = page.getByLabel("Cotisations MSA (€)");
    await expect(msa).toHaveValue("5000");
    const save = page.getByTestId("save-caracteristiques");
    await staleRound(page, {
      input: msa,
      change: () =>
        db("caracteristique")
          .where({ idCampagne })
          .update({ cotisationMsa: 6000, updatedAt: new Date(Date.now() + 1000) }),
      mine: "7000",
      line: "Cotisations MSA : la vôtre 7000, la leur 6000",
      choose: "stale-keep",
      save,
    });
    await saveAndReload(page, msa, save);
    await expect.poll(async () => Number((await db("caracteristique").where({ idCampagne }).first("cotisationMsa")).cotisationMsa)).toBe(7000);

    await staleRound(page, {
      input: msa,
      change: () =>
        db("caracteristique")
          .where({ idCampagne })
          .update({ cotisationMsa: 8000, updatedAt: new Date(Date.now() + 5000) }),
      mine: "9000",
      line: "Cotisations MSA : la vôtre 9000, la leur 8000",
      choose: "stale-take",
      save,
    });
    await expect(msa).toHaveValue("8000");
    expect(Number((await db("caracteristique").where({ idCampagne }).first("cotisationMsa")).cotisationMsa)).toBe(8000);
  } finally {
    await db("caracteristique").where({ idCampagne }).delete();
    if (before.length) await db("caracteristique").insert(before);
  }
});

test("[issue29-stale] the soil characteristics saved after someone else changed them: keep mine saves the typed depth, take theirs shows theirs", async ({
  page,
}) => {
  await openScreen(page, "redacteur", "/home/description/exploitation/caracteristiques_pedologiques");
  const db = e2eDb();
  const farm = await db("exploitation").where({ libelle: "EARL des Tilleuls" }).first("id", "profondeurSolCm");
  const save = async () => {
    await page.getByTestId("save-sol").click();
    // Saving asks where the soil values go: the farm only (the dialog's default).
    await page.getByTestId("replication-dialog").getByTestId("replication-confirm").click();
  };
  try {
    await db("exploitation").where({ id: farm.id }).update({ profondeurSolCm: 60 });
    await navigate(page, "/home/description/exploitation/caracteristiques_pedologiques");
    const depth = page.getByLabel("Profondeur du sol (cm)");
    await expect(depth).toHaveValue("60");
    await staleRound(page, {
      input: depth,
      change: () =>
        db("exploitation")
          .where({ id: farm.id })
          .update({ profondeurSolCm: 70, updatedAt: new Date(Date.now() + 1000) }),
      mine: "80",
      line: "Profondeur du sol : la vôtre 80, la leur 70",
      choose: "stale-keep",
      save,
    });
    await saveAndReload(page, depth, save);
    await expect.poll(async () => Number((await db("exploitation").where({ id: farm.id }).first("profondeurSolCm")).profondeurSolCm)).toBe(80);

    await staleRound(page, {
      input: depth,
      change: () =>
        db("exploitation")
          .where({ id: farm.id })
          .update({ profondeurSolCm: 90, updatedAt: new Date(Date.now() + 5000) }),
      mine: "100",
      line: "Profondeur du sol : la vôtre 100, la leur 90",
      choose: "stale-take",
      save,
    });
    await expect(depth).toHaveValue("90");
    expect(Number((await db("exploitation").where({ id: farm.id }).first("profondeurSolCm")).profondeurSolCm)).toBe(90);
  } finally {
    await db("exploitation").where({ id: farm.id }).update({ profondeurSolCm: farm.profondeurSolCm });
  }
});
