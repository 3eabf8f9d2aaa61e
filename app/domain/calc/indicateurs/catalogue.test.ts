import { describe, expect, test } from "vitest";
import en from "../../../locales/en/indicateurs";
import fr from "../../../locales/fr/indicateurs";
import { decrireIndicateur } from "./catalogue";
import { MESSAGES_CONTROLE } from "./controle";
import { intervention, intrant, operation, parcelle, recolte } from "./fixtures";
import { calculerCampagne } from "./moteur";

const texte = (langue: typeof fr, cle: string) =>
  cle
    .split(".")
    .slice(1)
    .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], langue.indicateurs);

describe("Indicator catalogue and texts", () => {
  test("every code the engine produces has a group and a label in French and English; so has every pre-check message", () => {
    const r = calculerCampagne({
      idCampagne: 1,
      anneeRecolte: 2024,
      exploitation: { id: 1 },
      parcelles: [parcelle({ id: 1 })],
      interventions: [
        intervention({
          idParcelle: 1,
          operation: operation({ debit: 1 }),
          intrants: [intrant({ type: "eau", dose: 10, unite: "mm" })],
          recoltes: [recolte({ rendement: 8 })],
        }),
      ],
      prix: { reel: { appro: {}, vente: {} }, reference: { appro: {}, vente: {} } },
    });
    const codes = Object.keys(r.exploitation);
    expect(codes.length).toBeGreaterThan(90);
    for (const code of codes) {
      const d = decrireIndicateur(code);
      expect(d, code).not.toBeNull();
      for (const langue of [fr, en]) {
        expect(typeof texte(langue, d!.libelle), `${code} ${d!.libelle}`).toBe("string");
        if (d!.qualificatif) expect(typeof texte(langue, d!.qualificatif.cle), d!.qualificatif.cle).toBe("string");
      }
    }
    for (const cle of Object.values(MESSAGES_CONTROLE)) for (const langue of [fr, en]) expect(typeof texte(langue, cle), cle).toBe("string");
    expect(decrireIndicateur("economie.reference.margeBrute")).toEqual({
      groupe: "economie",
      libelle: "indicateurs.libelles.economie-margeBrute",
      qualificatif: { cle: "indicateurs.jeux-prix.reference" },
    });
  });
});
