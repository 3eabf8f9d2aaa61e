import { expect, navigate, test } from "./fixtures";
import { demoIds, latestFinishedSerie, setContext, signIn } from "./helpers";

/**
 * A series' explanation lists the data a figure misses (issue 24): on the campaign the context shows, each opens the
 * screen and row that fix it; on another campaign, the list says to choose that campaign first.
 */
test("[issue24-explication] the missing data of a series' figure link to the rows that fix them when the series is of the context's campaign", async ({
  page,
}) => {
  const ids = await demoIds();
  const idSerie = await latestFinishedSerie(ids.tilleuls2025);
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await signIn(page, "redacteur");
  await navigate(page, `/home/resultats/calcul/${idSerie}`);
  // Tilleuls 2025 leaves some inputs unpriced (server/demo/seed-prix.ts): its farm's gross margin misses them.
  const marges = page.getByTestId("graphique-economie.reel.margeBrute").getByTestId("barre");
  const n = await marges.count();
  expect(n).toBeGreaterThan(0);
  const dialog = page.getByTestId("explication-dialog");
  let lien = null;
  for (let i = 0; i < n && !lien; i++) {
    await marges.nth(i).click();
    await expect(dialog.getByTestId("explication-valeur")).toBeVisible();
    if (await dialog.getByTestId("manquant-correction").count()) lien = dialog.getByTestId("manquant-correction").first();
    else await dialog.getByRole("button", { name: "Fermer" }).click();
  }
  expect(lien, "a plot whose gross margin misses a datum").not.toBeNull();
  const adresse = (await lien!.getAttribute("href")) ?? "";
  expect(adresse).toMatch(/\/home\/description\//);
  await lien!.click();
  await expect(page).toHaveURL(new RegExp(adresse.replace(/^\/sillon/, "").replace(/[?]/g, "\\?")));

  // The same series seen while the context shows 2024: the missing data are text, with what to do.
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
  await navigate(page, `/home/resultats/calcul/${idSerie}`);
  for (let i = 0; i < n; i++) {
    await marges.nth(i).click();
    await expect(dialog.getByTestId("explication-valeur")).toBeVisible();
    if (await dialog.getByTestId("explication-manquants").count()) break;
    await dialog.getByRole("button", { name: "Fermer" }).click();
  }
  await expect(dialog.getByTestId("explication-manquants")).toBeVisible();
  await expect(dialog.getByTestId("manquant-correction")).toHaveCount(0);
  await expect(dialog).toContainText("choisissez la campagne de ce calcul dans la barre de contexte");
});
