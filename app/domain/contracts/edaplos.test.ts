import { describe, expect, test } from "vitest";
import { etatSession } from "./edaplos";

describe("eDaplos session states (spec 3 §4.6)", () => {
  test("[C-EDAP-09] statut 0 with its end date: finished, download offered", () => {
    expect(etatSession({ statut: 0, dtFinExport: "2026-12-02T05:00:00.000Z" })).toBe("termine");
  });
  test("[C-EDAP-10] statut 2: error ('Une erreur est survenue', in red)", () => {
    expect(etatSession({ statut: 2, dtFinExport: "2026-12-02T05:00:00.000Z" })).toBe("erreur");
    expect(etatSession({ statut: 2, dtFinExport: null })).toBe("erreur");
  });
  test("[C-EDAP-11] any other statut, or no end date: in progress ('En cours')", () => {
    expect(etatSession({ statut: 1, dtFinExport: null })).toBe("en-cours");
    expect(etatSession({ statut: 5, dtFinExport: "2026-12-02T05:00:00.000Z" })).toBe("en-cours");
    expect(etatSession({ statut: 0, dtFinExport: null })).toBe("en-cours");
  });
});
