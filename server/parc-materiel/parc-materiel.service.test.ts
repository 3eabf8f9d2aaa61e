import { describe, expect, test } from "vitest";
import { machineCosts, TAUX_FINANCEMENT_DEFAUT } from "~/domain/calc/materiel";
import { DuplicationParcMaterielSchema, materielForCalc, ParcMaterielSchema } from "~/domain/parc-materiel";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { demoUser, expectRefused, snapshot, scopeOf } from "../../tests/helpers/service";
import { selectInContext } from "../contexte/service";
import type { Utilisateur } from "../utilisateur/repo";
import { duplicateParcMateriels, getDuplicationOptions, getParcMateriels, removeParcMateriels, saveParcMateriel } from "./service";

const t = useTestDb();

type Farm = "tilleuls" | "moulin" | "vallee";
async function contextFor(username: string, campagne: string, farm: Farm = "tilleuls", dossier: "beauce" | "bocage" = "beauce") {
  const user = await demoUser(t.db(), username);
  const { oads, dossiers, exploitations, campagnes } = t.demo();
  await selectInContext(t.db(), user, { intent: "oad", id: oads.reseauDemo });
  await selectInContext(t.db(), user, { intent: "dossier", id: dossiers[dossier] });
  await selectInContext(t.db(), user, { intent: "exploitations", ids: [exploitations[farm]] });
  await selectInContext(t.db(), user, { intent: "campagne", id: campagnes[campagne] });
  return user;
}

/** A 100 ch tractor (reference 101, class 1 traction, category 1) and a 5-body plough (reference 301, class 2, category 3), as the form sends them. */
const TRACTEUR = {
  libelle: "Tracteur 100 ch",
  noClasse: "1",
  idCategorieMateriel: "1",
  idBasemeq: "101",
  typePropriete: "0",
  copropriete: "100",
  puissance: "100",
  poids: "4500",
  coutEntretienReparation: "3,5",
  prixNeuf: "75000",
  prixAchat: "75000",
  ageAchat: "0",
  neufOccasion: "n",
  utilisationAnnuelle: "500",
};
const CHARRUE = {
  libelle: "Charrue 5 corps",
  noClasse: "2",
  idCategorieMateriel: "3",
  idBasemeq: "301",
  typePropriete: "0",
  copropriete: "100",
  debit: "1,2",
  coutEntretienReparation: "6",
  prixNeuf: "28000",
  prixAchat: "28000",
  utilisationAnnuelle: "150",
};
const input = (form: Record<string, string>) => ParcMaterielSchema.parse(form);

/** Field → first message of a failing form. */
function errors(form: Record<string, unknown>): Record<string, string> {
  const r = ParcMaterielSchema.safeParse(form);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
}

async function machinesOf(campagne: string) {
  return t.db()("parc_materiel").where({ idCampagne: t.demo().campagnes[campagne] }).orderBy("id");
}

