import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, describe, expect, test } from "vitest";
import { LIGNES_MAX_EXPORT, nomFeuilleValide, ouvrirClasseur, verifierLignesExport } from "./classeur";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-classeur-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function relire(fichier: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(fichier);
  return wb;
}

describe("streaming xlsx writer", () => {
  test("[A-EXPORT-20] sheets with a header row and typed rows read back with exceljs", async () => {
    const fichier = path.join(dir, "a", "classeur.xlsx");
    const c = ouvrirClasseur(fichier);
    const f = c.feuille("Parcelles", [
      { entete: "Parcelle" },
      { entete: "Surface (ha)", type: "nombre" },
      { entete: "Semis", type: "date" },
      { entete: "Irriguée", type: "booleen" },
    ]);
    await f.ligne(["Les Grands Champs", 12.5, "2025-03-14", true]);
    await f.ligne(["Sans date", 0, null, undefined]);
    expect(f.nombreLignes).toBe(2);
    const g = c.feuille("Interventions", [{ entete: "Intervention" }]);
    for (let i = 0; i < 10_000; i++) await g.ligne([`Passage ${i}`]);
    await c.fermer();
    const wb = await relire(fichier);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Parcelles", "Interventions"]);
    const ws = wb.getWorksheet("Parcelles")!;
    expect(ws.getRow(1).values).toEqual([undefined, "Parcelle", "Surface (ha)", "Semis", "Irriguée"]);
    expect(ws.getRow(1).font?.bold ?? ws.getCell("A1").font?.bold).toBe(true);
    expect(ws.getCell("A2").value).toBe("Les Grands Champs");
    expect(ws.getCell("B2").value).toBe(12.5);
    expect(ws.getCell("C2").value).toEqual(new Date(Date.UTC(2025, 2, 14)));
    expect(ws.getCell("C2").numFmt).toBe("dd/mm/yyyy");
    expect(ws.getCell("D2").value).toBe(true);
    expect(ws.getCell("C3").value).toBeNull();
    expect(ws.rowCount).toBe(3);
    const w2 = wb.getWorksheet("Interventions")!;
    expect(w2.rowCount).toBe(10_001);
    expect(w2.getCell("A10001").value).toBe("Passage 9999");
  });

  test("[A-EXPORT-20] user text starting with = + - @ tab or CR is a text cell, never a formula", async () => {
    const fichier = path.join(dir, "formules.xlsx");
    const dangereux = ["=1+1", "+33612345678", "-2+3", "@SUM(A1)", "\t=cmd", "\r=cmd", '=HYPERLINK("http://x","y")'];
    const c = ouvrirClasseur(fichier);
    const f = c.feuille("=Feuille", [{ entete: "=Nom" }, { entete: "Valeur", type: "nombre" }]);
    for (const s of dangereux) await f.ligne([s, -3]);
    await c.fermer();
    const ws = (await relire(fichier)).worksheets[0];
    expect(ws.getCell("A1").value).toBe("=Nom");
    expect(ws.getCell("A1").type).toBe(ExcelJS.ValueType.String);
    dangereux.forEach((s, i) => {
      const cell = ws.getCell(`A${i + 2}`);
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.value).toBe(s.replace("\r", "\n")); // XML reads a carriage return as a line feed
      expect(cell.formula).toBeUndefined();
      expect(cell.numFmt).toBe("@");
      expect(ws.getCell(`B${i + 2}`).value).toBe(-3);
    });
    // the raw sheet XML holds no formula element at all
    const xml = fs.readFileSync(fichier);
    expect(xml.includes(Buffer.from("<f>"))).toBe(false);
  });

  test("sheet names are made valid and unique", async () => {
    expect(nomFeuilleValide("Prix [€/t]: vente?")).toBe("Prix  € t   vente");
    expect(nomFeuilleValide("x".repeat(40))).toHaveLength(31);
    expect(nomFeuilleValide("///")).toBe("Feuille");
    const fichier = path.join(dir, "noms.xlsx");
    const c = ouvrirClasseur(fichier);
    c.feuille("Parcelles", [{ entete: "a" }]);
    c.feuille("parcelles", [{ entete: "a" }]);
    await c.fermer();
    expect((await relire(fichier)).worksheets.map((w) => w.name)).toEqual(["Parcelles", "parcelles 2"]);
  });

  test("[A-EXPORT-25][C-REXP-09] an export is refused before any work when a sheet would pass 1,048,575 data rows (1,048,576 lines with the header)", () => {
    expect(LIGNES_MAX_EXPORT).toBe(1_048_575);
    expect(() => verifierLignesExport(LIGNES_MAX_EXPORT)).not.toThrow();
    expect(() => verifierLignesExport({ Parcelles: 10, Interventions: LIGNES_MAX_EXPORT })).not.toThrow();
    expect(() => verifierLignesExport({ Parcelles: 10, Interventions: LIGNES_MAX_EXPORT + 1 })).toThrow(
      expect.objectContaining({ key: "exports.trop-de-lignes", status: 413, params: { lignes: 1_048_576, max: 1_048_575 } }),
    );
  });
});
