import { expect, navigate, test } from "./fixtures";
import { signIn } from "./helpers";

test.describe("legal notice (/mentions-legales)", () => {
  test("[A-LEGAL-01] [A-LEGAL-05] the legal notice opens without a session and offers a way back to the login", async ({ page }) => {
    await navigate(page, "/mentions-legales");
    await expect(page).toHaveURL(/\/sillon\/mentions-legales$/);
    await expect(page.getByRole("heading", { name: "Mentions légales", level: 1 })).toBeVisible();
    const back = page.getByRole("link", { name: "Retour à la connexion" });
    await expect(back).toBeVisible();
    await back.click();
    await expect(page).toHaveURL(/\/sillon\/login$/);
  });

  test("[A-LEGAL-01] the login screen links to the legal notice", async ({ page }) => {
    await navigate(page, "/login");
    await page.getByRole("link", { name: "Mentions légales" }).click();
    await expect(page).toHaveURL(/\/sillon\/mentions-legales$/);
    await expect(page.getByTestId("legal-notice")).toBeVisible();
  });

  test("[A-LEGAL-03] the legal notice names the publisher, the legal officer, the host and the designer", async ({ page }) => {
    await navigate(page, "/mentions-legales");
    const notice = page.getByTestId("legal-notice");
    for (const [heading, text] of [
      ["Éditeur", /association Sillon/],
      ["Directeur de la publication", /président de l'association Sillon/],
      ["Hébergement", /hébergé par/],
      ["Conception et réalisation", /L'équipe Sillon/],
    ] as const) {
      const section = notice.locator("section").filter({ has: page.getByRole("heading", { name: heading, exact: true }) });
      await expect(section).toHaveCount(1);
      await expect(section).toContainText(text);
    }
  });

  test("[A-LEGAL-04] the legal notice states the rights of access, rectification and objection", async ({ page }) => {
    await navigate(page, "/mentions-legales");
    const section = page
      .getByTestId("legal-notice")
      .locator("section")
      .filter({ has: page.getByRole("heading", { name: "Données personnelles" }) });
    await expect(section).toContainText("droit d'accès, de rectification et d'opposition");
    await expect(page.getByTestId("legal-notice").getByText(/Support : support@/)).toBeVisible();
  });

  test("[A-LEGAL-02] [A-LEGAL-05] signed in, the legal notice hides the navigation bar and shows no back-to-login link", async ({ page }) => {
    await signIn(page, "lecteur");
    await page.getByTestId("app-footer").getByRole("link", { name: "Mentions légales" }).click();
    await expect(page).toHaveURL(/\/sillon\/mentions-legales$/);
    await expect(page.getByTestId("legal-notice")).toBeVisible();
    await expect(page.getByTestId("context-bar")).toHaveCount(0);
    await expect(page.getByTestId("drawer")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Retour à la connexion" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Accueil" })).toBeVisible();
  });

  test("[A-LEGAL-02] without a session the legal notice shows no navigation bar either", async ({ page }) => {
    await navigate(page, "/mentions-legales");
    await expect(page.getByTestId("legal-notice")).toBeVisible();
    await expect(page.getByTestId("context-bar")).toHaveCount(0);
    await expect(page.getByTestId("app-header")).toHaveCount(0);
  });
});
