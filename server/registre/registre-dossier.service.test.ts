import { describe, expect, test } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { demoUser, expectRefused, scopeOf, selectTilleuls } from "../../tests/helpers/service";
import { unzip } from "../referentiel-intrants/csv";
import { archiveDuDossier, registreDeLaCampagne, registreDossier, registreExploitation, statutsDuDossier } from "./service";

const t = useTestDb();

describe(`the register's date range and the selected folder's view and archive (${dialect})`, () => {
  test("[issue28-dossier] a reader gets the folder's farms by status for the campaign's year and its archive; a range narrows the farm's register", async () => {
    const db = t.db();
    const reader = await selectTilleuls(t, "lecteur", "tilleuls2025");
    const vue = await statutsDuDossier(scopeOf(db, reader));
    expect([vue.du, vue.au]).toEqual(["2025-01-01", "2025-12-31"]);
    const tilleuls = vue.exploitations.find((e) => e.libelle === "EARL des Tilleuls");
    expect(tilleuls?.lignes).toBeGreaterThan(0);
    const { du, au, zip } = await archiveDuDossier(scopeOf(db, reader), { du: "2025-04-01", au: "2025-04-30" });
    expect([du, au]).toEqual(["2025-04-01", "2025-04-30"]);
    const files = unzip(zip);
    expect([...files.keys()].filter((name) => name.endsWith(".csv"))).toHaveLength(vue.exploitations.length);
    const campagne = await registreDeLaCampagne(scopeOf(db, reader));
    const avril = await registreDeLaCampagne(scopeOf(db, reader), { du: "2025-04-01", au: "2025-04-30" });
    expect(avril.lignes.length).toBeLessThan(campagne.lignes.length);
    expect(avril.lignes.every((l) => l.date >= "2025-04-01" && l.date <= "2025-04-30")).toBe(true);
    await expectRefused(registreDeLaCampagne(scopeOf(db, reader), { du: "2025-05-01", au: "2025-04-01" }), "warning.invalid-form", 400);
  });

  test("[issue28-dossier] the folder read in one statement per table gives each farm the register it has alone", async () => {
    const db = t.db();
    const { dossiers } = t.demo();
    const reader = await demoUser(db, "lecteur");
    const range = { du: "2024-09-01", au: "2025-12-31" };
    const { registres } = await registreDossier(scopeOf(db, reader), { idDossier: dossiers.beauce, ...range });
    expect(registres.some((r) => r.lignes.length > 0)).toBe(true);
    for (const r of registres) {
      const alone = await registreExploitation(scopeOf(db, reader), { idDossier: dossiers.beauce, idExploitation: r.exploitation.id, ...range });
      expect(r).toEqual(alone);
    }
  });
});
