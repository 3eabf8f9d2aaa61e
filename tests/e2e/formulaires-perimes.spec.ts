import { e2eDb, expect, test } from "./fixtures";
import { inserted, openScreen, staleRound } from "./stale-forms";

/**
 * Stale list forms (issue 29, decision 0115): the labour and machinery forms, saved after someone else changed the
 * row, show the spec's stale dialog (C-ERR-01..04), then keep the typed value beside the other user's; "keep mine"
 * saves the typed value, "take theirs" puts theirs in the form. The panel comes from useListForm's `stale` wiring.
 */

test("[issue29-stale] the labour form saved after someone else changed the row: keep mine saves the typed UTH, take theirs shows theirs", async ({ page }) => {
  const { idCampagne, open } = await openScreen(page, "redacteur", "/home/description/exploitation/main_oeuvre");
  const db = e2eDb();
  const id = inserted((await db("main_oeuvre").insert({ idCampagne, libelle: "E2E MO périmée", idTypeUser: 953, uta: 1 }).returning("id"))[0]);
  try {
    await open(id);
    const uta = page.getByLabel("UTH", { exact: true });
    await expect(uta).toHaveValue("1");
    await staleRound(page, {
      input: uta,
      change: () =>
        db("main_oeuvre")
          .where({ id })
          .update({ uta: 2, updatedAt: new Date(Date.now() + 1000) }),
      mine: "3",
      line: "UTH : la vôtre 3, la leur 2",
      choose: "stale-keep",
      shotName: "main-oeuvre-perime",
    });
    await expect(uta).toHaveValue("3");
    await page.getByTestId("list-save").click();
    await expect(page.getByTestId("snackbar")).toBeVisible();
    await expect.poll(async () => Number((await db("main_oeuvre").where({ id }).first("uta")).uta)).toBe(3);

    // A second round: this time the user takes theirs.
    await staleRound(page, {
      input: uta,
      change: () =>
        db("main_oeuvre")
          .where({ id })
          .update({ uta: 4, updatedAt: new Date(Date.now() + 5000) }),
      mine: "5",
      line: "UTH : la vôtre 5, la leur 4",
      choose: "stale-take",
    });
    await expect(uta).toHaveValue("4");
    await expect(page.getByTestId("list-save")).toBeDisabled();
    expect(Number((await db("main_oeuvre").where({ id }).first("uta")).uta)).toBe(4);
  } finally {
    await db("main_oeuvre").where({ id }).delete();
  }
});

test("[issue29-stale] the machine form saved after someone else changed the row: keep mine saves the typed rent, take theirs shows theirs", async ({
  page,
}) => {
  const { idCampagne, open } = await openScreen(page, "redacteur", "/home/description/exploitation/parc_materiel");
  const db = e2eDb();
  const id = inserted(
    (
      await db("parc_materiel")
        .insert({
          idCampagne,
          libelle: "E2E Charrue périmée",
          noClasse: 2,
          noCategorie: 1,
          idCategorieMateriel: 3,
          idBasemeq: 301,
          idenBasemeq: "CHA-5",
          typePropriete: 2,
          debit: 1.2,
          coutEntretienReparation: 6,
          coutLocation: 30,
          prixNeuf: 28000,
          prixAchat: 28000,
          utilisationAnnuelle: 150,
        })
        .returning("id")
    )[0],
  );
  try {
    await open(id);
    const location = page.getByLabel("Location (€/h)", { exact: true });
    await expect(location).toHaveValue("30");
    await staleRound(page, {
      input: location,
      change: () =>
        db("parc_materiel")
          .where({ id })
          .update({ coutLocation: 35, updatedAt: new Date(Date.now() + 1000) }),
      mine: "40",
      line: "Location (€/h) : la vôtre 40, la leur 35",
      choose: "stale-keep",
      shotName: "parc-materiel-perime",
    });
    await expect(location).toHaveValue("40");
    await page.getByTestId("list-save").click();
    await expect(page.getByTestId("snackbar")).toBeVisible();
    await expect.poll(async () => Number((await db("parc_materiel").where({ id }).first("coutLocation")).coutLocation)).toBe(40);

    await staleRound(page, {
      input: location,
      change: () =>
        db("parc_materiel")
          .where({ id })
          .update({ coutLocation: 45, updatedAt: new Date(Date.now() + 5000) }),
      mine: "50",
      line: "Location (€/h) : la vôtre 50, la leur 45",
      choose: "stale-take",
    });
    await expect(location).toHaveValue("45");
    expect(Number((await db("parc_materiel").where({ id }).first("coutLocation")).coutLocation)).toBe(45);
  } finally {
    await db("parc_materiel").where({ id }).delete();
  }
});
