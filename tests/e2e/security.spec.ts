import type { APIRequestContext, Page } from "@playwright/test";
import { bytesOf, threeFields } from "../helpers/geo-files";
import { e2eDb, expect, localeCookie, navigate, test, userId } from "./fixtures";
import { signIn } from "./helpers";
import { openPlots, PARCELLE_SCREEN } from "./parcelle-screen";
import { E2E } from "./settings";

/** The HTTP edge (issue 10, defects 3, 5, 7; docs/decisions/0020-http-edge.md). */

const ORIGIN = new URL(E2E.baseURL).origin;
const SAME = { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" };
const CROSS_SITE = { Origin: "https://attaquant.example", "Sec-Fetch-Site": "cross-site" };
/** A page of another port of the same host: same site, not same origin. */
const SAME_SITE = { Origin: `http://127.0.0.1:${E2E.port + 7}`, "Sec-Fetch-Site": "same-site" };
/** A browser that sends only Origin (no Fetch Metadata). */
const ORIGIN_ONLY = { Origin: "http://localhost:9" };

const count = async (table: string) => Number((await e2eDb()(table).count({ n: "*" }).first())?.n);

function plotsFile() {
  const fc = threeFields();
  fc.features.forEach((f, i) => ((f as { properties: unknown }).properties = { nom: `E2E CSRF ${i}`, NUM_ILOT: String(40 + i) }));
  return { name: "csrf.geojson", mimeType: "application/geo+json", buffer: Buffer.from(bytesOf(fc)) };
}

/** Every write the issue lists, as a page of another origin would send it with the user's cookies. */
function writes(request: APIRequestContext, headers: Record<string, string>, idOad: number) {
  const opts = { headers, maxRedirects: 0 };
  return {
    partage: () => request.post("home/partage", { ...opts, form: { intent: "createDossier", libelle: "Dossier CSRF", idOad: String(idOad) } }),
    contexte: () =>
      request.post("home/contexte", {
        ...opts,
        headers: { ...headers, "Content-Type": "application/json" },
        data: JSON.stringify({ intent: "oad", id: null }),
      }),
    import: () => request.post(`${PARCELLE_SCREEN.slice(1)}/import`, { ...opts, multipart: { intent: "create", selection: "[0,1,2]", fichier: plotsFile() } }),
    loginCheck: () => request.post("api/v1/login_check", { ...opts, form: { username: "redacteur", password: "demo1234" } }),
    logout: () => request.post("logout", { ...opts, form: {} }),
    locale: () => request.post("locale", { ...opts, form: { locale: "en" } }),
  };
}

async function state(page: Page, c2025: number) {
  const idUser = await userId("redacteur");
  const contexte = await e2eDb()("utilisateur_contexte").where({ idUser }).first("idOad", "idDossier");
  return {
    dossiers: await count("dossier"),
    plots: Number((await e2eDb()("parcelle").where({ idCampagne: c2025 }).count({ n: "*" }).first())?.n),
    sessions: Number((await e2eDb()("session").where({ idUser }).count({ n: "*" }).first())?.n),
    tokens: await count("api_token"),
    contexte,
    lng: (await page.context().cookies()).find((c) => c.name === "lng")?.value,
  };
}

test.describe("cross-site request forgery", () => {
  for (const [label, headers] of [
    ["another site", CROSS_SITE],
    ["another port of the same host", SAME_SITE],
    ["another origin, Origin header only", ORIGIN_ONLY],
  ] as const) {
    test(`[issue10-3] a signed-in user's cookies do not let ${label} post to the routes without a page: 403 and nothing changes`, async ({ page }) => {
      const c2025 = await openPlots(page, "redacteur");
      const idOad = (await e2eDb()("oad").where({ libelle: "Réseau démo" }).first("id")).id as number;
      const before = await state(page, c2025);
      for (const [name, send] of Object.entries(writes(page.request, headers, idOad))) {
        const res = await send();
        expect(res.status(), name).toBe(403);
        expect(await res.text(), name).toMatch(/refused/);
      }
      expect(await state(page, c2025)).toEqual(before);
      // Still signed in: the forged logout ended nothing.
      await navigate(page, "/home/profil");
      await expect(page).toHaveURL(/\/home\/profil$/);
    });
  }

  test("[issue10-3] the same writes from the app's own origin go through (the refusal above is the origin check)", async ({ page }) => {
    await signIn(page, "redacteur");
    const w = writes(page.request, SAME, 1);
    const locale = await w.locale();
    expect(locale.status()).toBe(200);
    expect((await page.context().cookies()).find((c) => c.name === "lng")?.value).toBe(encodeURIComponent(localeCookie("en")));
    await page.request.post("locale", { headers: SAME, form: { locale: "fr" } });
    expect((await w.loginCheck()).status()).toBe(200);
    expect((await w.logout()).status()).toBe(302);
    await navigate(page, "/home/profil");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("[issue10-3] a write with neither Origin nor Sec-Fetch-Site is refused, except the JSON API login of API clients", async ({ page }) => {
    await signIn(page, "redacteur");
    const plain = await page.request.post("locale", { form: { locale: "en" }, maxRedirects: 0 });
    expect(plain.status()).toBe(403);
    const api = await page.request.post("api/v1/login_check", { data: { username: "redacteur", password: "demo1234" } });
    expect(api.status()).toBe(200);
    expect(await api.json()).toMatchObject({ token: expect.stringMatching(/^[\w-]{20,}$/), users: { username: "redacteur" } });
  });

  test("[issue10-3] JSON only with a JSON content type: /home/contexte refuses JSON sent as text/plain (415) and keeps the context", async ({ page }) => {
    await signIn(page, "redacteur");
    const idUser = await userId("redacteur");
    const before = await e2eDb()("utilisateur_contexte").where({ idUser }).first("idOad", "idDossier");
    const res = await page.request.post("home/contexte", {
      headers: { ...SAME, "Content-Type": "text/plain" },
      data: JSON.stringify({ intent: "oad", id: null }),
      maxRedirects: 0,
    });
    expect(res.status()).toBe(415);
    expect(await e2eDb()("utilisateur_contexte").where({ idUser }).first("idOad", "idDossier")).toEqual(before);
  });
});

test.describe("request bodies", () => {
  test("[issue10-7] a body over the limit is refused with 413 before it is read; the plot import has its own higher limit", async ({ page }) => {
    await signIn(page, "redacteur");
    const big = "x".repeat(1024 * 1024 + 10);
    const form = await page.request.post("home/partage", { headers: SAME, form: { intent: "createDossier", libelle: big }, maxRedirects: 0 });
    expect(form.status()).toBe(413);
    const json = await page.request.post("home/contexte", {
      headers: { ...SAME, "Content-Type": "application/json" },
      data: JSON.stringify({ ids: big }),
      maxRedirects: 0,
    });
    expect(json.status()).toBe(413);
    // 2 MB to the import passes the edge; the route itself reads the file (here: not a map file, 4xx with its message).
    const upload = await page.request.post(`${PARCELLE_SCREEN.slice(1)}/import`, {
      headers: SAME,
      multipart: { intent: "preview", fichier: { name: "gros.geojson", mimeType: "application/geo+json", buffer: Buffer.alloc(2 * 1024 * 1024, 32) } },
      maxRedirects: 0,
    });
    expect(upload.status()).not.toBe(413);
    expect(upload.status()).toBeLessThan(500);
  });

  test("[issue10-7] a body of a type the app does not read is refused with 415, not a 500", async ({ page }) => {
    await signIn(page, "redacteur");
    for (const type of ["text/plain", "application/xml", "application/octet-stream"]) {
      const res = await page.request.post("home/partage", { headers: { ...SAME, "Content-Type": type }, data: "intent=createDossier", maxRedirects: 0 });
      expect(res.status(), type).toBe(415);
    }
  });
});

test.describe("security headers", () => {
  // WebGL in headless Chromium is slow to start on a busy 2-core machine.
  test.describe.configure({ timeout: 60_000 });
  test("[issue10-5] pages, files and errors carry CSP with a nonce, frame-ancestors 'none', X-Frame-Options, nosniff and Referrer-Policy; no HSTS over plain HTTP", async ({
    page,
  }) => {
    for (const path of ["login", "favicon.svg", "page-inexistante"]) {
      const res = await page.request.get(path);
      const h = res.headers();
      expect(h["x-frame-options"], path).toBe("DENY");
      expect(h["x-content-type-options"], path).toBe("nosniff");
      expect(h["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
      expect(h["strict-transport-security"], path).toBeUndefined();
      const csp = h["content-security-policy"];
      expect(csp, path).toMatch(/script-src 'self' 'nonce-[\w+/=]{20,}'/);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("object-src 'none'");
    }
    // The map tiles' host (MAP_IMAGERY_TILES, MAP_LABELS_TILES) is allowed for images and fetches.
    const login = await page.request.get("login");
    const csp = login.headers()["content-security-policy"];
    expect(csp).toMatch(new RegExp(`img-src [^;]*${ORIGIN.replace(/[.:/]/g, "\\$&")}`));
    expect(csp).toMatch(new RegExp(`connect-src [^;]*${ORIGIN.replace(/[.:/]/g, "\\$&")}`));
    // Each page has its own nonce, and every inline script carries it.
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    const html = await login.text();
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
    expect(inline.length).toBeGreaterThan(0);
    for (const attrs of inline) expect(attrs).toContain(`nonce="${nonce}"`);
    const again = (await page.request.get("login")).headers()["content-security-policy"];
    expect(/'nonce-([^']+)'/.exec(again)![1]).not.toBe(nonce);
  });

  test("[issue10-5] the app's PDF documents may be framed by its own pages only", async ({ page }) => {
    const res = await page.request.get("docs/fr/cgu.pdf");
    expect(res.status()).toBe(200);
    expect(res.headers()["x-frame-options"]).toBe("SAMEORIGIN");
  });

  test("[issue10-5] signing in, the context, the plot map and the operations screen run without a CSP violation", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) =>
        console.error(`Content Security Policy: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      );
    });
    await openPlots(page, "redacteur");
    await expect(page.getByTestId("table-parcelle")).toBeVisible();
    await page.getByTestId("list-new").click();
    await page.getByTestId("parcelle-form").locator("summary", { hasText: "Données géographiques" }).click();
    // The map's worker started and its tiles were asked for: a blocked worker or tile host would show here.
    await expect(page.getByTestId("plot-map")).toHaveAttribute("data-loaded", "true", { timeout: 20_000 });
    await navigate(page, "/home/description/exploitation/operations_culturales");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await navigate(page, "/home/description/exploitation/parc_materiel");
    await navigate(page, "/cgu");
    expect(violations).toEqual([]);
  });
});
