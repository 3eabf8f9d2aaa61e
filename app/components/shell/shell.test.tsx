import i18next, { type i18n as I18n } from "i18next";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { createRoutesStub } from "react-router";
import { beforeAll, describe, expect, test } from "vitest";
import { resources } from "~/locales";
import { actualisationUrl } from "./actualisation";
import { Drawer } from "./drawer";
import { parisYear } from "../format";
import { Footer } from "./footer";
import { Header } from "./header";
import { DOCUMENTATION_MENU, DRAWER_GROUPS, DRAWER_WIDTH, HEADER_HEIGHT, INTEROPERABILITY_MENU, RESULTS_MENU, VERSION_DATE } from "./menus";

let i18n: I18n;
beforeAll(async () => {
  i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ resources, lng: "fr", fallbackLng: "fr", initAsync: false, interpolation: { escapeValue: false } });
});

/** Server-renders a shell piece inside a router and the app's French translations. */
function render(element: ReactNode): string {
  const Stub = createRoutesStub([{ path: "*", Component: () => <>{element}</> }]);
  return renderToString(
    <I18nextProvider i18n={i18n}>
      <Stub initialEntries={["/home/description/home"]} />
    </I18nextProvider>,
  );
}

/** The visible text of some HTML, tags removed and entities of the renderer decoded. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ")
    .trim();
}

const fr = (key: string) => i18n.t(key);
const labels = (links: { key: string }[]) => links.map((l) => fr(l.key));

describe("footer", () => {
  test("[A-SHELL-25] [A-SHELL-26] [A-SHELL-28] the footer shows the copyright year, the version date and the legal link", () => {
    const html = render(<Footer appEnv={null} year={2031} />);
    expect(text(html)).toContain("© 2031 Sillon");
    expect(VERSION_DATE).toBe("23-09-2025 10h18");
    expect(text(html)).toContain("Version du 23-09-2025 10h18");
    expect(html).toMatch(/<a[^>]*href="\/mentions-legales"[^>]*>Mentions légales<\/a>/);
  });

  test("[A-SHELL-25] the year defaults to the current year", () => {
    expect(text(render(<Footer appEnv={null} />))).toContain(`© ${parisYear()} Sillon`);
  });

  test("[A-SHELL-27] [A-SHELL-31] in production the footer has no beta notice, no environment label and no orange bar", () => {
    const html = render(<Footer appEnv={null} />);
    expect(text(html)).not.toMatch(/b[eê]ta/i);
    expect(html).not.toContain('data-testid="env-label"');
    expect(html).not.toContain('data-testid="env-bar"');
    expect(html).not.toContain("orange");
  });

  test("[A-SHELL-29] [A-SHELL-30] outside production the footer shows the environment label and an orange bar", () => {
    const html = render(<Footer appEnv="recette" />);
    expect(html).toMatch(/<span data-testid="env-label"[^>]*>Environnement : recette<\/span>/);
    expect(html).toMatch(/<div data-testid="env-bar" class="[^"]*bg-orange-500[^"]*"/);
    expect(text(html)).not.toMatch(/b[eê]ta/i);
  });
});

describe("header", () => {
  test("[A-SHELL-06] the header is 40 high", () => {
    expect(HEADER_HEIGHT).toBe(40);
    const html = render(<Header hasNewPost={false} locales={["fr", "en"]} onToggleDrawer={() => {}} />);
    expect(html).toMatch(/<header data-testid="app-header"[^>]*style="height:40px"/);
  });

  test("[A-SHELL-07] the header holds the home icon, the description menu, the three drop-down menus, the locale selector, the profile and logout icons", () => {
    const html = render(<Header hasNewPost={false} locales={["fr", "en"]} onToggleDrawer={() => {}} />);
    expect(html).toMatch(/<a[^>]*aria-label="Accueil"[^>]*href="\/home\/description\/home"/);
    expect(html).toMatch(/<a[^>]*href="\/home\/description"[^>]*>Description<\/a>/);
    for (const menu of ["Interopérabilité", "Résultats", "Documentation"]) expect(html).toMatch(new RegExp(`aria-haspopup="menu"[^>]*>${menu}<svg`));
    expect(html).toContain('data-testid="locale-select"');
    expect(html).toMatch(/<a[^>]*href="\/home\/profil"[^>]*aria-label="Profil"|<a[^>]*aria-label="Profil"[^>]*href="\/home\/profil"/);
    expect(html).toMatch(/<form[^>]*action="\/logout"[^>]*>.*aria-label="Déconnexion"/s);
  });

  test("[A-SHELL-08] the home icon carries a dot only when there is a new post", () => {
    const withDot = render(<Header hasNewPost locales={["fr", "en"]} onToggleDrawer={() => {}} />);
    expect(withDot).toContain('data-testid="new-post-dot"');
    expect(withDot).toContain('aria-label="Accueil (Nouvelle actualité)"');
    const without = render(<Header hasNewPost={false} locales={["fr", "en"]} onToggleDrawer={() => {}} />);
    expect(without).not.toContain('data-testid="new-post-dot"');
  });
});

describe("menus", () => {
  test("[A-SHELL-11] the Interoperability menu holds import, actualisation and export", () => {
    expect(labels(INTEROPERABILITY_MENU)).toEqual(["Import Daplos", "Actualisation", "Export eDaplos"]);
    expect(INTEROPERABILITY_MENU.map((l) => l.to)).toEqual([
      "/home/interoperabilite/importdaplos",
      "/home/interoperabilite/actualisation",
      "/home/interoperabilite/export",
    ]);
    expect(INTEROPERABILITY_MENU.find((l) => l.key === "menu.actualisation")?.external).toBe("actualisation");
  });

  test("[A-SHELL-14] [issue24-objectifs] [issue24-manquants] the Results menu holds raw data, calculation, indicators, then objectives and missing data", () => {
    expect(labels(RESULTS_MENU)).toEqual(["Données brutes", "Calcul", "Indicateurs", "Objectifs et résultats", "Données manquantes"]);
    expect(RESULTS_MENU.map((l) => l.to)).toEqual([
      "/home/resultats/donneesbrutes",
      "/home/resultats/calcul",
      "/home/resultats/indicateurs",
      "/home/resultats/objectifs",
      "/home/resultats/manquants",
    ]);
  });

  test("[A-SHELL-15] the Documentation menu holds getting started, notice, equipment guide, FAQ, guide, survey protocol, agroforestry and terms", () => {
    expect(DOCUMENTATION_MENU.map((l) => l.to.replace("/home/documentation/", ""))).toEqual([
      "prise-en-main",
      "notice",
      "material-guide",
      "faq",
      "guide",
      "survey-protocol",
      "agroforestry",
      "cgu",
    ]);
    expect(labels(DOCUMENTATION_MENU)).toEqual([
      "Prise en main",
      "Notice",
      "Guide matériel",
      "FAQ",
      "Guide des indicateurs",
      "Protocole d'enquête",
      "Agroforesterie",
      "Conditions d'utilisation",
    ]);
  });

  test("[A-SHELL-13] the actualisation address carries the bearer token in its query", () => {
    const url = new URL(actualisationUrl("https://sillon.example/actualisation", "abc-123_XYZ"));
    expect(url.origin + url.pathname).toBe("https://sillon.example/actualisation");
    expect(url.searchParams.get("token")).toBe("abc-123_XYZ");
    // A query already in the configured address is kept; a token with reserved characters is encoded.
    const kept = new URL(actualisationUrl("https://sillon.example/actualisation?lang=fr", "a+b/c="));
    expect(kept.searchParams.get("lang")).toBe("fr");
    expect(kept.searchParams.get("token")).toBe("a+b/c=");
    // Without a token, no empty token parameter.
    expect(new URL(actualisationUrl("https://sillon.example/actualisation", null)).searchParams.has("token")).toBe(false);
  });
});

describe("drawer", () => {
  const group = (key: string) => DRAWER_GROUPS.find((g) => g.key === key)!;
  const groupLinks = (key: string) => group(key).sections.flatMap((s) => s.links);

  test("[A-SHELL-16] the drawer is 300 wide", () => {
    expect(DRAWER_WIDTH).toBe(300);
    expect(render(<Drawer open modal={false} onNavigate={() => {}} />)).toMatch(/<nav data-testid="drawer"[^>]*style="width:300px"/);
    expect(render(<Drawer open modal onNavigate={() => {}} />)).toMatch(/<nav data-testid="drawer"[^>]*style="width:300px"/);
  });

  test("[A-SHELL-21] the Farm group holds general, equipment and labour, cultures, and plots", () => {
    const farm = group("drawer.farm");
    expect(fr(farm.key)).toBe("Exploitation");
    expect(farm.sections.map((s) => (s.key ? fr(s.key) : labels(s.links).join()))).toEqual(["Général", "Matériel et main-d'œuvre", "Cultures", "Parcelles"]);
    expect(farm.sections.map((s) => labels(s.links))).toEqual([
      ["Coordonnées", "Description", "Caractéristiques économiques", "Caractéristiques pédologiques"],
      ["Parc matériel", "Main-d'œuvre", "Opérations culturales"],
      ["Cultures"],
      ["Lots de parcelles", "Parcelles", "Aménagements"],
    ]);
    expect(groupLinks("drawer.farm").every((l) => l.to.startsWith("/home/description/exploitation/"))).toBe(true);
  });

  test("[A-SHELL-22] the Field group holds interventions and measures (and the plant-protection register, issue 28)", () => {
    expect(fr(group("drawer.field").key)).toBe("Au champ");
    expect(labels(groupLinks("drawer.field"))).toEqual(["Interventions", "Mesures", "Registre phytosanitaire"]);
    expect(groupLinks("drawer.field").map((l) => l.to)).toEqual([
      "/home/description/au_champs/interventions",
      "/home/description/au_champs/mesures",
      "/home/description/au_champs/registre",
    ]);
  });

  test("[A-SHELL-23] the Prices group holds supply price and sale price", () => {
    expect(fr(group("drawer.prices").key)).toBe("Prix");
    expect(labels(groupLinks("drawer.prices"))).toEqual(["Prix d'approvisionnement", "Prix de vente"]);
    expect(groupLinks("drawer.prices").map((l) => l.to)).toEqual(["/home/description/prix/prix_approvisionnement", "/home/description/prix/prix_vente"]);
  });

  test("[A-SHELL-24] the Protocols group holds system description and rdd", () => {
    expect(fr(group("drawer.protocols").key)).toBe("Protocoles");
    expect(labels(groupLinks("drawer.protocols"))).toEqual(["Description du système", "Règles de décision"]);
    expect(groupLinks("drawer.protocols").map((l) => l.to)).toEqual(["/home/description/protocole/description_systeme", "/home/description/protocole/rdd"]);
  });

  test("[A-SHELL-21] [A-SHELL-22] [A-SHELL-23] [A-SHELL-24] the rendered drawer shows the four groups in order with every entry", () => {
    const html = render(<Drawer open modal={false} onNavigate={() => {}} />);
    const headings = [...html.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1]);
    expect(headings).toEqual(["Exploitation", "Au champ", "Prix", "Protocoles"]);
    for (const link of DRAWER_GROUPS.flatMap((g) => g.sections.flatMap((s) => s.links))) {
      expect(html).toContain(`href="${link.to}"`);
    }
    expect(render(<Drawer open={false} modal={false} onNavigate={() => {}} />)).not.toContain('data-testid="drawer"');
  });
});
