import { describe, expect, test, vi } from "vitest";
import { countRows, demoUser, expectRefused } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { selectInContext } from "../contexte/service";
import { ServiceError } from "../errors";

// The limit lowered to 3 data rows per sheet, so that the demo campaign's plots exceed it (the real limit,
// 1,048,575, is checked by server/exports/classeur.test.ts; writing a million rows here would only be slow).
vi.mock("../exports/classeur", async (original) => {
  const mod = await original<typeof import("../exports/classeur")>();
  return {
    ...mod,
    verifierLignesExport: (comptes: Record<string, number>) => {
      const plus = Math.max(0, ...Object.values(comptes));
      if (plus > 3) throw new ServiceError(mod.ERREUR_TROP_DE_LIGNES, 413, undefined, { lignes: plus, max: 3 });
    },
  };
});

const { creerExportDonneesBrutes } = await import("./donnees-brutes");
const t = useTestDb();

describe(`raw export over the spreadsheet limit (${dialect})`, () => {
  test("[A-EXPORT-25][C-REXP-09] the rows of every sheet are counted before anything is created: over the limit, 413 and no session, no job", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    await selectInContext(db, redacteur, { intent: "oad", id: t.demo().oads.reseauDemo });
    const { campagnes } = t.demo();
    const plots = await countRows(db, "parcelle", { idCampagne: campagnes.tilleuls2025 });
    expect(plots).toBeGreaterThan(3);
    const avant = { sessions: await countRows(db, "session_export"), taches: await countRows(db, "tache") };
    await expectRefused(
      creerExportDonneesBrutes(db, redacteur, { libelle: "", version: 2, anglais: false, campagnes: [campagnes.tilleuls2025], groupes: [1] }),
      "exports.trop-de-lignes",
      413,
      { params: { lignes: plots, max: 3 } },
    );
    expect({ sessions: await countRows(db, "session_export"), taches: await countRows(db, "tache") }).toEqual(avant);
    // Under the limit (main d'œuvre: a few rows) it is accepted.
    const ok = await creerExportDonneesBrutes(db, redacteur, { libelle: "", version: 2, anglais: false, campagnes: [campagnes.tilleuls2025], groupes: [7] });
    expect(ok.idTache).toBeGreaterThan(0);
  });
});
