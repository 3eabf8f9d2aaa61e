import type { Page } from "@playwright/test";
import { expect, inEnglish, navigate, test } from "./fixtures";
import { demoIds, setContext, signIn } from "./helpers";

/**
 * Every screen on a phone, 390 px wide (issue 29): a writer in French and a reader in English; no page is wider than
 * the screen (tables and grids scroll inside themselves). A failure names the screen and what sticks out.
 */
const D = "/home/description/";
const ECRANS = [
  `${D}home`,
  `${D}parametre_dossier`,
  `${D}parametre_exploitation`,
  ...[
    "cultures",
    "parcelle",
    "lot_parcelle",
    "amenagements",
    "analyse",
    "operations_culturales",
    "parc_materiel",
    "main_oeuvre",
    "description",
    "coordonnees",
    "caracteristiques_economiques",
    "caracteristiques_pedologiques",
  ].map((s) => `${D}exploitation/${s}`),
  ...["mesures", "interventions", "registre"].map((s) => `${D}au_champs/${s}`),
  ...["prix_approvisionnement", "prix_vente"].map((s) => `${D}prix/${s}`),
  ...["description_systeme", "rotation_mode_conduite", "rdd"].map((s) => `${D}protocole/${s}`),
  ...["importdaplos", "actualisation", "export"].map((s) => `/home/interoperabilite/${s}`),
  ...["donneesbrutes", "calcul", "indicateurs", "objectifs", "manquants"].map((s) => `/home/resultats/${s}`),
  "/home/profil",
];

/** The screens wider than the phone, each with the elements that stick out of a parent that does not. */
async function tropLarges(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const ecran of ECRANS) {
    await navigate(page, ecran);
    await expect(page.locator("main")).toBeVisible();
    const r = await page.evaluate(() => {
      const largeur = document.documentElement.clientWidth;
      const depassent: string[] = [];
      for (const el of Array.from(document.querySelectorAll("body *"))) {
        const b = el.getBoundingClientRect();
        const p = el.parentElement?.getBoundingClientRect();
        if (b.width > 0 && b.right > largeur + 1 && p && p.right <= largeur + 1)
          depassent.push(`${el.tagName.toLowerCase()}[${el.getAttribute("data-testid") ?? ""}] ${Math.round(b.right)}`);
      }
      return { largeur: document.documentElement.scrollWidth, depassent: depassent.slice(0, 3) };
    });
    if (r.largeur > 390) out.push(`${ecran} ${r.largeur} px: ${r.depassent.join(", ")}`);
  }
  return out;
}

test.use({ viewport: { width: 390, height: 844 } });

test("[issue29-phone] at 390 px no screen scrolls sideways, for a writer in French and a reader in English", async ({ page }) => {
  test.setTimeout(300_000);
  const ids = await demoIds();
  for (const user of ["redacteur", "lecteur"] as const)
    await setContext(user, { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await signIn(page, "redacteur");
  expect(await tropLarges(page)).toEqual([]);
  await page.context().clearCookies();
  await signIn(page, "lecteur");
  await inEnglish(page, "/home/description/home");
  expect(await tropLarges(page)).toEqual([]);
});
