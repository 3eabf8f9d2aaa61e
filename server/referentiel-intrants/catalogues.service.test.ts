import { beforeAll, describe, expect, test } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import {
  autresIntrants,
  categories,
  cibles,
  cultureSemence,
  dosesReference,
  EAU,
  fertilisants,
  isEau,
  matiereActive,
  phytosParAmm,
  rechercherPhytos,
  semences,
} from "./service";

const t = useTestDb();

/** Unreferenced inputs (origin 777) of the Beauce folder, one per kind, and one of the Bocage folder. */
const ids: Record<string, number> = {};
beforeAll(async () => {
  const db = t.db();
  const { beauce, bocage } = t.demo().dossiers;
  const add = async (key: string, row: Record<string, unknown>) => {
    const [r] = await db("intrant_dossier")
      .insert({ biocontrole: false, ...row })
      .returning("id");
    ids[key] = Number(typeof r === "object" ? (r as { id: number }).id : r);
  };
  await add("phyto", {
    idDossier: beauce,
    dicIdTypeIntrant: 539,
    libelle: "Codix maison (préparation de la coopérative)",
    code: "2130999",
    matiereActive: 440,
    uniteMatActive: "g/L",
  });
  await add("phytoBocage", { idDossier: bocage, dicIdTypeIntrant: 539, libelle: "Codix du Bocage" });
  await add("semence", { idDossier: beauce, dicIdTypeIntrant: 538, libelle: "Blé de ferme triée", code: "FERME1" });
  await add("autre", { idDossier: beauce, dicIdTypeIntrant: 543, libelle: "Ficelle de la coopérative" });
});

