import { e2eDb, expect, test, waitForHydration } from "./fixtures";
import { openPlots, parcelleRow } from "./parcelle-screen";

/** Issue 10, defect 9: editing a plot keeps its commune (the commune picker takes its stored value once its department's communes arrive). */

test("[issue10-9] [B-MAP-01] [B-MAP-07] editing another field of a plot keeps its commune and INSEE code", async ({ page }) => {
  const c2025 = await openPlots(page, "redacteur");
  const db = e2eDb();
  const vallee = await db("parcelle").where({ idCampagne: c2025, libelle: "La Vallée Sèche" }).first("id", "codeInsee", "codePostal", "remarque", "updatedAt");
  expect(vallee.codeInsee).toBe("28035");
  try {
    await parcelleRow(page, "La Vallée Sèche").getByText("La Vallée Sèche", { exact: true }).click();
    const form = page.getByTestId("parcelle-form");
    await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("La Vallée Sèche");
    await form.locator("summary", { hasText: "Données géographiques" }).click();
    const geodata = page.getByTestId("geodata-panel");
    await expect(geodata.getByTestId("select-departement")).toHaveValue("28");
    // The department's communes have arrived: the stored commune is chosen among them.
    await expect(geodata.getByTestId("select-commune")).toBeEnabled();
    await expect(geodata.getByTestId("select-commune")).toHaveValue("28035");
    await expect(geodata.getByTestId("code-insee")).toHaveValue("28035");
    await page.getByLabel("Remarque", { exact: true }).fill("E2E remarque commune");
    await page.getByTestId("list-save").click();
    await expect(page.getByTestId("snackbar")).toHaveText("Modification effectuée");
    await expect
      .poll(async () => {
        const r = await db("parcelle").where({ id: vallee.id }).first("codeInsee", "codePostal", "remarque");
        return [r.codeInsee, r.codePostal, r.remarque];
      })
      .toEqual(["28035", vallee.codePostal, "E2E remarque commune"]);
    // Reopened (a fresh page), the plot still shows its commune and codes.
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("La Vallée Sèche");
    await page.getByTestId("parcelle-form").locator("summary", { hasText: "Données géographiques" }).click();
    await expect(page.getByTestId("select-commune")).toBeEnabled();
    await expect(page.getByTestId("select-commune")).toHaveValue("28035");
    await expect(page.getByTestId("code-insee")).toHaveValue("28035");
    await expect(page.getByTestId("code-postal")).toHaveValue(vallee.codePostal);
  } finally {
    await db("parcelle").where({ id: vallee.id }).update({ codeInsee: vallee.codeInsee, codePostal: vallee.codePostal, remarque: vallee.remarque });
  }
});
