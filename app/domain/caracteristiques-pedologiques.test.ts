import { describe, expect, test } from "vitest";
import { REPLICATION, REPLICATIONS, SOIL_FIELDS, SOIL_LISTS, SoilSchema } from "./caracteristiques-pedologiques";
import { validate } from "./validation";

describe("soil characteristics schema", () => {
  test("[B-SOIL-01] [B-DESC-03] the soil fields of the farm", () => {
    expect([...SOIL_FIELDS]).toEqual([
      "idTypeSolArvalis",
      "idAeeTypeSol",
      "profondeurSolCm",
      "reserveUtileMm",
      "idTypeSousSol",
      "idAciditeSol",
      "idProfondeurSol",
    ]);
    expect(SOIL_LISTS).toEqual({
      idTypeSolArvalis: "type_sol_arvalis",
      idAeeTypeSol: "type_sol_aee",
      idTypeSousSol: "type_sous_sol",
      idAciditeSol: "acidite_sol",
      idProfondeurSol: "profondeur_sol",
    });
    const r = validate(SoilSchema, {
      idTypeSolArvalis: "1",
      idAeeTypeSol: "2",
      profondeurSolCm: "90",
      reserveUtileMm: "150,5",
      idTypeSousSol: "3",
      idAciditeSol: "4",
      idProfondeurSol: "3",
      replication: "2",
    });
    expect(r).toEqual({
      success: true,
      data: {
        idTypeSolArvalis: 1,
        idAeeTypeSol: 2,
        profondeurSolCm: 90,
        reserveUtileMm: 150.5,
        idTypeSousSol: 3,
        idAciditeSol: 4,
        idProfondeurSol: 3,
        replication: 2,
      },
    });
  });

  test("[B-SOIL-01] depth is a whole number of cm and the water capacity a number, neither negative", () => {
    expect(validate(SoilSchema, { profondeurSolCm: "12,5", reserveUtileMm: "beaucoup" })).toMatchObject({
      success: false,
      fieldErrors: { profondeurSolCm: ["warning.integer"], reserveUtileMm: ["warning.numeric"] },
    });
    expect(validate(SoilSchema, { profondeurSolCm: "-1", reserveUtileMm: "-3" })).toMatchObject({
      success: false,
      fieldErrors: { profondeurSolCm: ["warning.minmax"], reserveUtileMm: ["warning.minmax"] },
    });
  });

  test("[B-SOIL-03] the replication options are 0 farm only, 1 current campaign, 2 all campaigns; farm only when absent", () => {
    expect(REPLICATION).toEqual({ EXPLOITATION: 0, CAMPAGNE_COURANTE: 1, TOUTES_CAMPAGNES: 2 });
    expect([...REPLICATIONS]).toEqual([0, 1, 2]);
    expect(validate(SoilSchema, {})).toEqual({ success: true, data: { replication: 0 } });
    expect(validate(SoilSchema, { replication: "3" })).toMatchObject({ success: false, fieldErrors: { replication: ["warning.invalid"] } });
    expect(validate(SoilSchema, { replication: "tout" })).toMatchObject({ success: false, fieldErrors: { replication: ["warning.invalid"] } });
  });
});