describe(`input catalogues read by the dialogs (${dialect})`, () => {
  test("[C-PHYTO-15] products are searched by name, other trade name or AMM, with the folder's unreferenced inputs (origin 777) first", async () => {
    const db = t.db();
    const { beauce } = t.demo().dossiers;
    const byName = await rechercherPhytos(db, { q: "codix", idDossier: beauce });
    expect(byName.map((p) => [p.nomProduit, p.origine, p.cle])).toEqual([
      ["Codix maison (préparation de la coopérative)", 777, `${ids.phyto}-777`],
      ["CODIX", 776, "2130140-1"],
    ]);
    expect(byName[1]).toEqual({
      idProduit: 2130140,
      idSource: 1,
      cle: "2130140-1",
      nomProduit: "CODIX",
      ammProduit: "2130140",
      typeProduit: "Herbicide",
      source: "E-Phy (ANSES)",
      biocontrole: false,
      remarque: null,
      idDossier: null,
      dicIdTypeIntrant: 5391,
      codeTypeIntrant: "HERBICIDE",
      origine: 776,
      retire: false,
    });
    expect(byName[0].idDossier).toBe(beauce);
    // Other trade names and AMM prefixes; another folder's inputs are not offered.
    expect((await rechercherPhytos(db, { q: "pendif" })).map((p) => p.nomProduit)).toEqual(["CODIX"]);
    expect((await rechercherPhytos(db, { q: "2130068" })).map((p) => p.nomProduit)).toEqual(["COMPIL"]);
    expect((await rechercherPhytos(db, { q: "codix", idDossier: beauce })).some((p) => p.nomProduit === "Codix du Bocage")).toBe(false);
    // Withdrawn products are left out unless asked for; the limit holds.
    expect((await rechercherPhytos(db, { q: "dimate" })).length).toBe(0);
    expect((await rechercherPhytos(db, { q: "dimate", inclureRetires: true }))[0]).toMatchObject({ nomProduit: "DIMATE BF 400", retire: true });
    expect(await rechercherPhytos(db, { limit: 5 })).toHaveLength(5);
    // A LIKE wildcard typed by the user is a plain character.
    expect((await rechercherPhytos(db, { q: "%" })).map((p) => p.nomProduit)).toEqual(["RHIZOPON AA POUDRE 0,5%", "SHARPEN 33% EC"]);
  });

  test("[C-PHYTO-15] the products of the Daplos sample are in the catalogue with their AMM", async () => {
    const db = t.db();
    // The sample's names: COMPIL, DEVRINOL 450 SC (a trade name of COLZAMID) and MILDICUT.
    for (const [q, amm, nom, code] of [
      ["compil", "2130068", "COMPIL", "HERBICIDE"],
      ["devrinol", "8800603", "COLZAMID", "HERBICIDE"],
      ["mildicut", "2090126", "MILDICUT", "FONGICIDE"],
    ]) {
      expect((await rechercherPhytos(db, { q }))[0], q).toMatchObject({ nomProduit: nom, ammProduit: amm, codeTypeIntrant: code });
      expect((await rechercherPhytos(db, { q: amm }))[0].nomProduit).toBe(nom);
    }
    // Looked up by AMM as a Daplos file gives them (withdrawn products included); unknown AMMs are absent.
    const byAmm = await phytosParAmm(db, ["2130068", "8800603", "2090126", "8800006", "0000000"]);
    expect([...byAmm.keys()].sort()).toEqual(["2090126", "2130068", "8800006", "8800603"]);
    expect(byAmm.get("8800006")).toMatchObject({ nomProduit: "DIMATE BF 400", retire: true, cle: "8800006-1" });
  });

  test("[C-PHYTO-16] the active matter is read by idProduit-idSource: content, unit and composition; a folder input gives its own content", async () => {
    const db = t.db();
    expect(await matiereActive(db, "2130140-1")).toEqual({
      id: 2130140,
      quantite: 440,
      unite: "g/L",
      composition: [
        { libelle: "pendiméthaline", quantite: 400, unite: "g/L", famille: null },
        { libelle: "diflufénican", quantite: 40, unite: "g/L", famille: null },
      ],
    });
    expect((await matiereActive(db, "2130068-1"))?.composition).toEqual([{ libelle: "diflufénican", quantite: 500, unite: "g/L", famille: null }]);
    expect(await matiereActive(db, `${ids.phyto}-777`, t.demo().dossiers.beauce)).toEqual({ id: ids.phyto, quantite: 440, unite: "g/L", composition: [] });
    expect(await matiereActive(db, `${ids.phyto}-777`, t.demo().dossiers.bocage)).toBeNull();
    expect(await matiereActive(db, "1-1")).toBeNull();
    expect(await matiereActive(db, "n'importe quoi")).toBeNull();
  });

  test("[C-PHYTO-17] [C-PHYTO-07] reference doses by AMM, crop and harvest year, with `exists` per target; the latest earlier year's list serves a later year", async () => {
    const db = t.db();
    const adventices = (await cibles(db, { q: "Adventices" }))[0];
    const septoriose = (await cibles(db, { q: "Septoriose" }))[0];
    const codix = await dosesReference(db, { codeAmm: "2130140", idCulture: 1, anneeRecolte: 2026, idCibles: [adventices.id, septoriose.id] });
    expect(codix.anneeRecolte).toBe(2026);
    expect(codix.doses).toHaveLength(1);
    expect(codix.doses[0]).toEqual({
      id: expect.any(Number),
      codeAmm: "2130140",
      idCulture: 1,
      anneeRecolte: 2026,
      idCible: adventices.id,
      cible: "Adventices (désherbage)",
      biocontrole: false,
      doseRef: 2.5,
      idUniteDoseRef: null,
      uniteDoseRef: "L/HA",
    });
    expect(codix.exists).toEqual({ [adventices.id]: true, [septoriose.id]: false });
    // 2027 has no list yet: 2026's serves; a year before any list takes the earliest.
    expect((await dosesReference(db, { codeAmm: "2130140", idCulture: 1, anneeRecolte: 2027 })).anneeRecolte).toBe(2026);
    expect((await dosesReference(db, { codeAmm: "2130140", idCulture: 1, anneeRecolte: 2020 })).anneeRecolte).toBe(2026);
    // A product with several targets on a crop: the crop-level dose is the smallest (IFT method).
    const boxette = await dosesReference(db, { codeAmm: "2180523", idCulture: 14, anneeRecolte: 2026 });
    expect(boxette.doses.length).toBeGreaterThanOrEqual(5);
    expect(boxette.doseCulture?.doseRef).toBe(0.6);
    // Biocontrol products say so; grams per hectare are given in KG/HA.
    expect((await dosesReference(db, { codeAmm: "2190198", idCulture: 1, anneeRecolte: 2026 })).doses.every((d) => d.biocontrole)).toBe(true);
    expect((await dosesReference(db, { codeAmm: "2080094", idCulture: 4, anneeRecolte: 2026 })).doses[0]).toMatchObject({
      doseRef: 0.095,
      uniteDoseRef: "KG/HA",
    });
    // No list at all for this product and crop.
    expect(await dosesReference(db, { codeAmm: "2130140", idCulture: 15, anneeRecolte: 2026, idCibles: [adventices.id] })).toEqual({
      anneeRecolte: null,
      doses: [],
      exists: { [adventices.id]: false },
      doseCulture: null,
    });
  });

  test("reference doses cover wheat, barley, maize, rapeseed, sunflower, peas and sugar beet", async () => {
    const db = t.db();
    const covered = (await db("reference_dose_cible_ift").distinct("idCulture")).map((r: { idCulture: number }) => Number(r.idCulture));
    for (const culture of [1, 4, 10, 14, 15, 20, 25]) expect(covered).toContain(culture);
  });

  test("[C-FERT-19] [C-FERT-10] reference fertilisers by type, with the folder's fertilisers (origin 777) and their composition", async () => {
    const db = t.db();
    const { beauce } = t.demo().dossiers;
    const minerals = await fertilisants(db, { idTypeFertilisant: 655 });
    const ammonitrate = minerals.find((f) => f.libelle === "Ammonitrate 33,5");
    expect(ammonitrate).toMatchObject({
      idTypeFertilisant: 655,
      idDossier: null,
      codeEges: "AMMONITRATE",
      origine: 776,
      n: 33.5,
      p2o5: null,
      k2o: null,
      so3: null,
      mgo: null,
      co: null,
    });
    expect(minerals.find((f) => f.libelle.startsWith("Engrais NPK 15-15-15"))).toMatchObject({ n: 15, p2o5: 15, k2o: 15 });
    expect(minerals.some((f) => f.libelle.startsWith("Fumier"))).toBe(false);
    const solids = await fertilisants(db, { idTypeFertilisant: 657, idDossier: beauce });
    expect(solids.find((f) => f.libelle === "Fumier de bovins" && f.origine === 776)).toMatchObject({
      n: 0.55,
      k2o: 0.85,
      confiance: "medium",
      source: expect.stringContaining("Institut de l'Élevage"),
    });
    const folder = solids.filter((f) => f.origine === 777);
    expect(folder.map((f) => f.libelle)).toContain("Ammonitrate 33,5");
    expect(folder.find((f) => f.libelle === "Ammonitrate 33,5")).toMatchObject({ idDossier: beauce, n: 33.5 });
    expect(folder.find((f) => f.libelle === "Engrais foliaire de la coopérative")).toMatchObject({ n: null });
    for (const type of [655, 656, 657, 658, 659]) expect((await fertilisants(db, { idTypeFertilisant: type })).length).toBeGreaterThan(0);
  });

  test("[C-OTHER-06] other inputs: idIntrantDossier, intNom, intCode, intMatActive, intBiocontrole, intRemarque, source, dicIdTypeIntrant; the folder's own", async () => {
    const db = t.db();
    const list = await autresIntrants(db, { idDossier: t.demo().dossiers.beauce });
    expect(list[0]).toMatchObject({ idIntrantDossier: ids.autre, intNom: "Ficelle de la coopérative", origine: 777, dicIdTypeIntrant: 543 });
    expect(list.find((a) => a.intCode === "FILM_ENRUB")).toEqual({
      idIntrantDossier: expect.any(Number),
      intNom: "Film d'enrubannage",
      intCode: "FILM_ENRUB",
      intMatActive: null,
      intBiocontrole: false,
      intRemarque: "Quantité en rouleaux ou en kg",
      source: "Sillon",
      dicIdTypeIntrant: 5432,
      idDossier: null,
      origine: 776,
    });
    expect((await autresIntrants(db, { dicIdTypeIntrant: 5433 })).every((a) => a.dicIdTypeIntrant === 5433)).toBe(true);
  });

  test("[C-SEED-23] [C-SEED-24] [C-SEED-25] seed varieties of a species, origin 776 and the folder's 777; the species' PMG and seeds per dose", async () => {
    const db = t.db();
    const { beauce } = t.demo().dossiers;
    const all = await semences(db, { idCulture: 1, idDossier: beauce });
    expect(all[0]).toEqual({
      id: ids.semence,
      libelle: "Blé de ferme triée",
      idCulture: null,
      idLocal: null,
      idDossier: beauce,
      idOriginIntrant: 777,
      codeGnis: "FERME1",
      commentaire: null,
    });
    expect(all.find((s) => s.libelle === "Apache")).toEqual({
      id: expect.any(Number),
      libelle: "Apache",
      idCulture: 1,
      idLocal: null,
      idDossier: null,
      idOriginIntrant: 776,
      codeGnis: null,
      commentaire: null,
    });
    expect((await semences(db, { idCulture: 1, idDossier: beauce, origine: 776 })).every((s) => s.idOriginIntrant === 776)).toBe(true);
    expect((await semences(db, { idCulture: 1, idDossier: beauce, origine: 777 })).map((s) => s.libelle)).toEqual(["Blé de ferme triée"]);
    expect((await semences(db, { idCulture: 14 })).map((s) => s.libelle)).toContain("DK Exception");
    expect(await cultureSemence(db, 10)).toEqual({ id: 10, libelle: "Maïs grain", culPmg: 300, culGrainDose: 50000 });
  });

  test("[C-WATER-06] water is the reference input 20011 of origin 776, not a catalogue row; categories by input type", async () => {
    const db = t.db();
    expect(EAU).toMatchObject({ idIntrant: 20011, origine: 776, unite: "mm" });
    expect(isEau({ idIntrant: 20011, dicIdOrigineIntrant: 776 })).toBe(true);
    expect(isEau({ idIntrant: 20011, dicIdOrigineIntrant: 777 })).toBe(false);
    expect((await categories(db, 542)).map((c) => c.id)).toEqual([5421, 5422, 5423]);
    expect((await categories(db, 540)).map((c) => [c.id, c.uniteDefaut, c.avertissement])).toEqual([
      [655, "kg/ha", false],
      [656, "kg/ha", false],
      [657, "t/ha", false],
      [658, "kg/ha", false],
      [659, "kg/ha", true],
    ]);
    expect((await cibles(db, { nature: "ravageur" })).map((c) => c.code)).toContain("MELIGETHES");
  });
});
