import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { decodeText, parseCsv, parseDecimal, unzip } from "./csv";
import { categoriePhyto, parseFile, parseSubstances, ShapeError, splitUsage, type ProduitEphy, type UsageEphy } from "./ephy-import";

const FIXTURES = path.resolve(__dirname, "../../tests/fixtures/ephy");
const bytes = (p: string) => fs.readFileSync(path.join(FIXTURES, p));

describe("reading the official E-Phy and IFT files", () => {
  test("semicolon CSV: quoted fields keep semicolons, line breaks and doubled quotes; CRLF and a missing last newline are read", () => {
    expect(parseCsv('a;b;c\r\n1;"x;y";"il dit ""oui"""\r\n2;"deux\nlignes";\n3;;z')).toEqual([
      ["a", "b", "c"],
      ["1", "x;y", 'il dit "oui"'],
      ["2", "deux\nlignes", ""],
      ["3", "", "z"],
    ]);
    expect(parseDecimal("1,5")).toBe(1.5);
    expect(parseDecimal(" 2.0 ")).toBe(2);
    expect(parseDecimal("")).toBeNull();
  });

  test("the encoding is detected: UTF-8 (with or without BOM) or Windows-1252", () => {
    expect(decodeText(Buffer.from("\uFEFFÉtat d’autorisation", "utf8"))).toEqual({ text: "État d’autorisation", encoding: "utf-8" });
    // 'É', '’' and 'é' in Windows-1252.
    expect(decodeText(Buffer.from([0xc9, 0x74, 0x61, 0x74, 0x20, 0x64, 0x92, 0x61, 0x75, 0xe9]))).toEqual({
      text: "Etat d’aué".replace("Etat", "État"),
      encoding: "windows-1252",
    });
    const utf8 = parseFile("produits_utf8.csv", bytes("release-1/produits_utf8.csv"));
    const cp1252 = parseFile("produits_windows-1252.csv", bytes("windows-1252/produits_windows-1252.csv"));
    expect(utf8.encoding).toBe("utf-8");
    expect(cp1252.encoding).toBe("windows-1252");
    expect(cp1252.rows).toEqual(utf8.rows);
    expect((cp1252.rows as ProduitEphy[])[0].titulaire).toBe("SOCIÉTÉ ESSAI SAS");
  });

  test("a products file: AMM, names, functions, state, withdrawal date, biocontrol mention and the substances with their contents", () => {
    const f = parseFile("produits_utf8.csv", bytes("release-1/produits_utf8.csv"));
    expect(f.kind).toBe("produits");
    const rows = f.rows as ProduitEphy[];
    expect(rows.map((r) => r.amm)).toEqual(["9990001", "9990002", "9990003", "9990004", "9990005", "1990001"]);
    expect(rows[0]).toMatchObject({
      idProduit: 9990001,
      nom: "HERBI ESSAI",
      secondsNoms: "ESSAI H | ESSAI H2",
      fonctions: "Herbicide",
      etat: "AUTORISE",
      dateRetrait: null,
      biocontrole: false,
    });
    expect(rows[0].substances).toEqual([
      { libelle: "pendiméthaline", substance: "Pendimethalin", quantite: 400, unite: "g/L" },
      { libelle: "diflufénican", substance: "Diflufenican", quantite: 40, unite: "g/L" },
    ]);
    expect(rows[2].biocontrole).toBe(true);
    expect(rows[3]).toMatchObject({ etat: "RETIRE", dateRetrait: "2017-09-30" });
    expect(rows[5].typeProduit).toBe("MFSC");
  });

  test("substance strings of the real files: nested brackets, no content, micro-organisms counted in UFC", () => {
    expect(parseSubstances("Triclopyr (ester de  butyl glycol) (Triclopyr (ester de  butyl glycol)) 64.7 g/L")).toEqual([
      { libelle: "Triclopyr (ester de  butyl glycol)", substance: "Triclopyr (ester de  butyl glycol)", quantite: 64.7, unite: "g/L" },
    ]);
    expect(parseSubstances("Composition complexe (Composition complexe)  ")).toEqual([
      { libelle: "Composition complexe", substance: "Composition complexe", quantite: null, unite: null },
    ]);
    expect(
      parseSubstances("Trichoderma harzianum Rifai souches T-22 et ITEM-908 (Trichoderma harzianum Rifai strains T-22 and ITEM-908) 1000000000000 UFC/kg")[0],
    ).toMatchObject({
      substance: "Trichoderma harzianum Rifai strains T-22 and ITEM-908",
      quantite: 1e12,
      unite: "UFC/kg",
    });
    expect(parseSubstances("soufre (Sulphur) 80.0 %")).toEqual([{ libelle: "soufre", substance: "Sulphur", quantite: 80, unite: "%" }]);
  });

  test("a uses file: crop, treatment and target of the use, the authorised dose and its unit; the label is told from the code by its '*'", () => {
    const f = parseFile("usages_des_produits_autorises_utf8.csv", bytes("release-1/usages_des_produits_autorises_utf8.csv"));
    expect(f.kind).toBe("usages");
    const rows = f.rows as UsageEphy[];
    expect(rows[0]).toMatchObject({
      amm: "9990001",
      identifiant: "15105912",
      libelle: "Blé*Désherbage",
      culture: "Blé",
      traitement: "Désherbage",
      cible: null,
      dose: 2.5,
      unite: "L/ha",
      etat: "Autorisé",
      nombreMaxApplication: 1,
    });
    expect(rows[1]).toMatchObject({ culture: "Blé", traitement: "Trt Part.Aer.", cible: "Septoriose(s)", dose: 0.8, delaiAvantRecolte: 35 });
    expect(splitUsage("Crucifères oléagineuses*Trt Part.Aer.*Régul. Croiss. Org. Aériens")).toEqual({
      culture: "Crucifères oléagineuses",
      traitement: "Trt Part.Aer.",
      cible: "Régul. Croiss. Org. Aériens",
    });
  });

  test("the real extract of E-Phy is read whole", () => {
    const p = parseFile("produits_utf8.csv", bytes("extrait/produits_utf8.csv"));
    const u = parseFile("usages_des_produits_autorises_utf8.csv", bytes("extrait/usages_des_produits_autorises_utf8.csv"));
    const s = parseFile("substance_active_utf8.csv", bytes("extrait/substance_active_utf8.csv"));
    expect([p.kind, u.kind, s.kind]).toEqual(["produits", "usages", "substances"]);
    expect(p.rows.length).toBeGreaterThan(100);
    expect((p.rows as ProduitEphy[]).find((r) => r.amm === "2190268")).toMatchObject({
      nom: "URBOLE",
      substances: [{ substance: "Diflufenican", quantite: 500, unite: "g/L" }],
    });
  });

  test("the IFT reference-dose file is recognised by its columns", () => {
    const f = parseFile("doses_reference_ift_2026.csv", bytes("release-1/doses_reference_ift_2026.csv"));
    expect(f.kind).toBe("ift");
    expect(f.rows[1]).toEqual({
      anneeRecolte: 2026,
      amm: "9990002",
      biocontrole: false,
      codeCulture: "1055",
      culture: "Blé tendre d'hiver",
      codeCible: "C12",
      cible: "Septoriose",
      segment: "S5",
      dose: 0.8,
      unite: "L/HA",
    });
    expect(f.rows[3]).toMatchObject({ biocontrole: true, unite: "KG/HA" });
  });

  test("a known file of the wrong shape is refused with the missing columns named; an unknown file is ignored", () => {
    expect(() => parseFile("produits_utf8.csv", bytes("mauvaise-forme/produits_utf8.csv"))).toThrow(ShapeError);
    expect(() => parseFile("produits_utf8.csv", bytes("mauvaise-forme/produits_utf8.csv"))).toThrow(/Substances actives, Etat d’autorisation/);
    expect(parseFile("produits_phrases_de_risque_utf8.csv", bytes("release-1/produits_phrases_de_risque_utf8.csv")).kind).toBeNull();
    expect(() => parseFile("doses_ift.csv", Buffer.from("campagne;numero AMM;culture\n2026;1;Blé\n"))).toThrow(/dose/);
  });

  test("an unreadable line is left out and reported; many unreadable lines refuse the file", () => {
    const head = "type produit;numero AMM;nom produit;Substances actives;Etat d’autorisation";
    const good = Array.from({ length: 30 }, (_, i) => `PPP;${9990100 + i};PRODUIT ${i};soufre (Sulphur) 80.0 %;AUTORISE`);
    const f = parseFile("produits_utf8.csv", Buffer.from([head, ...good, "PPP;AMM-X;PRODUIT BIZARRE;;AUTORISE"].join("\n")));
    expect(f.rows).toHaveLength(30);
    expect(f.rejets).toEqual(["ligne 32 : numéro AMM illisible « AMM-X »"]);
    const bad = Array.from({ length: 30 }, (_, i) => `PPP;X${i};PRODUIT ${i};;AUTORISE`);
    expect(() => parseFile("produits_utf8.csv", Buffer.from([head, ...bad].join("\n")))).toThrow(/30 lignes illisibles sur 30/);
  });

  test("an impossible withdrawal or decision date refuses its line, named; the real dates of the other lines are kept", () => {
    const head = "type produit;numero AMM;nom produit;Substances actives;Etat d’autorisation;Date de retrait du produit";
    const good = Array.from({ length: 30 }, (_, i) => `PPP;${9990100 + i};PRODUIT ${i};soufre (Sulphur) 80.0 %;RETIRE;30/09/2017`);
    const f = parseFile(
      "produits_utf8.csv",
      Buffer.from([head, ...good, "PPP;9990200;PRODUIT FEVRIER;;RETIRE;31/02/2017", "PPP;9990201;PRODUIT 99;;RETIRE;99/99/2017"].join("\n")),
    );
    expect(f.rows).toHaveLength(30);
    expect((f.rows as ProduitEphy[]).every((r) => r.dateRetrait === "2017-09-30")).toBe(true);
    expect(f.rejets).toEqual(["ligne 32 : date de retrait : date impossible « 31/02/2017 »", "ligne 33 : date de retrait : date impossible « 99/99/2017 »"]);
  });

  // Rule: Regulation (EC) No 1107/2009, art. 46 (grace period after a withdrawal); E-Phy publishes it use by use in
  // the uses file's "date fin distribution" and "date fin utilisation" (decision 0117).
  test("[issue28-registre] a uses file's end-of-distribution and end-of-use dates are read; an impossible one refuses its line, named", () => {
    const head = parseCsv(decodeText(bytes("release-1/usages_des_produits_autorises_utf8.csv")).text)[0].map((h) => h.trim());
    expect(head).toEqual(expect.arrayContaining(["date fin distribution", "date fin utilisation"]));
    const line = (v: Record<string, string>) =>
      head
        .map(
          (h) =>
            ({
              "type produit": "PPP",
              "numero AMM": "9990002",
              "nom produit": "FONGI ESSAI",
              "identifiant usage lib court": "15103221",
              "identifiant usage": "Blé*Trt Part.Aer.*Septoriose(s)",
              "etat usage": "Retiré",
              "dose retenue": "0.8",
              "dose retenue unite": "L/ha",
              ...v,
            })[h] ?? "",
        )
        .join(";");
    const f = parseFile(
      "usages_des_produits_autorises_utf8.csv",
      Buffer.from(
        [
          head.join(";"),
          line({ "date fin distribution": "30/06/2026", "date fin utilisation": "30/06/2027" }),
          line({ "identifiant usage": "Blé*Trt Part.Aer.*Rouille brune" }),
          line({ "identifiant usage": "Blé*Trt Part.Aer.*Oïdium", "date fin utilisation": "31/06/2027" }),
          line({ "identifiant usage": "Orge*Trt Part.Aer.*Oïdium", "date fin distribution": "2026-13-01" }),
        ].join("\n"),
      ),
    );
    expect(f.kind).toBe("usages");
    expect((f.rows as UsageEphy[]).map((u) => [u.cible, u.dateFinDistribution, u.dateFinUtilisation])).toEqual([
      ["Septoriose(s)", "2026-06-30", "2027-06-30"],
      ["Rouille brune", null, null],
    ]);
    expect(f.rejets).toEqual([
      "ligne 4 : date de fin d'utilisation : date impossible « 31/06/2027 »",
      "ligne 5 : date de fin de distribution : date impossible « 2026-13-01 »",
    ]);
    // The official extract's header carries both columns (empty there: its products are authorised).
    const real = parseFile("usages_des_produits_autorises_utf8.csv", bytes("extrait/usages_des_produits_autorises_utf8.csv"));
    expect((real.rows as UsageEphy[]).every((u) => u.dateFinDistribution === null && u.dateFinUtilisation === null)).toBe(true);
  });

  test("a zip archive of the release is unzipped (deflated entries)", () => {
    const entries = unzip(bytes("release-1.zip"));
    expect([...entries.keys()].sort()).toEqual([
      "doses_reference_ift_2026.csv",
      "produits_phrases_de_risque_utf8.csv",
      "produits_utf8.csv",
      "substance_active_utf8.csv",
      "usages_des_produits_autorises_utf8.csv",
    ]);
    expect(Buffer.from(entries.get("produits_utf8.csv")!).equals(bytes("release-1/produits_utf8.csv"))).toBe(true);
    expect(() => unzip(Buffer.from("pas une archive"))).toThrow(/zip/);
  });

  test("[C-PHYTO-15] the category of a product follows its E-Phy functions; only seed-treatment uses make a seed treatment", () => {
    expect(categoriePhyto("PPP", "Herbicide", [])).toEqual({ id: 5391, code: "HERBICIDE" });
    expect(categoriePhyto("PPP", "Insecticide | Fongicide", [])).toEqual({ id: 5393, code: "INSECTICIDE" });
    expect(categoriePhyto("PPP", "Régulateur de croissance | Fongicide", [])).toEqual({ id: 5396, code: "REGULATEUR" });
    expect(categoriePhyto("PPP", "Subst. Croiss.", [])).toEqual({ id: 5396, code: "REGULATEUR" });
    expect(categoriePhyto("ADJUVANT", null, [])).toEqual({ id: 5398, code: "ADJUVANT" });
    expect(categoriePhyto("PPP", null, [])).toEqual({ id: 5399, code: "PHYTO_AUTRE" });
    const ts = { traitement: "Trt Sem." } as UsageEphy;
    expect(categoriePhyto("PPP", "Fongicide", [ts])).toEqual({ id: 5397, code: "TRAITEMENT_SEMENCES" });
    expect(categoriePhyto("PPP", "Fongicide", [ts, { traitement: "Trt Part.Aer." } as UsageEphy])).toEqual({ id: 5392, code: "FONGICIDE" });
  });
});