describe(`machinery fleet (${dialect})`, () => {
  let redacteur: Utilisateur;

  test("[B-MACH-01] [B-MACH-02] [B-MACH-04] [B-MACH-05] [B-MACH-06] [B-LIST-09] [B-LIST-22] [B-API-10] a writer creates machines of the campaign (newest first), updates one in place and deletes one", async () => {
    redacteur = await contextFor("redacteur", "tilleuls2025");
    // The demo campaign has its own fleet; new machines come before it.
    const demo = (await getParcMateriels(scopeOf(t.db(), redacteur))).rows.map((r) => r.id);
    expect(demo.length).toBeGreaterThan(0);
    const tracteur = await saveParcMateriel(scopeOf(t.db(), redacteur), input(TRACTEUR));
    const charrue = await saveParcMateriel(scopeOf(t.db(), redacteur), input({ ...CHARRUE, typePropriete: "2", copropriete: "" }));
    let { rows } = await getParcMateriels(scopeOf(t.db(), redacteur));
    expect(rows.map((r) => r.id)).toEqual([charrue, tracteur, ...demo]);
    // noCategorie and idenBasemeq come from the chosen category and characteristic.
    expect(rows[1]).toMatchObject({
      libelle: "Tracteur 100 ch",
      noClasse: 1,
      noCategorie: 1,
      idCategorieMateriel: 1,
      idBasemeq: 101,
      idenBasemeq: "TRA-100",
      typePropriete: 0,
      copropriete: 100,
      puissance: 100,
      poids: 4500,
      coutEntretienReparation: 3.5,
      prixNeuf: 75000,
      prixAchat: 75000,
      ageAchat: 0,
      neufOccasion: "n",
      utilisationAnnuelle: 500,
      idCampagne: t.demo().campagnes.tilleuls2025,
    });
    expect(rows[0]).toMatchObject({
      noClasse: 2,
      noCategorie: 1,
      idCategorieMateriel: 3,
      idBasemeq: 301,
      idenBasemeq: "CHA-5",
      typePropriete: 2,
      copropriete: null,
      debit: 1.2,
    });

    await saveParcMateriel(
      scopeOf(t.db(), redacteur),
      input({ ...TRACTEUR, libelle: "Tracteur principal", utilisationAnnuelle: "600", remarque: "Révisé en 2025" }),
      { id: tracteur, updatedAt: rows[1].updatedAt },
    );
    ({ rows } = await getParcMateriels(scopeOf(t.db(), redacteur)));
    expect(rows.slice(0, 2).map((r) => [r.id, r.libelle, r.utilisationAnnuelle, r.remarque])).toEqual([
      [charrue, "Charrue 5 corps", 150, null],
      [tracteur, "Tracteur principal", 600, "Révisé en 2025"],
    ]);

    await removeParcMateriels(scopeOf(t.db(), redacteur), [charrue]);
    expect((await getParcMateriels(scopeOf(t.db(), redacteur))).rows.map((r) => r.id)).toEqual([tracteur, ...demo]);
    await removeParcMateriels(scopeOf(t.db(), redacteur), [tracteur]);
  });

  test("[B-MACH-03] [B-MACH-18] each machine comes with its calculated figures; empty lives and resale rate are those of its characteristic", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const id = await saveParcMateriel(scopeOf(t.db(), u), input(TRACTEUR));
    const { rows, references, tauxFinancement } = await getParcMateriels(scopeOf(t.db(), u));
    const row = rows.find((r) => r.id === id)!;
    const reference = references.find((r) => r.id === 101)!;
    expect(reference).toMatchObject({ vieUsure: 10000, vieObsolescence: 12, tauxRevente: 43, anneeprix: 2024, prixMoyen: 75000 });
    expect(tauxFinancement).toBe(TAUX_FINANCEMENT_DEFAUT);
    // Duration min(12 years, 10,000 h / 500 h) = 12; resale 43 % of 75,000 = 32,250.
    expect(row.calcul.utilisationRetenue).toBe(500);
    expect(row.calcul.dureeAmortissement).toBe(12);
    expect(row.calcul.amortissement).toBeCloseTo((75000 - 32250) / 12, 6);
    expect(row.calcul.financement).toBeCloseTo(((75000 + 32250) / 2) * 0.035, 6);
    expect(row.calcul.entretienLocation).toBe(3.5);
    expect(row.calcul).toEqual(machineCosts(materielForCalc(row, reference), TAUX_FINANCEMENT_DEFAUT));
    // A value typed on the machine wins over the reference.
    await saveParcMateriel(scopeOf(t.db(), u), input({ ...TRACTEUR, obsolescence: "8", tauxRevente: "0" }), { id, updatedAt: row.updatedAt });
    const again = (await getParcMateriels(scopeOf(t.db(), u))).rows.find((r) => r.id === id)!;
    expect(again.calcul.dureeAmortissement).toBe(8);
    expect(again.calcul.amortissement).toBeCloseTo(75000 / 8, 6);
    await removeParcMateriels(scopeOf(t.db(), u), [id]);
  });

  test("[B-MACH-09] [B-MACH-10] [B-API-11] categories belong to a class; the characteristics of a category come on demand", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const data = await getParcMateriels(scopeOf(t.db(), u), { idCategorie: 3 });
    expect(data.classes.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(data.categories.filter((c) => c.idClasseMateriel === 2).map((c) => c.id)).toEqual([3, 4, 5, 6, 7]);
    expect(
      data.references
        .filter((r) => r.idCategorieMateriel === 3)
        .map((r) => r.identifiant)
        .sort(),
    ).toEqual(["CHA-5", "CHA-7SP"]);
    expect(data.references.find((r) => r.id === 301)).toMatchObject({
      identifiant: "CHA-5",
      prixMoyen: 28000,
      debit: 1.2,
      reparation: 6,
      vieUsure: 2500,
      vieObsolescence: 15,
      tauxRevente: 20,
      anneeprix: 2024,
      archive: false,
    });
  });

  test("[B-MACH-20] [B-MACH-21] [B-MACH-22] [B-MACH-23] [B-MACH-24] [B-MACH-25] [B-MACH-26] [B-MACH-27] [B-MACH-28] [B-MACH-07] [B-MACH-08] [B-CONST-01] [B-CONST-02] [B-CONST-03] the machine form's rules and bounds", () => {
    expect(errors({})).toMatchObject({
      libelle: "warning.required",
      noClasse: "warning.required",
      idCategorieMateriel: "warning.required",
      idBasemeq: "warning.required",
      typePropriete: "warning.required",
    });
    expect(errors(TRACTEUR)).toEqual({});
    expect(errors({ ...TRACTEUR, copropriete: "50,5" })).toEqual({ copropriete: "warning.integer" });
    expect(errors({ ...TRACTEUR, poids: "4500,5" })).toEqual({ poids: "warning.integer" });
    expect(errors({ ...TRACTEUR, puissance: "cent" })).toEqual({ puissance: "warning.numeric" });
    expect(errors({ ...TRACTEUR, puissance: "100,5" })).toEqual({});
    expect(errors({ ...TRACTEUR, ageAchat: "21" })).toEqual({ ageAchat: "warning.minmax" });
    expect(errors({ ...TRACTEUR, ageAchat: "-1" })).toEqual({ ageAchat: "warning.minmax" });
    expect(errors({ ...TRACTEUR, ageAchat: "2,5" })).toEqual({ ageAchat: "warning.integer" });
    expect(errors({ ...TRACTEUR, ageAchat: "20" })).toEqual({});
    expect(errors({ ...TRACTEUR, prixAchat: "2000001" })).toEqual({ prixAchat: "warning.minmax" });
    expect(errors({ ...TRACTEUR, prixAchat: "-1" })).toEqual({ prixAchat: "warning.minmax" });
    expect(errors({ ...TRACTEUR, prixAchat: "1000,50" })).toEqual({ prixAchat: "warning.integer" });
    expect(errors({ ...TRACTEUR, prixAchat: "2 000 000" })).toEqual({});
    expect(errors({ ...TRACTEUR, utilisationAnnuelle: "500,5" })).toEqual({ utilisationAnnuelle: "warning.integer" });
    // Traction (category 1): 0–10,000; any other category: 0–50,000.
    expect(errors({ ...TRACTEUR, utilisationAnnuelle: "10000" })).toEqual({});
    expect(errors({ ...TRACTEUR, utilisationAnnuelle: "10001" })).toEqual({ utilisationAnnuelle: "warning.minmax" });
    expect(errors({ ...TRACTEUR, utilisationAnnuelle: "-1" })).toEqual({ utilisationAnnuelle: "warning.minmax" });
    expect(errors({ ...CHARRUE, utilisationAnnuelle: "50000" })).toEqual({});
    expect(errors({ ...CHARRUE, utilisationAnnuelle: "50001" })).toEqual({ utilisationAnnuelle: "warning.minmax" });
    // Shown together with another field's error.
    expect(errors({ ...TRACTEUR, libelle: "", utilisationAnnuelle: "20000" })).toEqual({ libelle: "warning.required", utilisationAnnuelle: "warning.minmax" });
    expect(errors({ ...TRACTEUR, tauxRevente: "101" })).toEqual({ tauxRevente: "warning.minmax" });
    expect(errors({ ...TRACTEUR, tauxRevente: "100" })).toEqual({});
    expect(errors({ ...TRACTEUR, obsolescence: "21" })).toEqual({ obsolescence: "warning.minmax" });
    expect(errors({ ...TRACTEUR, usure: "500001" })).toEqual({ usure: "warning.minmax" });
    expect(errors({ ...TRACTEUR, usure: "500000" })).toEqual({});
    expect(errors({ ...TRACTEUR, typePropriete: "3" })).toEqual({ typePropriete: "warning.invalid" });
    for (const p of ["0", "1", "2"]) expect(errors({ ...TRACTEUR, typePropriete: p })).toEqual({});
    expect(errors({ ...TRACTEUR, typePompe: "x" })).toEqual({ typePompe: "warning.invalid" });
    for (const p of ["g", "e"]) expect(errors({ ...TRACTEUR, typePompe: p })).toEqual({});
    expect(errors({ ...TRACTEUR, neufOccasion: "x" })).toEqual({ neufOccasion: "warning.invalid" });
    for (const p of ["n", "o"]) expect(errors({ ...TRACTEUR, neufOccasion: p })).toEqual({});
  });

  test("[B-MACH-19] [B-MACH-14] the server keeps the cascade consistent, stores power only for the power categories and co-ownership only for own machines", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const before = await snapshot(t.db(), "parc_materiel");
    await expectRefused(saveParcMateriel(scopeOf(t.db(), u), input({ ...CHARRUE, noClasse: "1" })), "warning.invalid-form", 400, {
      fieldErrors: { idCategorieMateriel: ["warning.invalid"] },
    });
    await expectRefused(saveParcMateriel(scopeOf(t.db(), u), input({ ...CHARRUE, idBasemeq: "101" })), "warning.invalid-form", 400, {
      fieldErrors: { idBasemeq: ["warning.invalid"] },
    });
    await expectRefused(saveParcMateriel(scopeOf(t.db(), u), input({ ...CHARRUE, idBasemeq: "999999" })), "warning.invalid-form", 400, {
      fieldErrors: { idBasemeq: ["warning.invalid"] },
    });
    expect(await snapshot(t.db(), "parc_materiel")).toEqual(before);
    const charrue = await saveParcMateriel(scopeOf(t.db(), u), input({ ...CHARRUE, puissance: "120" }));
    const eta = await saveParcMateriel(scopeOf(t.db(), u), input({ ...TRACTEUR, typePropriete: "1", copropriete: "50" }));
    const [c, e] = await Promise.all([charrue, eta].map((id) => t.db()("parc_materiel").where({ id }).first()));
    expect(c.puissance).toBeNull();
    expect(e.copropriete).toBeNull();
    expect(Number(e.puissance)).toBe(100);
    await removeParcMateriels(scopeOf(t.db(), u), [charrue, eta]);
  });

  test("a stale save (the machine changed since it was loaded) is refused; an unknown id refuses the whole deletion", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const id = await saveParcMateriel(scopeOf(t.db(), u), input(TRACTEUR));
    await expectRefused(saveParcMateriel(scopeOf(t.db(), u), input(TRACTEUR), { id, updatedAt: "2000-01-01T00:00:00.000Z" }), "errors.stale", 409);
    await expectRefused(removeParcMateriels(scopeOf(t.db(), u), [id, 999999]), "parcMateriel.errors.delete-service-error", 404);
    expect((await machinesOf("tilleuls2025")).map((r) => r.id)).toContain(id);
    await removeParcMateriels(scopeOf(t.db(), u), [id]);
  });

  test("[B-RIGHTS-01] [B-RIGHTS-02] [B-RIGHTS-03] a reader and a locked campaign are refused every write, and nothing changes", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const id = await saveParcMateriel(scopeOf(t.db(), u), input(TRACTEUR));
    const lecteur = await contextFor("lecteur", "tilleuls2025");
    const before = await snapshot(t.db(), "parc_materiel");
    expect((await getParcMateriels(scopeOf(t.db(), lecteur))).canWrite).toBe(false);
    await expectRefused(saveParcMateriel(scopeOf(t.db(), lecteur), input(TRACTEUR)), "errors.forbidden", 403);
    await expectRefused(saveParcMateriel(scopeOf(t.db(), lecteur), input(TRACTEUR), { id, updatedAt: new Date().toISOString() }), "errors.forbidden", 403);
    await expectRefused(removeParcMateriels(scopeOf(t.db(), lecteur), [id]), "errors.forbidden", 403);
    // 2024 is published, hence locked, even for the folder's animator.
    const animateur = await contextFor("animateur", "tilleuls2024");
    expect((await getParcMateriels(scopeOf(t.db(), animateur))).canWrite).toBe(false);
    await expectRefused(saveParcMateriel(scopeOf(t.db(), animateur), input(TRACTEUR)), "errors.forbidden", 403);
    expect(await snapshot(t.db(), "parc_materiel")).toEqual(before);
    await removeParcMateriels(scopeOf(t.db(), u), [id]);
  });

  test("[B-MACH-29] [B-RIGHTS-11] [B-RIGHTS-12] a writer copies the ticked machines into other campaigns of a farm they write, in one go", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const { dossiers, exploitations, campagnes } = t.demo();
    const tracteur = await saveParcMateriel(scopeOf(t.db(), u), input({ ...TRACTEUR, libelle: "Tracteur à copier" }));
    const charrue = await saveParcMateriel(scopeOf(t.db(), u), input({ ...CHARRUE, libelle: "Charrue à copier", typePropriete: "2", copropriete: "" }));
    await t.db()("parc_materiel").where({ id: tracteur }).update({ utilisationAnnuelleCalculeeP: 321 });

    // Without folder animation only the current folder is offered; farms are those the folder's link lets write.
    const options = await getDuplicationOptions(scopeOf(t.db(), u), { idExploitation: exploitations.moulin });
    expect(options.dossierModifiable).toBe(false);
    expect(options.dossiers.map((d) => d.id)).toEqual([dossiers.beauce]);
    expect(options.exploitations.map((e) => e.id).sort()).toEqual([exploitations.tilleuls, exploitations.moulin].sort());
    expect(options.campagnes.map((c) => [c.id, c.locked])).toEqual([
      [campagnes.moulin2025, false],
      [campagnes.moulin2024, false],
    ]);
    const own = await getDuplicationOptions(scopeOf(t.db(), u), { idExploitation: exploitations.tilleuls });
    // The current campaign is not offered; the published 2024 one is locked.
    expect(own.campagnes.map((c) => [c.id, c.locked])).toEqual([
      [campagnes.tilleuls2025Simulation, false],
      [campagnes.tilleuls2024, true],
    ]);

    const demoFleet = { moulin2025: (await machinesOf("moulin2025")).length, moulin2024: (await machinesOf("moulin2024")).length };
    const { copies } = await duplicateParcMateriels(
      scopeOf(t.db(), u),
      DuplicationParcMaterielSchema.parse({
        ids: [String(tracteur), String(charrue)],
        idDossier: String(dossiers.beauce),
        idExploitation: String(exploitations.moulin),
        campagnes: [String(campagnes.moulin2025), String(campagnes.moulin2024)],
      }),
    );
    expect(copies).toBe(4);
    for (const c of ["moulin2025", "moulin2024"] as const) {
      // The copies come after the campaign's own (demo) machines.
      const all = await machinesOf(c);
      expect(all.length).toBe(demoFleet[c] + 2);
      const rows = all.slice(-2);
      expect(rows.map((r) => [r.libelle, r.idBasemeq, r.typePropriete, r.idenBasemeq])).toEqual([
        ["Tracteur à copier", 101, 0, "TRA-100"],
        ["Charrue à copier", 301, 2, "CHA-5"],
      ]);
      expect(rows[0]).toMatchObject({ utilisationAnnuelle: 500, prixAchat: 75000, copropriete: 100, utilisationAnnuelleCalculeeP: null });
    }
    // The source keeps its machines.
    expect((await machinesOf("tilleuls2025")).map((r) => r.id)).toEqual(expect.arrayContaining([tracteur, charrue]));
    await removeParcMateriels(scopeOf(t.db(), u), [tracteur, charrue]);
  });

  test("[B-MACH-30] [B-RIGHTS-10] [B-RIGHTS-11] [B-RIGHTS-12] duplication refusals: no campaign, another folder without animation, a farm not written, a locked or foreign campaign; nothing is copied", async () => {
    const { dossiers, exploitations, campagnes } = t.demo();
    const dup = (o: Record<string, unknown>) => DuplicationParcMaterielSchema.safeParse(o);
    expect(dup({ ids: ["1"], idDossier: "1" }).error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["idExploitation", "warning.required"],
      ["campagnes", "warning.required"],
    ]);
    expect(dup({ ids: [], idDossier: "1", idExploitation: "2", campagnes: [] }).error?.issues.map((i) => i.path[0])).toEqual(["ids", "campagnes"]);

    const u = await contextFor("redacteur", "tilleuls2025");
    const id = await saveParcMateriel(scopeOf(t.db(), u), input({ ...TRACTEUR, libelle: "Jamais copié" }));
    const before = await snapshot(t.db(), "parc_materiel");
    const base = { ids: [id], idDossier: dossiers.beauce, idExploitation: exploitations.moulin };
    // Another folder needs folder animation (redacteur writes in Bocage but does not animate Beauce).
    await expectRefused(
      duplicateParcMateriels(scopeOf(t.db(), u), {
        ...base,
        idDossier: dossiers.bocage,
        idExploitation: exploitations.vallee,
        campagnes: [campagnes.vallee2025],
      }),
      "errors.forbidden",
      403,
    );
    // A locked campaign among the chosen ones refuses the whole duplication.
    await expectRefused(
      duplicateParcMateriels(scopeOf(t.db(), u), {
        ...base,
        idExploitation: exploitations.tilleuls,
        campagnes: [campagnes.tilleuls2025Simulation, campagnes.tilleuls2024],
      }),
      "parcMateriel.errors.campagne-verrouillee",
      403,
      { params: { annee: 2024 } },
    );
    // A campaign of another farm, and the current campaign, are not destinations.
    await expectRefused(
      duplicateParcMateriels(scopeOf(t.db(), u), { ...base, campagnes: [campagnes.vallee2025] }),
      "parcMateriel.errors.duplicate-service-error",
      400,
    );
    await expectRefused(
      duplicateParcMateriels(scopeOf(t.db(), u), { ...base, idExploitation: exploitations.tilleuls, campagnes: [campagnes.tilleuls2025] }),
      "parcMateriel.errors.duplicate-service-error",
      400,
    );
    // A machine of another campaign cannot be copied from here.
    await expectRefused(
      duplicateParcMateriels(scopeOf(t.db(), u), { ...base, ids: [id, 999999], campagnes: [campagnes.moulin2025] }),
      "parcMateriel.errors.duplicate-service-error",
      404,
    );
    // A reader of the folder writes no farm.
    const lecteur = await contextFor("lecteur", "tilleuls2025");
    await expectRefused(duplicateParcMateriels(scopeOf(t.db(), lecteur), { ...base, campagnes: [campagnes.moulin2025] }), "errors.forbidden", 403);
    expect((await getDuplicationOptions(scopeOf(t.db(), lecteur), { idExploitation: exploitations.moulin })).dossiers).toEqual([]);

    // The animator may choose another folder; there only farms whose link gives write are offered (Moulin is read-only in Bocage).
    const animateur = await contextFor("animateur", "tilleuls2025");
    const options = await getDuplicationOptions(scopeOf(t.db(), animateur), { idDossier: dossiers.bocage });
    expect(options.dossierModifiable).toBe(true);
    expect(options.dossiers.map((d) => d.id).sort()).toEqual([dossiers.beauce, dossiers.bocage].sort());
    expect(options.exploitations.map((e) => e.id)).toEqual([exploitations.vallee]);
    await expectRefused(
      duplicateParcMateriels(scopeOf(t.db(), animateur), { ...base, idDossier: dossiers.bocage, campagnes: [campagnes.moulin2025] }),
      "errors.forbidden",
      403,
    );
    expect(await snapshot(t.db(), "parc_materiel")).toEqual(before);

    const valleeFleet = (await machinesOf("vallee2025")).map((r) => r.libelle);
    const { copies } = await duplicateParcMateriels(scopeOf(t.db(), animateur), {
      ...base,
      idDossier: dossiers.bocage,
      idExploitation: exploitations.vallee,
      campagnes: [campagnes.vallee2025],
    });
    expect(copies).toBe(1);
    expect((await machinesOf("vallee2025")).map((r) => r.libelle)).toEqual([...valleeFleet, "Jamais copié"]);
  });
});
