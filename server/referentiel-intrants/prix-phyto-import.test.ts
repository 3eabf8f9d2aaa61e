import { describe, expect, test } from "vitest";
import { lirePrixPhyto } from "./prix-phyto-import";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("reading a reference phyto price file", () => {
  test("semicolon file with decimal commas, French dates, optional columns and a default source", () => {
    const f = lirePrixPhyto(bytes("AMM;Libellé;Prix;Unité;Date\n2210219;Prix public;11,20;€/L;15/01/2025\n 2190636 ;;22.5;;\n"), "Barème X");
    expect(f.erreurs).toEqual([]);
    expect(f.lignes).toEqual([
      { ligne: 2, amm: "2210219", prix: 11.2, unite: "€/L", date: "2025-01-15", libelle: "Prix public", source: "Barème X" },
      { ligne: 3, amm: "2190636", prix: 22.5, unite: null, date: null, libelle: null, source: "Barème X" },
    ]);
  });

  test("tab- and comma-separated files are read from their header; a source column wins over the default", () => {
    expect(lirePrixPhyto(bytes("amm\tprix\tsource\n9100046\t39,9\tListe A\n"), "défaut").lignes).toEqual([
      { ligne: 2, amm: "9100046", prix: 39.9, unite: null, date: null, libelle: null, source: "Liste A" },
    ]);
    expect(lirePrixPhyto(bytes("amm,prix\n9100046,39.9\n")).lignes[0]).toMatchObject({ amm: "9100046", prix: 39.9, source: null });
  });

  test("each faulty line is reported with its number and reason; a missing required column is named", () => {
    const f = lirePrixPhyto(bytes("amm;prix;date\nABC;12;\n2210219;douze;\n2210219;-1;\n2210219;3;31/02/2025\n2210219;4;01/02/2025\n"));
    expect(f.erreurs).toEqual([
      "ligne 2 : AMM « ABC » invalide (chiffres attendus)",
      "ligne 3 : prix « douze » illisible",
      "ligne 4 : prix -1 hors de 0 à 999999.9999",
      "ligne 5 : date « 31/02/2025 » illisible (jj/mm/aaaa attendu)",
    ]);
    expect(f.lignes.map((l) => [l.ligne, l.date])).toEqual([[6, "2025-02-01"]]);
    expect(lirePrixPhyto(bytes("produit;montant\n1;2\n")).erreurs).toEqual([
      "colonne « amm » absente de l'en-tête (colonnes attendues : amm;prix;unite;date;libelle;source)",
      "colonne « prix » absente de l'en-tête (colonnes attendues : amm;prix;unite;date;libelle;source)",
    ]);
    expect(lirePrixPhyto(bytes("")).erreurs).toEqual(["fichier vide"]);
    expect(lirePrixPhyto(bytes("amm;prix\n")).erreurs).toEqual(["aucune ligne de prix"]);
  });
});
