import { describe, expect, test } from "vitest";
import { dialogInput, grilleField, grilleRowOf, IntrantGrilleSchema, kindOfType, parseProduitKey, produitKey, type IntrantStocke } from "./intrant-grille";
import { PhytoSchema } from "./intrant";

const stocke = (o: Partial<IntrantStocke>): IntrantStocke => ({
  type: 539,
  idCategorie: 5399,
  idIntrant: 2200197,
  origine: 776,
  libelle: "BIOACT PRIME",
  idCulture: null,
  quantite: 0.8,
  unite: "l/ha",
  caracteristique: null,
  cibles: [],
  ...o,
});

describe("[issue29-intrants] the inputs grid's rows", () => {
  test("a product is one cell, origin:id, read back; anything else is no product", () => {
    expect(produitKey(776, 12)).toBe("776:12");
    expect(produitKey(null, 12)).toBeUndefined();
    expect(parseProduitKey("777:5")).toEqual({ origine: 777, idIntrant: 5 });
    for (const bad of ["", "776", "a:1", 12, null, "776:1:2"]) expect(parseProduitKey(bad)).toBeNull();
    expect(kindOfType(540)).toBe("fertilisant");
    expect(kindOfType(1)).toBeNull();
  });

  test("the row schema reads French decimals, refuses an unknown unit and a bad product, takes an empty target", () => {
    expect(IntrantGrilleSchema.parse({ produit: "776:1", quantite: "0,75", dicLlUnite: "l/ha", cible1: "" })).toEqual({
      produit: "776:1",
      quantite: 0.75,
      dicLlUnite: "l/ha",
    });
    expect(IntrantGrilleSchema.safeParse({ quantite: 1, dicLlUnite: "l/m2" }).success).toBe(false);
    expect(IntrantGrilleSchema.safeParse({ produit: "x", quantite: 1, dicLlUnite: "l/ha" }).success).toBe(false);
    expect(IntrantGrilleSchema.safeParse({ quantite: -1, dicLlUnite: "mm" }).success).toBe(false);
  });

  test("a stored input's grid row: the product of a catalogue kind, its main target; water has no product", () => {
    expect(grilleRowOf(stocke({ cibles: [{ id: 4 }, { id: 9 }] }))).toEqual({
      type: 539,
      libelle: "BIOACT PRIME",
      produit: "776:2200197",
      quantite: 0.8,
      dicLlUnite: "l/ha",
      cible1: 4,
    });
    expect(grilleRowOf(stocke({ type: 542, idIntrant: 20011, libelle: "Irrigation", quantite: 30, unite: "mm" }))).toEqual({
      type: 542,
      libelle: "Irrigation",
      quantite: 30,
      dicLlUnite: "mm",
    });
  });

  test("the dialog's input: the grid's cells over the stored details; the other targets kept behind the main one", () => {
    const stored = stocke({ cibles: [{ id: 4 }, { id: 9 }, { id: 11 }] });
    expect(dialogInput("phyto", { produit: "776:2200197", quantite: 1.2, dicLlUnite: "l/ha", cible1: 7 }, stored)).toEqual({
      idIntrant: 2200197,
      origine: 776,
      quantite: 1.2,
      dicLlUnite: "l/ha",
      cible1: 7,
      cible2: 9,
      cible3: 11,
      cible4: undefined,
    });
    // The main target emptied: the next one becomes the main one.
    expect(dialogInput("phyto", { produit: "776:2200197", quantite: 1, dicLlUnite: "l/ha" }, stored)).toMatchObject({
      cible1: 9,
      cible2: 11,
      cible3: undefined,
    });
    // A new row (no stored input) is checked by the phyto dialog's schema as it is.
    expect(PhytoSchema.safeParse(dialogInput("phyto", { produit: "776:1", quantite: 1, dicLlUnite: "l/ha" })).success).toBe(true);
    expect(PhytoSchema.safeParse(dialogInput("phyto", { quantite: 1, dicLlUnite: "l/ha" })).success).toBe(false);
    const fert = stocke({ type: 540, idCategorie: 655, caracteristique: { n: 33.5, p2o5: null } });
    expect(dialogInput("fertilisant", { quantite: 200, dicLlUnite: "kg/ha" }, fert)).toEqual({
      idCategorie: 655,
      idIntrant: 2200197,
      origine: 776,
      quantite: 200,
      dicLlUnite: "kg/ha",
      n: 33.5,
    });
    expect(dialogInput("eau", { quantite: 25, dicLlUnite: "mm" }, stocke({ type: 542, idCategorie: 5421 }))).toEqual({
      idCategorie: 5421,
      quantite: 25,
      dicLlUnite: "mm",
    });
    expect(dialogInput("autre", { quantite: 3, dicLlUnite: "autre" }, stocke({ type: 543, idCategorie: 5431, libelle: "Ficelle", idIntrant: null }))).toEqual({
      idCategorie: 5431,
      libelle: "Ficelle",
      idIntrant: undefined,
      quantite: 3,
      dicLlUnite: "autre",
    });
  });

  test("a dialog schema's field is named as the grid's cell", () => {
    expect(["idIntrant", "origine", "idCulture", "cible3", "quantite", "dicLlUnite", "idCategorie"].map(grilleField)).toEqual([
      "produit",
      "produit",
      "produit",
      "cible1",
      "quantite",
      "dicLlUnite",
      "",
    ]);
  });
});
