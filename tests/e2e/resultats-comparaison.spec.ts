import { mkdirSync } from "node:fs";
import { formatNumber, formatPercent } from "../../app/components/format";
import { e2eDb, expect, navigate, test } from "./fixtures";
import { demoIds, latestFinishedSerie, noSeriousAxeViolationInMain, setContext, signIn } from "./helpers";

/**
 * Campaign against simulation (issue 14, beyond; decision 0069): from the detail of the demo's 2025 series of EARL des
 * Tilleuls, a writer opens the comparison with its simulation 'Simulation réduction phyto' (both series seeded by the
 * series service, server/demo/seed-series.ts): the farm-level IFT row shows both stored figures in French format, the
 * difference in value and % with its direction in words; a crop level too. A side without a finished calculation is
 * named with the link to the calculation screen.
 */
const SHOTS = "/tmp/shots-resultats-comparaison";
mkdirSync(SHOTS, { recursive: true });

async function valeur(idCalculSerie: number, niveau: string, idEntite: string | number, code: string) {
  const r = await e2eDb()("calcul_resultat")
    .where({ idCalculSerie, niveau, idEntite: String(idEntite), code })
    .first("valeur", "completude");
  return { valeur: Number(r.valeur), completude: Number(r.completude) };
}

test("[issue14-comparaison] a writer opens the comparison of EARL des Tilleuls 2025 with its simulation from the series detail: stored figures, differences in value and %, completeness; a missing series is named with the calculation link", async ({
  page,
}) => {
  const ids = await demoIds();
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  const idBase = await latestFinishedSerie(ids.tilleuls2025);
  const idSim = await latestFinishedSerie(ids.tilleulsSimulation);
  await signIn(page, "redacteur");
  await navigate(page, `/home/resultats/calcul/${idBase}`);
  await page.getByRole("link", { name: "Comparer la campagne et sa simulation" }).click();
  await expect(page.getByTestId("screen-comparaison")).toBeVisible();
  await expect(page.getByTestId("cote-simulation")).toContainText("Simulation réduction phyto");

  const table = page.getByRole("table", { name: /Comparaison Exploitation/ });
  const b = await valeur(idBase, "exploitation", ids.tilleuls, "ift.cible.total");
  const s = await valeur(idSim, "exploitation", ids.tilleuls, "ift.cible.total");
  const ecart = s.valeur - b.valeur;
  const row = table.getByRole("row", { name: /^IFT total \(à la cible\)/ });
  await expect(row.getByTestId("valeur-campagne")).toHaveText(formatNumber(b.valeur, "fr", 2));
  await expect(row.getByTestId("valeur-simulation")).toHaveText(formatNumber(s.valeur, "fr", 2));
  await expect(row.getByTestId("completude-campagne")).toContainText(`${formatNumber(b.completude, "fr", 0)} %`);
  const sens = ecart > 0 ? "hausse" : ecart < 0 ? "baisse" : "égal";
  await expect(row.getByTestId("ecart")).toContainText(`${ecart > 0 ? "+" : ""}${formatNumber(ecart, "fr", 2)}`);
  await expect(row.getByTestId("ecart")).toContainText(sens);
  await expect(row.getByTestId("ecart-pct")).toHaveText(`${ecart > 0 ? "+" : ""}${formatPercent((ecart / Math.abs(b.valeur)) * 100, "fr", 1)}`);
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/comparaison-exploitation.png`, fullPage: true });
  await page.screenshot({ path: `${SHOTS}/comparaison-haut.png` });

  // A crop level: the table's caption follows, rows of that crop only.
  const niveau = page.getByLabel("Niveau");
  const options = await niveau.locator("option").allTextContents();
  const culture = options.find((o) => o.startsWith("Culture : "))!;
  await niveau.selectOption({ label: culture });
  await expect(
    page
      .getByRole("table", { name: new RegExp(`Comparaison ${culture.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) })
      .getByRole("row", { name: /^IFT total \(à la cible\)/ }),
  ).toBeVisible();
  await page.getByLabel("Groupe d'indicateurs").selectOption({ label: "Économie" });
  await expect(page.getByTestId("comparaison-groupe-1")).toHaveCount(0);
  await noSeriousAxeViolationInMain(page);
  await page.screenshot({ path: `${SHOTS}/comparaison-culture-economie.png`, fullPage: true });

  // The simulation without a finished calculation: named, with the link to the calculation screen.
  const db = e2eDb();
  await db("calcul_serie").where({ idCampagne: ids.tilleulsSimulation, statut: "termine" }).update({ statut: "erreur" });
  try {
    await page.reload();
    await expect(page.getByTestId("serie-absente")).toContainText("Simulation réduction phyto");
    await expect(page.getByTestId("table-comparaison")).toHaveCount(0);
    await noSeriousAxeViolationInMain(page);
    await page.screenshot({ path: `${SHOTS}/comparaison-sans-serie.png`, fullPage: true });
    await page.getByTestId("lien-calcul").click();
    await expect(page).toHaveURL(new RegExp(`/home/resultats/calcul\\?campagne=${ids.tilleulsSimulation}`));
  } finally {
    await db("calcul_serie").where({ id: idSim }).update({ statut: "termine" });
  }
});
