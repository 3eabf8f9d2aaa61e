import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import en from "./en/translation";
import fr from "./fr/translation";
import { availableLocales, DEFAULT_LOCALE, fallbackLng, LOCALE_RELOAD_DELAY_MS, LOCALE_STORAGE_KEY, LOCALES, resources } from ".";

type Tree = { [key: string]: string | Tree };

/** Every leaf of a translation tree by its dotted key ("login.username"); a leaf's own name may hold dots ("audit.dossier.create"). */
function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === "string") out.set(`${prefix}${k}`, v);
    else for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

const frFlat = flatten(fr as Tree);
const enFlat = flatten(en as Tree);
const frKeys = new Set(frFlat.keys());
/** Whether i18next finds the key in fr, counting plural forms (key_one, key_other). */
const inFr = (key: string) => frKeys.has(key) || frKeys.has(`${key}_other`);
const root = fileURLToPath(new URL("../..", import.meta.url));

/** Source files of the app and the server (tests and translations themselves excluded). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "locales" || name === "node_modules" ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("locales", () => {
  test("[A-LOCALE-01] [B-CONST-10] the locales are fr, en and dev, French by default", () => {
    expect([...LOCALES]).toEqual(["fr", "en", "dev"]);
    expect(DEFAULT_LOCALE).toBe("fr");
    expect(Object.keys(resources).sort()).toEqual(["en", "fr"]);
    // dev has no resources and no fallback: it shows the keys.
    expect(fallbackLng.dev).toEqual([]);
  });

  test("[A-LOCALE-02] [B-CONST-11] the dev locale is offered only outside production", () => {
    expect(availableLocales(true)).toEqual(["fr", "en"]);
    expect(availableLocales(false)).toEqual(["fr", "en", "dev"]);
  });

  test("[A-LOCALE-04] [A-LOCALE-05] the choice is stored under 'locale' and the page reloads after 3000 ms", () => {
    expect(LOCALE_STORAGE_KEY).toBe("locale");
    expect(LOCALE_RELOAD_DELAY_MS).toBe(3000);
  });

  test("[A-SCOPE-01] en has exactly the keys of fr, each with a non-empty text", () => {
    const enKeys = [...enFlat.keys()];
    expect(enKeys.filter((k) => !frKeys.has(k))).toEqual([]);
    expect([...frKeys].filter((k) => !enKeys.includes(k))).toEqual([]);
    // login.status.empty is the one key whose text is empty on purpose (the status before any attempt).
    const emptyAllowed = new Set(["login.status.empty"]);
    expect([...frFlat].filter(([k, v]) => !emptyAllowed.has(k) && !v.trim()).map(([k]) => k)).toEqual([]);
    expect([...enFlat].filter(([k, v]) => !emptyAllowed.has(k) && !v.trim()).map(([k]) => k)).toEqual([]);
  });

  test("[A-SCOPE-01] interpolations are the same in both languages", () => {
    const vars = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    for (const key of frKeys) {
      expect({ key, vars: vars(enFlat.get(key) ?? "") }).toEqual({ key, vars: vars(frFlat.get(key) ?? "") });
    }
  });

  test("[issue29-plurals] a French count before a plural noun is a plural key (1 exploitation, 2 exploitations)", () => {
    // The count of too-many-features is always above its maximum (2 or more).
    const toujoursPluriel = new Set(["parcelle.import.errors.too-many-features"]);
    const fautifs = [...frFlat]
      .filter(([k, v]) => !/_(zero|one|two|few|many|other)$/.test(k) && !toujoursPluriel.has(k) && /\{\{\s*(count|fait)\s*\}\}\s+\p{L}+s\b/u.test(v))
      .map(([k]) => k);
    expect(fautifs).toEqual([]);
  });

  test("[issue29-explanations] every formula the indicator engine names is written out in both languages", () => {
    const dir = join(root, "app/domain/calc/indicateurs");
    const codes = new Set(
      readdirSync(dir)
        .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
        .flatMap((f) => [...readFileSync(join(dir, f), "utf8").matchAll(/"(7\.\d+)"/g)].map((m) => m[1])),
    );
    expect(codes.size).toBeGreaterThanOrEqual(8);
    for (const code of codes) {
      const key = `calcul-serie.formules.${code.replace(".", "_")}`;
      expect(frFlat.get(key), key).toMatch(/=/);
      expect(enFlat.get(key), key).toMatch(/=/);
    }
  });

  test("[A-ERR-18] generic labels exist for: error encountered, server communication error, try again later, save could not be completed", () => {
    for (const key of ["errors.error-encountered", "errors.server-communication", "errors.try-again-later", "errors.save-failed", "errors.api-error"]) {
      expect(frKeys.has(key), key).toBe(true);
    }
    expect(fr.errors["error-encountered"]).toBe("Une erreur est survenue");
    expect(fr.errors["server-communication"]).toBe("Erreur de communication avec le serveur");
    expect(fr.errors["try-again-later"]).toBe("Veuillez réessayer plus tard");
    expect(fr.errors["save-failed"]).toBe("L'enregistrement n'a pas pu être effectué");
  });

  test("[C-ERR-29] texts exist for: no calculation session returned; no data returned; the unit not imported correctly, to convert manually; the farm deletion or unit conversion warning", () => {
    for (const key of [
      "errors.texts.no-calculation-session",
      "errors.texts.no-data",
      "errors.texts.unit-not-imported",
      "errors.texts.delete-farm-or-convert-unit",
    ]) {
      expect(frFlat.get(key), key).toBeTruthy();
      expect(enFlat.get(key), key).toBeTruthy();
    }
    expect(fr.errors.texts["no-calculation-session"]).toMatch(/session de calcul/);
    expect(fr.errors.texts["unit-not-imported"]).toMatch(/unité.*convert/);
    expect(fr.errors.texts["delete-farm-or-convert-unit"]).toMatch(/supprimer l'exploitation.*convertir l'unité/);
  });

  test("[C-ERR-28] generic error texts exist: error encountered, server communication, try again later, API error, the error message is, save could not be completed", () => {
    for (const key of [
      "errors.error-encountered",
      "errors.server-communication",
      "errors.try-again-later",
      "errors.api-error",
      "errors.message-is",
      "errors.save-failed",
    ]) {
      expect(frKeys.has(key), key).toBe(true);
    }
    expect(fr.errors["api-error"]).toBe("Erreur");
    expect(fr.errors["message-is"]).toBe("Le message d'erreur est :");
  });

  describe("every translation key written in the code exists in fr", () => {
    const files = [...sourceFiles(join(root, "app")), ...sourceFiles(join(root, "server"))];
    const namespaces = Object.keys(fr).join("|");
    // t("a.b"), t('a.b', ...) and i18nKey="a.b" are keys for sure.
    const calls = [/\bt\(\s*["'`]([\w.-]+)["'`]/g, /i18nKey=\{?\s*["'`]([\w.-]+)["'`]/g];
    // Any other string literal that looks like a key of a known namespace (menu data, schema messages,
    // service error keys, notices) is one too, unless it is an audit action name, translated as audit.<action>.
    const literal = new RegExp(`["'\`]((?:${namespaces})\\.[\\w.-]+)["'\`]`, "g");
    const used = new Map<string, string>();
    for (const file of files) {
      const source = readFileSync(file, "utf8");
      for (const pattern of calls) for (const m of source.matchAll(pattern)) used.set(m[1], relative(root, file));
      for (const m of source.matchAll(literal)) {
        if (!inFr(`audit.${m[1]}`)) used.set(m[1], relative(root, file));
      }
    }

    test("[A-SCOPE-01] the scan finds the keys of the shell, the login and the schemas", () => {
      for (const key of ["login.username-required", "shell.logout", "menu.import", "drawer.rdd", "warning.required", "errors.api-error"]) {
        expect(used.has(key), key).toBe(true);
      }
    });

    test("[A-SCOPE-01] no key used in app/ or server/ is missing from fr", () => {
      // Keys of a route file's own name ("routes/login.tsx" style paths) are not translation keys.
      const missing = [...used].filter(([key]) => !inFr(key) && !/\.(tsx?|js|css|pdf|svg|sqlite)$/.test(key));
      expect(missing.map(([key, file]) => `${key} (${file})`)).toEqual([]);
    });

    test("[A-SCOPE-01] keys built at run time exist: screen titles, document titles, locale names", () => {
      const screens = [
        "parametre_dossier",
        "parametre_exploitation",
        "description",
        "coordonnees",
        "caracteristiques_economiques",
        "caracteristiques_pedologiques",
        "parc_materiel",
        "main_oeuvre",
        "operations_culturales",
        "cultures",
        "parcelle",
        "lot_parcelle",
        "amenagements",
        "analyse",
        "mesures",
        "interventions",
        "prix_approvisionnement",
        "prix_vente",
        "description_systeme",
        "rotation_mode_conduite",
        "rdd",
        "importdaplos",
        "actualisation",
        "export",
        "donneesbrutes",
        "calcul",
        "indicateurs",
        "objectifs",
        "manquants",
      ];
      expect(screens.filter((s) => !frKeys.has(`screen.${s}`))).toEqual([]);
      const docs = ["notice", "guide", "cgu", "prise-en-main", "faq", "agroforestry", "material-guide", "survey-protocol"];
      expect(docs.filter((d) => !frKeys.has(`doc.${d}`))).toEqual([]);
      expect(LOCALES.filter((l) => !frKeys.has(`locale.${l}`))).toEqual([]);
      for (const status of ["empty", "loading", "success", "error"]) expect(frKeys.has(`login.status.${status}`)).toBe(true);
    });
  });
});
