import { describe, expect, test } from "vitest";
import { DuplicationCampagneInterventionsSchema, pairesFormFields, pairPlotsByName } from "./copie";

describe("the pairs of the duplication of several plots", () => {
  test("[issue30-duplication] each source plot is offered the destination plot of the same name (case, accents, spaces aside), never a source plot, never twice", () => {
    const sources = [
      { id: 1, libelle: "Grande Pièce" },
      { id: 2, libelle: "Le  Bas" },
      { id: 3, libelle: "Le bas" },
      { id: 4, libelle: "Sans pareille" },
    ];
    const destinations = [
      { id: 10, libelle: "grande piece" },
      { id: 11, libelle: "le bas" },
      { id: 1, libelle: "Sans pareille" },
    ];
    expect([...pairPlotsByName(sources, destinations)]).toEqual([
      [1, 10],
      [2, 11],
      [3, null],
      [4, null],
    ]);
  });

  test("[issue30-duplication] the dialog's fields read back as the pairs the server copies", () => {
    const paires = [
      { parcelleSource: 1, parcellesDestination: [10] },
      { parcelleSource: 2, parcellesDestination: [11, 12] },
    ];
    const fields = pairesFormFields(paires);
    expect(fields).toContainEqual(["paires[1].parcellesDestination", "12"]);
    const value = DuplicationCampagneInterventionsSchema.parse({
      dossierSource: "1",
      campagneSource: "2",
      dossierDestination: "1",
      campagneDestination: "3",
      paires: [
        { parcelleSource: "1", parcellesDestination: "10" },
        { parcelleSource: "2", parcellesDestination: ["11", "12"] },
      ],
    });
    expect(value.paires).toEqual(paires);
  });
});
