import ExcelJS from "exceljs";
import { describe, expect, test } from "vitest";
import { COLONNES_REGISTRE, REFERENTIEL_REGISTRE } from "~/domain/registre";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { demoUser, expectRefused, insertUser, scopeOf, selectTilleuls, snapshot } from "../../tests/helpers/service";
import { saveRegistreIntervention } from "../intervention/service";
import { parseCsv, unzip } from "../referentiel-intrants/csv";
import { toIso } from "../db/dialect";
import { archiveDossier, fichierCsv, fichierJson, fichierXlsx, registreDossier, registreExploitation } from "./service";

const t = useTestDb();

/** The phyto inputs of a demo campaign, with their intervention (one register line each). */
async function phytoInputs(idCampagne: number) {
  return t
    .db()("intrant as i")
    .join("categorie_intrant as c", "c.id", "i.idCategorie")
    .join("action as a", "a.id", "i.idAction")
    .where({ "a.idCampagne": idCampagne, "c.idTypeIntrant": 539, "a.realisee": true })
    .orderBy("i.id")
    .select("i.id", "i.idAction", "i.idIntrant", "a.idParcelle", "a.updatedAt");
}

describe(`the plant-protection register (${dialect})`, () => {
  test("[issue28-registre] a demo farm's register holds one line per treated product per plot, with every annex column", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    const redacteur = await demoUser(db, "redacteur");
    const inputs = await phytoInputs(campagnes.tilleuls2025);
    expect(inputs.length).toBeGreaterThan(0);
    const r = await registreExploitation(scopeOf(db, redacteur), {
      idDossier: dossiers.beauce,
      idExploitation: exploitations.tilleuls,
      idCampagne: campagnes.tilleuls2025,
    });
    expect(r.referentiel).toBe(REFERENTIEL_REGISTRE);
    expect(r.lignes.map((l) => l.idIntrant).sort((a, b) => a - b)).toEqual(inputs.map((i) => Number(i.id)).sort((a, b) => a - b));
    for (const l of r.lignes) {
      for (const c of COLONNES_REGISTRE) expect(l, c.cle).toHaveProperty(c.cle);
      expect(l.produit).not.toBe("");
      expect(l.amm).toMatch(/^\d{7}$/);
      expect(l.date >= "2023-01-01" && l.date <= "2026-12-31").toBe(true);
    }
    // A crop of the EPPO table is named by its code (winter wheat of the demo: TRZAW).
    expect(r.lignes.some((l) => l.codeEppo === "TRZAW")).toBe(true);
    // A date range reads the same farm's base campaigns: the campaign's lines are within the range's.
    const range = await registreExploitation(scopeOf(db, redacteur), {
      idDossier: dossiers.beauce,
      idExploitation: exploitations.tilleuls,
      du: "2023-01-01",
      au: "2026-12-31",
    });
    expect(range.lignes.length).toBeGreaterThanOrEqual(r.lignes.length);
    // The demo's treatments are before 2027: the arrêté does not require their conversion (art. 4), no deadline.
    expect(range.echeance).toBeNull();
  });

  test("[issue28-registre] the demo shows a finding of each kind on EARL des Tilleuls, each with its rule's source", async () => {
    const db = t.db();
    const { dossiers, exploitations } = t.demo();
    const r = await registreExploitation(scopeOf(db, await demoUser(db, "redacteur")), {
      idDossier: dossiers.beauce,
      idExploitation: exploitations.tilleuls,
      du: "2024-08-01",
      au: "2025-12-31",
    });
    const kinds = new Set(r.constats.map((c) => c.regle));
    expect([...kinds].sort()).toEqual([
      "applications-depassees",
      "champ-manquant",
      "delai-avant-recolte",
      "dose-depassee",
      "produit-retire",
      "usage-non-autorise",
      "usage-retire",
    ]);
    for (const c of r.constats) expect(c.source).not.toBe("");
    const late = r.constats.find((c) => c.regle === "delai-avant-recolte")!;
    expect(late.valeurs).toEqual({ recolte: "2025-07-20", jours: 19, delai: 35 });
    const withdrawn = r.constats.find((c) => c.regle === "produit-retire")!;
    expect(r.lignes.find((l) => l.idIntrant === withdrawn.idIntrant)?.produit).toBe("COCKPIT");
    const useEnded = r.constats.find((c) => c.regle === "usage-retire")!;
    expect(r.lignes.find((l) => l.idIntrant === useEnded.idIntrant)?.produit).toBe("KARATE AVEC TECHNOLOGIE ZEON");
    expect(useEnded.valeurs).toMatchObject({ date: "2025-05-10", dateFinUtilisation: "2025-03-31", dateFinDistribution: "2024-09-30" });
  });

  test("[issue28-registre] rights: a reader reads it, a synthesis right or no right gets nothing; only a writer edits the register's fields", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    const ask = { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls, idCampagne: campagnes.tilleuls2025 };
    const lecteur = await demoUser(db, "lecteur");
    expect((await registreExploitation(scopeOf(db, lecteur), ask)).lignes.length).toBeGreaterThan(0);
    await expectRefused(registreExploitation(scopeOf(db, await demoUser(db, "synthese")), ask), "errors.forbidden", 403);
    const stranger = { ...lecteur, id: await insertUser(db, { username: "etranger", nom: "Étranger", prenom: "Eve" }), username: "etranger" };
    await expectRefused(registreExploitation(scopeOf(db, stranger), ask), "errors.forbidden", 403);
    // A campaign of another farm asked through this farm: not found, nothing read.
    await expectRefused(registreExploitation(scopeOf(db, lecteur), { ...ask, idCampagne: campagnes.moulin2025 }), "errors.not-found", 404);
    await expectRefused(
      registreExploitation(scopeOf(db, lecteur), { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls }),
      "warning.invalid-form",
      400,
    );

    const [first] = await phytoInputs(campagnes.tilleuls2025);
    const token = { id: Number(first.idAction), updatedAt: toIso(first.updatedAt) };
    const reader = await selectTilleuls(t, "lecteur", "tilleuls2025");
    const before = await snapshot(db, "action");
    await expectRefused(saveRegistreIntervention(scopeOf(db, reader), token, { siretPrestataire: "73282932000074" }), "errors.forbidden", 403);
    expect(await snapshot(db, "action")).toEqual(before);
  });

  test("[issue28-registre] a writer records the stage and the contractor through the service; the register shows them; bad input changes nothing", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    const writer = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const [first] = await phytoInputs(campagnes.tilleuls2025);
    const token = { id: Number(first.idAction), updatedAt: toIso(first.updatedAt) };
    const stage = await db("stade_culture").where({ code: "32", idEchelleStadeAee: 1 }).first("id", "code");
    const before = await snapshot(db, "action");
    await expectRefused(saveRegistreIntervention(scopeOf(db, writer), token, { siretPrestataire: "12345678901234" }), "warning.invalid-form", 400, {
      fieldErrors: { siretPrestataire: ["warning.invalid"] },
    });
    await expectRefused(saveRegistreIntervention(scopeOf(db, writer), token, { idStadeCulture: 999999 }), "warning.invalid-form", 400);
    expect(await snapshot(db, "action")).toEqual(before);

    await saveRegistreIntervention(scopeOf(db, writer), token, {
      heureDebut: "18:30",
      heureFin: "20:00",
      idStadeCulture: stage.id,
      precisionStade: "2 nœuds",
      siretPrestataire: "732 829 320 00074",
      rentreeAnticipee: "on",
    });
    // The same token again is stale: refused, nothing written.
    await expectRefused(saveRegistreIntervention(scopeOf(db, writer), token, { heureDebut: "06:00" }), "errors.stale", 409);
    const r = await registreExploitation(scopeOf(db, writer), {
      idDossier: dossiers.beauce,
      idExploitation: exploitations.tilleuls,
      idCampagne: campagnes.tilleuls2025,
    });
    const line = r.lignes.find((l) => l.idIntrant === Number(first.id))!;
    expect(line).toMatchObject({ heureDebut: "18:30", heureFin: "20:00", stadeBbch: "32", siretPrestataire: "73282932000074", rentreeAnticipee: true });
    expect(line.stade).toContain("2 nœuds");
  });

  test("[issue28-registre] the E-Phy checks on recorded treatments: withdrawn product, use not authorised, dose above the use's", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    const redacteur = await demoUser(db, "redacteur");
    const [first] = await phytoInputs(campagnes.tilleuls2025);
    const ask = { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls, idCampagne: campagnes.tilleuls2025 };
    const base = await registreExploitation(scopeOf(db, redacteur), ask);
    const line = base.lignes.find((l) => l.idIntrant === Number(first.id))!;
    const product = await db("intrant_phyto").where({ idProduit: first.idIntrant, idSource: 1 }).first("id");
    // The E-Phy import's data for this product (as the catalogue import stores it): withdrawn the day before, one use
    // for the line's crop at half the dose applied, another crop's use.
    await db("intrant_phyto").where({ id: product.id }).update({ dateRetrait: "2020-01-01", retire: true });
    const ift = await db("culture_ift")
      .where({ idCulture: (await db("culture").where({ libelle: line.culture }).first("id")).id })
      .first("libelleIft");
    await db("usage_phyto").insert({
      idIntrantPhyto: product.id,
      libelleUsage: `${ift.libelleIft}*Trt Part.Aer.*Essai`,
      cultureUsage: ift.libelleIft,
      doseRetenue: (line.dose ?? 1) / 2,
      uniteDose: line.unite,
      nombreMaxApplication: 5,
      delaiAvantRecolte: 3,
    });
    const r = await registreExploitation(scopeOf(db, redacteur), ask);
    const rules = r.constats.filter((c) => c.idIntrant === line.idIntrant).map((c) => c.regle);
    expect(rules).toEqual(expect.arrayContaining(["produit-retire", "dose-depassee"]));
    expect(r.statut).toBe("constats");
    // The same product's use for another crop only: the use is not authorised for this crop.
    await db("usage_phyto").where({ idIntrantPhyto: product.id }).update({ cultureUsage: "Vigne", libelleUsage: "Vigne*Trt Part.Aer.*Essai" });
    const again = await registreExploitation(scopeOf(db, redacteur), ask);
    expect(again.constats.filter((c) => c.idIntrant === line.idIntrant).map((c) => c.regle)).toContain("usage-non-autorise");
  });

  // Rule: Regulation (EC) No 1107/2009, art. 46 (grace period after a withdrawal); E-Phy's withdrawal date and the
  // use's end-of-use date, as the catalogue import stores them (decision 0117).
  test("[issue28-registre] a withdrawn product used within its use's grace period has no finding; after the end of use, the finding names that date", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    const redacteur = await demoUser(db, "redacteur");
    const [first] = await phytoInputs(campagnes.tilleuls2025);
    const ask = { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls, idCampagne: campagnes.tilleuls2025 };
    const line = (await registreExploitation(scopeOf(db, redacteur), ask)).lignes.find((l) => l.idIntrant === Number(first.id))!;
    const product = await db("intrant_phyto").where({ idProduit: first.idIntrant, idSource: 1 }).first("id");
    const day = (offset: number) => new Date(Date.parse(`${line.date}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    const ift = await db("culture_ift")
      .where({ idCulture: (await db("culture").where({ libelle: line.culture }).first("id")).id })
      .first("libelleIft");
    // Withdrawn the day before the treatment; its use for the line's crop may be used until the day of the treatment.
    await db("intrant_phyto")
      .where({ id: product.id })
      .update({ dateRetrait: day(-1), retire: true });
    await db("usage_phyto").where({ idIntrantPhyto: product.id }).delete();
    await db("usage_phyto").insert({
      idIntrantPhyto: product.id,
      libelleUsage: `${ift.libelleIft}*Trt Part.Aer.*Essai`,
      cultureUsage: ift.libelleIft,
      doseRetenue: (line.dose ?? 1) * 2,
      uniteDose: line.unite,
      nombreMaxApplication: 50,
      delaiAvantRecolte: 0,
      dateFinDistribution: day(-1),
      dateFinUtilisation: day(0),
    });
    const withdrawnOf = async () =>
      (await registreExploitation(scopeOf(db, redacteur), ask)).constats.filter((c) => c.idIntrant === line.idIntrant && c.regle === "produit-retire");
    expect(await withdrawnOf()).toEqual([]);
    // The end of use the day before the treatment: used after it.
    await db("usage_phyto")
      .where({ idIntrantPhyto: product.id })
      .update({ dateFinUtilisation: day(-1) });
    expect((await withdrawnOf()).map((c) => c.valeurs)).toEqual([
      { motif: "fin-utilisation", date: line.date, dateRetrait: day(-1), dateFinUtilisation: day(-1) },
    ]);
    // No end-of-use date known: the withdrawal date is the one passed.
    await db("usage_phyto").where({ idIntrantPhyto: product.id }).update({ dateFinUtilisation: null });
    expect((await withdrawnOf()).map((c) => c.valeurs)).toEqual([{ motif: "retrait", date: line.date, dateRetrait: day(-1) }]);
  });

  test("[issue28-usage-retire] a use withdrawn while the product stays authorised: used after the use's end of use is a finding, within it none", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    const redacteur = await demoUser(db, "redacteur");
    const [first] = await phytoInputs(campagnes.tilleuls2025);
    const ask = { idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls, idCampagne: campagnes.tilleuls2025 };
    const line = (await registreExploitation(scopeOf(db, redacteur), ask)).lignes.find((l) => l.idIntrant === Number(first.id))!;
    const product = await db("intrant_phyto").where({ idProduit: first.idIntrant, idSource: 1 }).first("id");
    const day = (offset: number) => new Date(Date.parse(`${line.date}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    const ift = await db("culture_ift")
      .where({ idCulture: (await db("culture").where({ libelle: line.culture }).first("id")).id })
      .first("libelleIft");
    // The product authorised; its only use on the line's crop withdrawn, to be used until the day of the treatment.
    await db("intrant_phyto").where({ id: product.id }).update({ dateRetrait: null, retire: false });
    await db("usage_phyto").where({ idIntrantPhyto: product.id }).delete();
    const libelleUsage = `${ift.libelleIft}*Trt Part.Aer.*Essai`;
    await db("usage_phyto").insert({
      idIntrantPhyto: product.id,
      libelleUsage,
      cultureUsage: ift.libelleIft,
      doseRetenue: (line.dose ?? 1) * 2,
      uniteDose: line.unite,
      nombreMaxApplication: 50,
      delaiAvantRecolte: 0,
      dateFinDistribution: day(-30),
      dateFinUtilisation: day(0),
    });
    const findingsOf = async () =>
      (await registreExploitation(scopeOf(db, redacteur), ask)).constats.filter(
        (c) => c.idIntrant === line.idIntrant && (c.regle === "usage-retire" || c.regle === "produit-retire"),
      );
    expect(await findingsOf()).toEqual([]);
    await db("usage_phyto")
      .where({ idIntrantPhyto: product.id })
      .update({ dateFinUtilisation: day(-1) });
    const [finding, ...others] = await findingsOf();
    expect(others).toEqual([]);
    expect(finding.regle).toBe("usage-retire");
    expect(finding.valeurs).toEqual({ date: line.date, usage: libelleUsage, dateFinUtilisation: day(-1), dateFinDistribution: day(-30) });
    expect(finding.source).toMatch(/date fin utilisation/);
    // The product withdrawn before the treatment too: its finding only.
    await db("intrant_phyto")
      .where({ id: product.id })
      .update({ dateRetrait: day(-10), retire: true });
    expect((await findingsOf()).map((c) => c.regle)).toEqual(["produit-retire"]);
  });

  test("[issue28-registre] the files: the CSV reads back with the annex's columns, the workbook opens with its three sheets, the JSON states its text", async () => {
    const db = t.db();
    const { dossiers, exploitations, campagnes } = t.demo();
    const r = await registreExploitation(scopeOf(db, await demoUser(db, "lecteur")), {
      idDossier: dossiers.beauce,
      idExploitation: exploitations.tilleuls,
      idCampagne: campagnes.tilleuls2025,
    });
    const csv = fichierCsv(r);
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(csv.toString("utf8").replace(/^\uFEFF/, ""));
    expect(rows[0]).toEqual([...COLONNES_REGISTRE.map((c) => c.nom), "Référentiel"]);
    expect(rows.length - 1).toBe(r.lignes.length);
    const amm = COLONNES_REGISTRE.findIndex((c) => c.cle === "amm");
    expect(rows.slice(1).map((row) => row[amm])).toEqual(r.lignes.map((l) => l.amm ?? ""));

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await fichierXlsx(r)) as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Registre", "Contrôles", "À propos"]);
    expect(wb.getWorksheet("Registre")!.rowCount).toBe(r.lignes.length + 1);
    expect(wb.getWorksheet("À propos")!.getCell("B1").value).toBe(REFERENTIEL_REGISTRE);

    const json = JSON.parse(fichierJson(r).toString("utf8"));
    expect(json).toMatchObject({ referentiel: REFERENTIEL_REGISTRE, version: 1 });
    expect(json.lignes).toHaveLength(r.lignes.length);
  });

  test("[issue28-registre] the folder view and its archive hold one register per farm the user may read, with its status", async () => {
    const db = t.db();
    const { dossiers, exploitations } = t.demo();
    const f = await registreDossier(scopeOf(db, await demoUser(db, "redacteur")), { idDossier: dossiers.beauce, du: "2023-01-01", au: "2026-12-31" });
    expect(f.exploitations.map((e) => e.idExploitation).sort()).toEqual([exploitations.tilleuls, exploitations.moulin].sort());
    for (const e of f.exploitations) expect(["complet", "champs-manquants", "constats", "vide"]).toContain(e.statut);
    // The archive: one CSV per farm the user may read, and the folder's statuses.
    const files = unzip(await archiveDossier(scopeOf(db, await demoUser(db, "redacteur")), { idDossier: dossiers.beauce, du: "2023-01-01", au: "2026-12-31" }));
    const csvs = [...files.keys()].filter((n) => n.endsWith(".csv"));
    expect(csvs).toHaveLength(2);
    for (const n of csvs) expect(parseCsv(new TextDecoder().decode(files.get(n)).replace(/^\uFEFF/, ""))[0][0]).toBe("SIRET exploitation");
    expect(JSON.parse(new TextDecoder().decode(files.get("statuts-dossier.json"))).exploitations).toHaveLength(2);
    // A reader of the folder whose link on a farm gives less than reading gets no file of it (lecteur: both links read).
    const lecteur = unzip(await archiveDossier(scopeOf(db, await demoUser(db, "lecteur")), { idDossier: dossiers.beauce, du: "2023-01-01", au: "2026-12-31" }));
    expect([...lecteur.keys()].filter((n) => n.endsWith(".csv"))).toHaveLength(2);
    await expectRefused(
      registreDossier(scopeOf(db, await demoUser(db, "synthese")), { idDossier: dossiers.beauce, du: "2023-01-01", au: "2026-12-31" }),
      "errors.forbidden",
      403,
    );
  });
});
