import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { countRows, snapshot } from "../../tests/helpers/service";
import { bool } from "../db/dialect";
import { unzip } from "./csv";
import { parseFile, ShapeError, type ParsedFile } from "./ephy-import";
import { formatSummary, IMPORT_ID_BASE, importReferentiel, SOURCE_EPHY } from "./import-service";
import { dosesReference, matiereActive, rechercherPhytos } from "./service";

const t = useTestDb();
const FIXTURES = path.resolve(__dirname, "../../tests/fixtures/ephy");
const TABLES = ["intrant_phyto", "matiere_active", "matiere_active_composition", "substance_active", "usage_phyto", "reference_dose_cible_ift", "cible"];

function folder(dir: string): ParsedFile[] {
  const full = path.join(FIXTURES, dir);
  return fs
    .readdirSync(full)
    .sort()
    .map((name) => parseFile(name, fs.readFileSync(path.join(full, name))));
}

async function product(amm: number) {
  return t.db()("intrant_phyto").where({ idProduit: amm, idSource: SOURCE_EPHY }).first();
}

describe(`E-Phy and IFT importer (${dialect})`, () => {
  test("[C-PHYTO-15] [C-PHYTO-16] [C-PHYTO-17] a release (zip) loads products, substances, uses and reference doses; products absent from it are withdrawn, not deleted", async () => {
    const db = t.db();
    const seeded = await countRows(db, "intrant_phyto", { idSource: SOURCE_EPHY, retire: false });
    const files = [...unzip(fs.readFileSync(path.join(FIXTURES, "release-1.zip")))].map(([name, bytes]) => parseFile(name, bytes));
    const progress: string[] = [];
    const s = await importReferentiel(db, files, { millesime: "2026-10-01", onProgress: (p) => progress.push(p) });

    expect(s.ignores).toEqual(["produits_phrases_de_risque_utf8.csv"]);
    expect(s.produits).toEqual({ ajoutes: 5, modifies: 0, inchanges: 0, retires: seeded + 1, autresTypes: 1 });
    expect(s.substances).toEqual({ ajoutes: 0, modifies: 4, inchanges: 0 }); // named by the seeded products, now with their CAS number
    expect(s.usages).toEqual({ produits: 3, lignes: 4, sansProduit: 1 });
    expect(s.doses).toMatchObject({ ajoutes: 4, modifies: 0, ciblesAjoutees: 1, culturesInconnues: { "Culture inconnue": 1 } });
    expect(progress.some((p) => p.startsWith("produits"))).toBe(true);
    expect(formatSummary(s).join("\n")).toContain(`produits : 5 ajoutés, 0 modifiés, 0 inchangés, ${seeded + 1} retirés`);

    // The products: category from the functions (a seed treatment from its uses), biocontrol, state, release.
    expect(await product(9990001)).toMatchObject({
      id: 9990001,
      nomProduit: "HERBI ESSAI",
      ammProduit: "9990001",
      dicIdTypeIntrant: 5391,
      codeTypeIntrant: "HERBICIDE",
      titulaire: "SOCIÉTÉ ESSAI SAS",
      millesime: "2026-10-01",
    });
    expect((await product(9990005)).codeTypeIntrant).toBe("TRAITEMENT_SEMENCES");
    expect(bool((await product(9990003)).biocontrole)).toBe(true);
    expect(bool((await product(9990004)).retire)).toBe(true);
    expect(await product(1990001)).toBeUndefined();
    // A seeded product absent from this release is kept, withdrawn.
    expect(bool((await product(2130068)).retire)).toBe(true);

    expect(await matiereActive(db, "9990001-1")).toEqual({
      id: expect.any(Number),
      quantite: 440,
      unite: "g/L",
      composition: [
        { libelle: "pendiméthaline", quantite: 400, unite: "g/L", famille: null },
        { libelle: "diflufénican", quantite: 40, unite: "g/L", famille: null },
      ],
    });
    const usage = await db("usage_phyto")
      .where({ idIntrantPhyto: 9990002 })
      .orderBy("identifiantUsage")
      .select("libelleUsage", "cultureUsage", "cibleUsage", "doseRetenue", "uniteDose");
    expect(usage.map((u) => [u.libelleUsage, u.cultureUsage, u.cibleUsage, Number(u.doseRetenue), u.uniteDose])).toEqual([
      ["Blé*Trt Part.Aer.*Septoriose(s)", "Blé", "Septoriose(s)", 0.8, "L/ha"],
      ["Crucifères oléagineuses*Trt Part.Aer.*Sclérotiniose", "Crucifères oléagineuses", "Sclérotiniose", 0.7, "L/ha"],
    ]);

    // Reference doses: matched to the target's label (its code recorded), a new target added, a crop-level dose.
    const septoriose = await db("cible").where({ code: "SEPTORIOSE" }).first();
    expect(septoriose.codeIft).toBe("C12");
    const doses = await dosesReference(db, { codeAmm: "9990002", idCulture: 1, anneeRecolte: 2026 });
    expect(doses.doses.map((d) => [d.cible, d.doseRef, d.uniteDoseRef])).toEqual([
      ["Ergot des céréales", 1, "L/HA"],
      ["Septoriose", 0.8, "L/HA"],
    ]);
    // Rows added to seeded tables are numbered from IMPORT_ID_BASE up, so that no later seed file overwrites them.
    expect(doses.doses.every((d) => d.id >= IMPORT_ID_BASE)).toBe(true);
    expect(Number((await db("cible").where({ libelle: "Ergot des céréales" }).first()).id)).toBeGreaterThanOrEqual(IMPORT_ID_BASE);
    expect((await db("matiere_active_composition").where({ idMatiereActive: 9990001 }).orderBy("rang").select("id")).map((r) => Number(r.id))).toEqual([
      999000101, 999000102,
    ]);
    const herbi = await dosesReference(db, { codeAmm: "9990001", idCulture: 1, anneeRecolte: 2026 });
    expect(herbi.doses).toHaveLength(1);
    expect(herbi.doses[0]).toMatchObject({ idCible: null, doseRef: 2.5 });
    expect(herbi.doseCulture?.doseRef).toBe(2.5);
  });

  test("importing the same release again changes nothing (idempotent)", async () => {
    const db = t.db();
    const before = await snapshot(db, ...TABLES.filter((x) => x !== "intrant_phyto"));
    const s = await importReferentiel(db, folder("release-1"), { millesime: "2026-10-01" });
    expect(s.produits).toMatchObject({ ajoutes: 0, modifies: 0, inchanges: 5, retires: 0 });
    expect(s.substances).toMatchObject({ ajoutes: 0, modifies: 0 });
    expect(s.usages).toMatchObject({ produits: 0, lignes: 0 });
    expect(s.doses).toMatchObject({ ajoutes: 0, modifies: 0, inchanges: 4, ciblesAjoutees: 0 });
    expect(await snapshot(db, ...TABLES.filter((x) => x !== "intrant_phyto"))).toEqual(before);
  });

  test("a new release: a changed product is updated, a product no longer listed is withdrawn and kept (inputs refer to it), a new one added, a changed dose updated", async () => {
    const db = t.db();
    const s = await importReferentiel(db, folder("release-2"), { millesime: "2026-11-01" });
    expect(s.produits).toEqual({ ajoutes: 1, modifies: 1, inchanges: 3, retires: 1, autresTypes: 1 });
    expect(s.doses).toMatchObject({ ajoutes: 0, modifies: 1, inchanges: 3 });
    expect((await product(9990002)).titulaire).toBe("NOUVEAU TITULAIRE SA");
    const bio = await product(9990003);
    expect(bool(bio.retire)).toBe(true);
    expect(bio.millesime).toBe("2026-10-01");
    expect(await product(9990006)).toMatchObject({ codeTypeIntrant: "INSECTICIDE", millesime: "2026-11-01" });
    expect((await dosesReference(db, { codeAmm: "9990002", idCulture: 1, anneeRecolte: 2026 })).doses.find((d) => d.cible === "Septoriose")?.doseRef).toBe(1);
    // Withdrawn products are left out of the search unless asked for.
    expect((await rechercherPhytos(db, { q: "bio essai" })).map((p) => p.nomProduit)).toEqual([]);
    expect((await rechercherPhytos(db, { q: "bio essai", inclureRetires: true })).map((p) => [p.nomProduit, p.retire])).toEqual([["BIO ESSAI", true]]);
  });

  test("the Windows-1252 files give the same catalogue as the UTF-8 ones", async () => {
    const db = t.db();
    const s = await importReferentiel(db, folder("windows-1252"), { millesime: "2026-10-01" });
    expect(s.fichiers.map((f) => f.encodage)).toEqual(["windows-1252", "windows-1252"]);
    expect((await product(9990001)).titulaire).toBe("SOCIÉTÉ ESSAI SAS");
    // BIO ESSAI, withdrawn by release 2, is listed again and comes back; INSECT ESSAI, absent, is withdrawn.
    expect(s.produits).toEqual({ ajoutes: 0, modifies: 2, inchanges: 3, retires: 1, autresTypes: 1 });
    expect(bool((await product(9990003)).retire)).toBe(false);
    expect(bool((await product(9990006)).retire)).toBe(true);
  });

  test("a file of the wrong shape, or a failure half-way, leaves the catalogue as it was (one transaction)", async () => {
    const db = t.db();
    const before = await snapshot(db, ...TABLES);
    expect(() => folder("mauvaise-forme")).toThrow(ShapeError);
    await expect(importReferentiel(db, [parseFile("notes.csv", Buffer.from("a;b\n1;2\n"))])).rejects.toThrow(/aucun fichier reconnu/);
    // The products are written, then the uses step fails: nothing stays.
    const failing = importReferentiel(db, folder("release-2").concat(folder("release-1").filter((f) => f.kind === "usages")), {
      millesime: "2027-01-01",
      onProgress: (p) => {
        if (p.startsWith("usages")) throw new Error("panne simulée");
      },
    });
    await expect(failing).rejects.toThrow("panne simulée");
    expect(await snapshot(db, ...TABLES)).toEqual(before);
  });

  // Rule: Regulation (EC) No 1107/2009, art. 46 (grace period after a withdrawal), published use by use in E-Phy's
  // uses file (decision 0117).
  test("[issue28-registre] the uses' end-of-distribution and end-of-use dates are stored; a line with an impossible date is left out, named; the same file again changes nothing", async () => {
    const db = t.db();
    const [uses] = folder("release-1").filter((f) => f.kind === "usages");
    const raw = fs.readFileSync(path.join(FIXTURES, "release-1/usages_des_produits_autorises_utf8.csv"), "utf8").trimEnd().split("\n");
    const head = raw[0].split(";").map((h) => h.trim());
    const [di, ui] = [head.indexOf("date fin distribution"), head.indexOf("date fin utilisation")];
    // FONGI ESSAI (9990002) withdrawn: its Blé use gets its grace dates; its second use an impossible end of use.
    const fongi = raw.filter((l) => l.startsWith("PPP;9990002;"));
    const withDates = (l: string, d: string, u: string) => {
      const cells = l.split(";");
      // The FONGI ESSAI lines hold no quoted semicolon: their cells split plainly.
      expect(cells.length).toBe(head.length);
      cells[di] = d;
      cells[ui] = u;
      return cells.join(";");
    };
    const text = [raw[0], ...raw.slice(1).filter((l) => !l.startsWith("PPP;9990002;"))];
    text.push(withDates(fongi[0], "30/06/2026", "30/06/2027"), withDates(fongi[1], "30/06/2026", "31/06/2027"));
    const file = parseFile("usages_des_produits_autorises_utf8.csv", Buffer.from(text.join("\n")));
    expect(file.rejets).toEqual([`ligne ${text.length} : date de fin d'utilisation : date impossible « 31/06/2027 »`]);
    expect(file.rows.length).toBe(uses.rows.length - 1);

    // The demo's own uses with dates (server/demo/usages-phyto-demo.csv) are not this file's.
    const datedBefore = await db("usage_phyto").whereNot({ idIntrantPhyto: 9990002 }).whereNotNull("dateFinUtilisation").orderBy("id").select("id");
    const s = await importReferentiel(db, [file], { millesime: "2026-12-01" });
    expect(s.fichiers[0].rejets).toEqual(file.rejets);
    expect(s.usages).toMatchObject({ produits: 1, lignes: 1 });
    const stored = await db("usage_phyto").where({ idIntrantPhyto: 9990002 }).select("libelleUsage", "dateFinDistribution", "dateFinUtilisation");
    expect(stored).toEqual([{ libelleUsage: "Blé*Trt Part.Aer.*Septoriose(s)", dateFinDistribution: "2026-06-30", dateFinUtilisation: "2027-06-30" }]);
    // The other products' uses, without dates, are unchanged.
    expect(await db("usage_phyto").whereNot({ idIntrantPhyto: 9990002 }).whereNotNull("dateFinUtilisation").orderBy("id").select("id")).toEqual(datedBefore);

    const before = await snapshot(db, "usage_phyto");
    const again = await importReferentiel(db, [file], { millesime: "2026-12-01" });
    expect(again.usages).toMatchObject({ produits: 0, lignes: 0 });
    expect(await snapshot(db, "usage_phyto")).toEqual(before);
  });
});
