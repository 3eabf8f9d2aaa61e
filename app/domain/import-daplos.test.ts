import { describe, expect, test } from "vitest";
import { validate } from "./validation";
import { etatImport, ImportDaplosSchema } from "./import-daplos";

const errors = (input: unknown) => {
  const r = validate(ImportDaplosSchema, input);
  return r.success ? {} : r.fieldErrors;
};

describe("Daplos import form", () => {
  test("[C-DAP-05] [C-DAP-08] the destination network is required", () => {
    expect(errors({ fichier: { name: "a.dap", size: 10 } })).toHaveProperty("idOad");
    expect(errors({ idOad: "3", fichier: { name: "a.dap", size: 10 } })).toEqual({});
  });

  test("[C-DAP-06] [C-DAP-08] the file is required, and not empty", () => {
    expect(errors({ idOad: 1 })).toHaveProperty("fichier");
    expect(errors({ idOad: 1, fichier: { name: "", size: 0 } })).toHaveProperty("fichier");
    expect(errors({ idOad: 1, fichier: { name: "a.dap", size: 0 } })).toHaveProperty("fichier");
  });

  test("[C-DAP-07] only .dap and .edi files and (decision 0108) eDaplos .xml, in any case", () => {
    for (const name of ["Export_1765962015.dap", "FERME.EDI", "x.Dap", "edaplos-20261202.xml", "EXPORT.XML"])
      expect(errors({ idOad: 1, fichier: { name, size: 5 } }), name).toEqual({});
    for (const name of ["export.csv", "dap", "a.dap.txt", "a.xml.txt"])
      expect(errors({ idOad: 1, fichier: { name, size: 5 } }).fichier, name).toEqual(["daplos.extension"]);
  });

  test("[C-DAP-10] [C-DAP-11] [C-DAP-12] the states of an import record", () => {
    expect(etatImport({ dtFinImport: null, message: null })).toBe("en_cours");
    expect(etatImport({ dtFinImport: "2026-12-02T05:00:00Z", message: "Import terminé" })).toBe("termine");
    expect(etatImport({ dtFinImport: "2026-12-02T05:00:00Z", message: "echec: daplos.version (ligne 2)" })).toBe("echec");
    expect(etatImport({ dtFinImport: null, message: "Import en échec" })).toBe("echec");
  });
});
