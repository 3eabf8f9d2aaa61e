import { describe, expect, test } from "vitest";
import { validate } from "./validation";
import { DemandeExportSchema, etatSession } from "./session-export";
import { pourcentage } from "~/components/tache/barre-progression";

describe("export request and session status", () => {
  test("[A-EXPORT-17][A-EXPORT-18][A-EXPORT-19] statut 0 is downloadable, 2 is an error, anything else (or no end) is in progress", () => {
    expect(etatSession({ statut: 0, dtFinSession: "2026-11-26T08:00:00.000Z" })).toBe("termine");
    expect(etatSession({ statut: 2, dtFinSession: "2026-11-26T08:00:00.000Z" })).toBe("erreur");
    expect(etatSession({ statut: 1, dtFinSession: null })).toBe("en-cours");
    expect(etatSession({ statut: null, dtFinSession: null })).toBe("en-cours");
  });

  test("[A-EXPORT-06][A-EXPORT-10][A-EXPORT-11][A-EXPORT-12] the request: version 2 by default, an empty name accepted, lists as JSON, the anglais flag", () => {
    const r = validate(DemandeExportSchema, { libelle: "", nature: "0", campagnes: "[3,4]", groupes: "[1]", anglais: "true" });
    expect(r.success && r.data).toEqual({ libelle: "", nature: 0, version: 2, anglais: true, campagnes: [3, 4], groupes: [1] });
    const sans = validate(DemandeExportSchema, { nature: "0", campagnes: "[3]", groupes: "[1]" });
    expect(sans.success && sans.data.anglais).toBe(false);
    expect(validate(DemandeExportSchema, { nature: "0", campagnes: "[]", groupes: "[1]" }).success).toBe(false);
    expect(validate(DemandeExportSchema, { nature: "0", campagnes: "[3]", groupes: "[]" }).success).toBe(false);
    expect(validate(DemandeExportSchema, { nature: "0", campagnes: "not json", groupes: "[1]" }).success).toBe(false);
    expect(validate(DemandeExportSchema, { nature: "0", version: "3", campagnes: "[3]", groupes: "[1]" }).success).toBe(false);
  });

  test("the progress bar's percentage", () => {
    expect(pourcentage(undefined)).toBe(0);
    expect(pourcentage({ etat: "en_attente", progression: 0, total: 0 })).toBe(0);
    expect(pourcentage({ etat: "en_cours", progression: 3, total: 10 })).toBe(30);
    expect(pourcentage({ etat: "terminee", progression: 0, total: 0 })).toBe(100);
  });
});
