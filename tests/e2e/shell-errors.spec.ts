import { e2eDb, expect, inEnglish, navigate, resetContext, test } from "./fixtures";
import { demoIds, setContext, signIn } from "./helpers";

/**
 * The shell around failures (issue 10): a failed screen, an unknown address, a resource route typed in the
 * browser, a screen the reader may not open, and read-only screens that say why.
 */

const shellIsThere = async (page: import("@playwright/test").Page) => {
  await expect(page.getByTestId("app-header")).toBeVisible();
  await expect(page.getByRole("button", { name: /Documentation/ })).toBeVisible();
};

test.describe("errors inside the shell", () => {
  test.afterAll(async () => {
    await resetContext("lecteur");
    await resetContext("animateur");
  });

  test("[issue10-docs] an unknown /home address shows the not-found page inside the shell, in the user's language", async ({ page }) => {
    await signIn(page, "lecteur");
    await navigate(page, "/home/description/exploitation/nimporte-quoi");
    await shellIsThere(page);
    const error = page.getByTestId("route-error");
    await expect(error).toHaveAttribute("data-status", "404");
    await expect(error.getByRole("heading", { name: "Page introuvable" })).toBeVisible();
    await expect(error).toContainText("Cette adresse ne correspond à aucune page de Sillon.");
    await inEnglish(page, "/home/pas-de-page");
    await shellIsThere(page);
    await expect(page.getByTestId("route-error").getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByTestId("route-error")).toContainText("This address matches no page of Sillon.");
    // The way back home works.
    await page.getByTestId("route-error-home").click();
    await expect(page).toHaveURL(/\/sillon\/home\/description\/home$/);
    await expect(page.getByTestId("home-page")).toBeVisible();
  });

  test("[issue10-docs] a screen whose loading fails keeps the header, the menu and the context bar, and says so", async ({ page, browserErrors }) => {
    browserErrors.allow(/status of 500/);
    const ids = await demoIds();
    await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
    await signIn(page, "lecteur");
    // The machinery table gone: the screen's loader fails (500).
    await e2eDb().raw("ALTER TABLE parc_materiel RENAME TO parc_materiel_absent");
    try {
      await navigate(page, "/home/description/exploitation/parc_materiel");
      await shellIsThere(page);
      await expect(page.getByTestId("context-bar")).toBeVisible();
      await expect(page.getByTestId("drawer")).toBeVisible();
      const error = page.getByTestId("route-error");
      await expect(error).toHaveAttribute("data-status", "500");
      await expect(error.getByRole("heading", { name: "Une erreur est survenue" })).toBeVisible();
      await expect(error).toContainText("Veuillez réessayer plus tard");
      // Another screen opens from the menu that stayed.
      await page.getByTestId("drawer").getByRole("link", { name: "Coordonnées" }).click();
      await expect(page.getByTestId("screen-coordonnees")).toBeVisible();
    } finally {
      await e2eDb().raw("ALTER TABLE parc_materiel_absent RENAME TO parc_materiel");
    }
  });

  test("[issue10-docs] resource routes typed in the browser open the screen they belong to, not raw JSON", async ({ page }) => {
    await signIn(page, "lecteur");
    for (const [typed, lands, testId] of [
      ["/home/description/exploitation/parcelle/import", /\/home\/description\/exploitation\/parcelle$/, null],
      ["/home/contexte", /\/home\/description\/home$/, "home-page"],
      ["/home/partage", /\/home\/description\/home$/, "home-page"],
      ["/locale", /\/home\/description\/home$/, "home-page"],
    ] as const) {
      await navigate(page, typed);
      await expect(page).toHaveURL(lands);
      await shellIsThere(page);
      if (testId) await expect(page.getByTestId(testId)).toBeVisible();
      expect(await page.locator("body").innerText()).not.toMatch(/^\s*[{[]/);
    }
    // Asked for a page (Accept text/html, no Sec-Fetch headers): a redirect to the screen, not JSON.
    const typed = await page.request.get("home/contexte", { headers: { Accept: "text/html" }, maxRedirects: 0 });
    expect(typed.status()).toBe(302);
    expect(typed.headers().location).toMatch(/\/home\/description\/home$/);
  });
});

test.describe("sent away, and read-only causes", () => {
  test.afterAll(async () => {
    await resetContext("lecteur");
    await resetContext("animateur");
  });

  test("[issue10-docs] [A-ROUTE-08] [A-ROUTE-10] a reader sent away from the settings screens is told why on the page he lands on", async ({ page }) => {
    const ids = await demoIds();
    await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls] });
    await signIn(page, "lecteur");
    await navigate(page, "/home/description/parametre_dossier");
    await expect(page).toHaveURL(/\/home\/description\/home\?refus=/);
    await expect(page.getByTestId("sent-away")).toContainText("Les paramètres du dossier ne sont accessibles qu'à un animateur du dossier sélectionné");
    await navigate(page, "/home/description/parametre_exploitation");
    await expect(page.getByTestId("sent-away")).toContainText(
      "Les paramètres de l'exploitation demandent une exploitation sélectionnée et le droit de gérer cette exploitation.",
    );
    await page.getByTestId("sent-away").getByRole("button", { name: "Fermer ce message" }).click();
    await expect(page.getByTestId("sent-away")).toHaveCount(0);
    await expect(page).toHaveURL(/\/home\/description\/home$/);
    // The administration, for a non-admin.
    await navigate(page, "/home/admin/utilisateurs");
    await expect(page.getByTestId("sent-away")).toContainText("L'administration est réservée aux administrateurs.");
    await inEnglish(page, "/home/description/parametre_dossier");
    await expect(page.getByTestId("sent-away")).toContainText("Folder settings are open only to an animator of the selected folder");
    // A made-up reason in the address shows nothing.
    await navigate(page, "/home/description/home?refus=n%27importe%20quoi");
    await expect(page.getByTestId("home-page")).toBeVisible();
    await expect(page.getByTestId("sent-away")).toHaveCount(0);
  });

  test("[issue10-docs] [A-RIGHTS-07] [A-RIGHTS-26] a reader's read-only screens say that his right is the cause", async ({ page }) => {
    const ids = await demoIds();
    // lecteur only reads Beauce: his right.
    await setContext("lecteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
    await signIn(page, "lecteur");
    for (const screen of ["coordonnees", "main_oeuvre", "operations_culturales"]) {
      await navigate(page, `/home/description/exploitation/${screen}`);
      const note = page.getByTestId("read-only-note");
      await expect(note).toHaveText("Lecture seule : vos droits");
      await expect(note).toHaveAttribute("title", /Vos droits sur ce dossier ou cette exploitation/);
    }
  });

  test("[issue10-docs] [A-RIGHTS-07] [A-LOCK-02] a writer on a locked campaign is told that the lock, not his right, makes the screen read-only", async ({
    page,
  }) => {
    const ids = await demoIds();
    // animateur animates Beauce; 2024 of EARL des Tilleuls is locked (published indicators): the lock.
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2024 });
    await signIn(page, "animateur");
    for (const screen of ["coordonnees", "main_oeuvre", "operations_culturales"]) {
      await navigate(page, `/home/description/exploitation/${screen}`);
      const note = page.getByTestId("read-only-note");
      await expect(note).toHaveText("Lecture seule : campagne verrouillée");
      await expect(note).toHaveAttribute("title", /La campagne est verrouillée/);
    }
    await inEnglish(page, "/home/description/exploitation/coordonnees");
    await expect(page.getByTestId("read-only-note")).toHaveText("Read only: campaign locked");
    // The unlocked 2025 campaign: writable, no note.
    await setContext("animateur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
    await navigate(page, "/home/description/exploitation/coordonnees");
    await expect(page.getByTestId("screen-coordonnees")).toBeVisible();
    await expect(page.getByTestId("read-only-note")).toHaveCount(0);
  });
});
