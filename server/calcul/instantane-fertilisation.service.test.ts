import { describe, expect, test } from "vitest";
import { calculerIntervention, calculerParcelle } from "~/domain/calc/indicateurs/moteur";
import type { Indicateurs } from "~/domain/calc/indicateurs/types";
import { FertilisantSchema, EauSchema } from "~/domain/intrant";
import { InterventionSchema } from "~/domain/intervention";
import { MainOeuvreSchema } from "~/domain/main-oeuvre";
import type { OperationCulturaleInput } from "~/domain/operation-culturale";
import { ParcMaterielSchema } from "~/domain/parc-materiel";
import { RecolteSchema } from "~/domain/recolte";
import { selectTilleuls, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { parse } from "../errors";
import { getCaracteristiques, saveCaracteristiques } from "../exploitation-description/service";
import { saveIntervention } from "../intervention/service";
import { saveIntrant } from "../intrant/service";
import { saveMainOeuvre } from "../main-oeuvre/service";
import { saveOperationCulturale } from "../operation-culturale/service";
import { saveParcMateriel } from "../parc-materiel/service";
import { saveParcelle } from "../parcelle/service";
import { saveRecolte } from "../recolte/service";
import type { Utilisateur } from "../utilisateur/repo";
import { instantaneCampagne } from "./instantane";

/*
 * Issue 24 (decision 0086): facts recorded through the services, as the routes record them, reach the engine through
 * the one snapshot loader (instantaneCampagne, used by the live plot panel and the calculation series). Each value is
 * worked out by hand in its comment. Demo farm EARL des Tilleuls, campaign 2025.
 */
const t = useTestDb();

const BLE = 1; // Blé tendre d'hiver
const GRAIN = 661;
const AMMONITRATE = 1; // reference_fertilisant "Ammonitrate 33,5"
const UREE = 3; // "Urée 46"
const SOLUTION_390 = 4; // "Solution azotée 390 (30 % N)"

const operationBase: OperationCulturaleInput = {
  idTypeAction: 1,
  libelle: "Opération",
  remarque: undefined,
  materielTractant: undefined,
  materielTractes: [],
  eta: false,
  mainOeuvre: [],
  debitReel: undefined,
  debitCalcule: undefined,
  consoCarburantReelle: undefined,
  consoCarburantCalculee: undefined,
  profondeurTravail: 25,
  debitIrrigation: undefined,
  volumeBouillie: undefined,
  proportionSurfaceTravaillee: undefined,
  repercutAction: false,
};

async function contexte() {
  const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
  const idCampagne = t.demo().campagnes.tilleuls2025;
  const idParcelle = await saveParcelle(scopeOf(t.db(), redacteur), {
    libelle: `Essai azote ${Math.random().toString(36).slice(2, 7)}`,
    surface: "10",
  });
  const ouvrier = await saveMainOeuvre(
    scopeOf(t.db(), redacteur),
    parse(MainOeuvreSchema, {
      libelle: "Ouvrier",
      idTypeUser: "951",
      uta: "1",
    }),
  );
  // A manual spreading with its worker: no machine, so no fuel, no machinery; only the inputs count.
  const { id: epandage } = await saveOperationCulturale(scopeOf(t.db(), redacteur), {
    ...operationBase,
    idTypeAction: 12,
    libelle: "Épandage à la main",
    profondeurTravail: undefined,
    mainOeuvre: [ouvrier],
    debitReel: 2,
    consoCarburantReelle: 0,
  });
  return { redacteur, idCampagne, idParcelle, epandage };
}

const intervention = (redacteur: Utilisateur, idParcelle: number, idOperationCulturale: number, date = "15/03/2025") =>
  saveIntervention(
    scopeOf(t.db(), redacteur),
    parse(InterventionSchema, {
      idParcelle: String(idParcelle),
      idOperationCulturale: String(idOperationCulturale),
      date,
      frequence: "1",
      tauxSurface: "1",
      realisee: "on",
    }),
  );

const engrais = (redacteur: Utilisateur, idAction: number, idIntrant: number, quantite: string, n: string) =>
  saveIntrant(
    scopeOf(t.db(), redacteur),
    idAction,
    "fertilisant",
    parse(FertilisantSchema, {
      idCategorie: "655",
      idIntrant: String(idIntrant),
      origine: "776",
      quantite,
      dicLlUnite: "kg/ha",
      n,
    }),
  );

async function indicateursIntervention(idCampagne: number, idParcelle: number, idAction: number): Promise<Indicateurs> {
  const instantane = await instantaneCampagne(t.db(), idCampagne, {
    idParcelle,
  });
  const i = instantane.interventions.find((x) => x.id === idAction);
  expect(i, `intervention ${idAction}`).toBeDefined();
  return calculerIntervention(instantane, i!);
}

describe(`recorded facts reach the energy, GHG, N and economic figures (${dialect})`, () => {
  test("[issue24-urea] urea, a nitrogen solution and ammonium nitrate each take their own manufacturing energy, upstream GHG and field CO2", async () => {
    const { redacteur, idCampagne, idParcelle, epandage } = await contexte();
    const aUree = await intervention(redacteur, idParcelle, epandage);
    const aAmmo = await intervention(redacteur, idParcelle, epandage, "16/03/2025");
    const aSolution = await intervention(redacteur, idParcelle, epandage, "17/03/2025");
    await engrais(redacteur, aUree, UREE, "200", "46");
    await engrais(redacteur, aAmmo, AMMONITRATE, "300", "33,5");
    await engrais(redacteur, aSolution, SOLUTION_390, "100", "30");

    // Urea 200 kg/ha × 46 % = 92 kg N: energy 92 × 55 = 5,060 MJ/ha; field CO2 92 × 1.593 = 146.556;
    // manufacturing 92 × (4.54 − 1.593) = 271.124; together 92 × 4.54 = 417.68 kg CO2e/ha (GES'TIM+ G10).
    const uree = await indicateursIntervention(idCampagne, idParcelle, aUree);
    expect(uree["energie.indirecte.engrais"].valeur).toBeCloseTo(5060, 6);
    expect(uree["ges.direct.co2Uree"].valeur).toBeCloseTo(146.556, 6);
    expect(uree["ges.indirect.engrais"].valeur).toBeCloseTo(271.124, 6);
    expect(uree["energie.indirecte.engrais"].completude).toBe(100);
    expect(uree["ges.indirect.engrais"].explication.entrees.find((e) => e.objet === "intrant")?.source).toBe("catalogue:UREE");

    // Ammonium nitrate 300 kg/ha × 33.5 % = 100.5 kg N: energy 100.5 × 45 = 4,522.5 MJ/ha; manufacturing
    // 100.5 × 3.97 = 398.985 kg CO2e/ha; no field CO2.
    const ammo = await indicateursIntervention(idCampagne, idParcelle, aAmmo);
    expect(ammo["energie.indirecte.engrais"].valeur).toBeCloseTo(4522.5, 6);
    expect(ammo["ges.indirect.engrais"].valeur).toBeCloseTo(398.985, 6);
    expect(ammo["ges.direct.co2Uree"].valeur).toBe(0);
    expect(ammo["ges.indirect.engrais"].completude).toBe(100);

    // "Solution azotée 390" 100 kg/ha × 30 % = 30 kg N, a solution: energy 30 × 55 = 1,650 MJ/ha; field CO2
    // 30 × 0.797 = 23.91; manufacturing 30 × (4.99 − 0.797) = 125.79 kg CO2e/ha.
    const solution = await indicateursIntervention(idCampagne, idParcelle, aSolution);
    expect(solution["energie.indirecte.engrais"].valeur).toBeCloseTo(1650, 6);
    expect(solution["ges.direct.co2Uree"].valeur).toBeCloseTo(23.91, 6);
    expect(solution["ges.indirect.engrais"].valeur).toBeCloseTo(125.79, 6);
  });

  test("[issue24-machinery] the embodied energy of an operation with two machines and two people counts the machines' hours once", async () => {
    const { redacteur, idCampagne, idParcelle } = await contexte();
    const db = t.db();
    const tracteur = await saveParcMateriel(
      scopeOf(db, redacteur),
      parse(ParcMaterielSchema, {
        libelle: "Tracteur 100 ch",
        noClasse: "1",
        idCategorieMateriel: "1",
        idBasemeq: "101",
        typePropriete: "0",
        copropriete: "100",
        puissance: "100",
        poids: "4500",
        usure: "9000",
        coutEntretienReparation: "3,5",
        prixNeuf: "75000",
        prixAchat: "75000",
        ageAchat: "0",
        neufOccasion: "n",
        utilisationAnnuelle: "500",
      }),
    );
    const charrue = await saveParcMateriel(
      scopeOf(db, redacteur),
      parse(ParcMaterielSchema, {
        libelle: "Charrue 5 corps",
        noClasse: "2",
        idCategorieMateriel: "3",
        idBasemeq: "301",
        typePropriete: "0",
        copropriete: "100",
        debit: "1,2",
        poids: "1800",
        usure: "2500",
        coutEntretienReparation: "6",
        prixNeuf: "28000",
        prixAchat: "28000",
        utilisationAnnuelle: "150",
      }),
    );
    const chef = await saveMainOeuvre(scopeOf(db, redacteur), parse(MainOeuvreSchema, { libelle: "Chef", idTypeUser: "953", uta: "1" }));
    const salarie = await saveMainOeuvre(
      scopeOf(db, redacteur),
      parse(MainOeuvreSchema, {
        libelle: "Salarié",
        idTypeUser: "951",
        uta: "1",
      }),
    );
    const { id: labour } = await saveOperationCulturale(scopeOf(db, redacteur), {
      ...operationBase,
      libelle: "Labour à deux",
      materielTractant: tracteur,
      materielTractes: [charrue],
      mainOeuvre: [chef, salarie],
      debitReel: 1.25,
    });
    const idAction = await intervention(redacteur, idParcelle, labour, "10/10/2024");

    // One pass at 1.25 ha/h = 0.8 machine h/ha. Tractor 4,500 kg / 9,000 h = 0.5 kg/h, plough 1,800 kg / 2,500 h =
    // 0.72 kg/h: (0.5 + 0.72) × 0.8 × 85 MJ/kg = 82.96 MJ/ha (counting the two people's 1.6 h/ha would give 165.92).
    const r = await indicateursIntervention(idCampagne, idParcelle, idAction);
    expect(r["energie.indirecte.materiel"].valeur).toBeCloseTo(82.96, 6);
    expect(r["energie.indirecte.materiel"].completude).toBe(100);
    // The work time does count both people: 0.8 × 2 = 1.6 h/ha.
    expect(r["travail.temps.total"].valeur).toBeCloseTo(1.6, 6);
  });

  test("[issue24-n-exported] a harvested plot's N exported comes from the product's N content, and its balance is applied − exported", async () => {
    const { redacteur, idCampagne, idParcelle, epandage } = await contexte();
    const apport = await intervention(redacteur, idParcelle, epandage);
    await engrais(redacteur, apport, AMMONITRATE, "300", "33,5");
    const { id: moisson } = await saveOperationCulturale(scopeOf(t.db(), redacteur), {
      ...operationBase,
      idTypeAction: 15,
      libelle: "Moisson (ETA)",
      profondeurTravail: undefined,
      eta: true,
      debitReel: 2,
      consoCarburantReelle: 15,
    });
    const recolte = await intervention(redacteur, idParcelle, moisson, "20/07/2025");
    await saveRecolte(
      scopeOf(t.db(), redacteur),
      recolte,
      parse(RecolteSchema, {
        idCulture: String(BLE),
        dicIdTypeSortie: String(GRAIN),
        rendement: "8,5",
      }),
    );

    // Applied 300 × 33.5 % = 100.5 kg N/ha; exported 8.5 t/ha × 19 kg N/t (wheat grain, teneur_azote_produit) =
    // 161.5 kg N/ha; balance 100.5 − 161.5 = −61 kg N/ha; efficiency 161.5 / 100.5 = 1.607…
    const p = calculerParcelle(await instantaneCampagne(t.db(), idCampagne, { idParcelle }), idParcelle).indicateurs;
    expect(p["bilanAzote.apports"].valeur).toBeCloseTo(100.5, 6);
    expect(p["bilanAzote.exporte"].valeur).toBeCloseTo(161.5, 6);
    expect(p["bilanAzote.exporte"].completude).toBe(100);
    expect(p["bilanAzote.solde"].valeur).toBeCloseTo(-61, 6);
    expect(p["bilanAzote.efficience"].valeur).toBeCloseTo(161.5 / 100.5, 6);
    expect(p["bilanAzote.exporte"].explication.entrees.find((e) => e.objet === "recolte")?.source).toMatch(/^kg N\/t : /);
  });

  test("[issue24-structure] land rent and diverse costs come from the economics screen; left empty, they are defaults listed missing", async () => {
    const { redacteur, idCampagne, idParcelle } = await contexte();
    const db = t.db();
    const surface = async () => (await instantaneCampagne(db, idCampagne)).parcelles.reduce((s, p) => s + (p.surface ?? 0), 0);
    const structure = async () => calculerParcelle(await instantaneCampagne(db, idCampagne), idParcelle).indicateurs["economie.reel.chargesStructure"];
    const save = async (values: Record<string, string>) => {
      const current = (await getCaracteristiques(scopeOf(db, redacteur))).caracteristique;
      await saveCaracteristiques(scopeOf(db, redacteur), values, (current as { updatedAt?: string } | null)?.updatedAt ?? null);
    };
    const ha = await surface();
    expect(ha).toBeGreaterThan(10);

    await save({ fermageMoyen: "", chargesDiverses: "" });
    // Empty: 100 €/ha + 45 €/ha + 4,600 € / farm area, both terms listed missing.
    const defaut = await structure();
    expect(defaut.valeur).toBeCloseTo(100 + 45 + 4600 / ha, 6);
    expect(defaut.manquants.map((m) => m.champ).sort()).toEqual(["chargesDiverses", "fermageMoyen"]);
    expect(defaut.completude).toBe(0);

    await save({ fermageMoyen: "180", chargesDiverses: "9100" });
    // Recorded: 180 €/ha + 9,100 € / farm area (the recorded diverse costs replace 4,600 € + 45 €/ha).
    const saisi = await structure();
    expect(saisi.valeur).toBeCloseTo(180 + 9100 / ha, 6);
    expect(saisi.completude).toBe(100);
  });

  test("[issue24-labour] the labour costs take the hourly rate of the labour screen's amounts, 1,607 h per work unit", async () => {
    const { redacteur, idCampagne, idParcelle, epandage } = await contexte();
    const db = t.db();
    await saveMainOeuvre(scopeOf(db, redacteur), parse(MainOeuvreSchema, { libelle: "Salarié à mi-temps", idTypeUser: "951", uta: "0,5", montant: "12000" }));
    // The rate is Σ amounts / (Σ work units × 1,607 h) over the items that have both (the demo's and the one above;
    // the "Ouvrier" of contexte() has no amount and is left out).
    const items = (await db("main_oeuvre").where({ idCampagne }).select("uta", "montant")).map((r) => ({
      uta: Number(r.uta),
      montant: r.montant == null ? null : Number(r.montant),
    }));
    const payes = items.filter((i) => i.montant != null && i.montant > 0 && i.uta > 0);
    expect(payes.length).toBeGreaterThanOrEqual(2);
    const taux = payes.reduce((s, i) => s + i.montant!, 0) / (payes.reduce((s, i) => s + i.uta, 0) * 1607);
    expect((await instantaneCampagne(db, idCampagne)).tauxHoraireMainOeuvre).toBeCloseTo(taux, 9);

    // The manual spreading works 2 ha/h with one worker: 0.5 h/ha, so labour costs 0.5 × rate €/ha, complete.
    const a = await intervention(redacteur, idParcelle, epandage);
    const cmo = (await indicateursIntervention(idCampagne, idParcelle, a))["economie.reel.chargesMainOeuvre.manuelle"];
    expect(cmo.valeur).toBeCloseTo(0.5 * taux, 9);
    expect(cmo.completude).toBe(100);
  });

  test("[issue24-liming] a limestone's CO2 of liming and a nitrogen solution's density reach the engine", async () => {
    const { redacteur, idCampagne, idParcelle, epandage } = await contexte();
    const aCalcaire = await intervention(redacteur, idParcelle, epandage);
    const aSolution = await intervention(redacteur, idParcelle, epandage, "18/03/2025");
    // Reference fertiliser 21 "Calcaire broyé (carbonate de calcium)", 2 t/ha: 2,000 kg × 0.44 kg CO2/kg = 880 kg CO2/ha.
    await saveIntrant(
      scopeOf(t.db(), redacteur),
      aCalcaire,
      "fertilisant",
      parse(FertilisantSchema, { idCategorie: "658", idIntrant: "21", origine: "776", quantite: "2", dicLlUnite: "t/ha", cao: "50" }),
    );
    // "Solution azotée 390" dosed 100 l/ha: 100 L × 1.3 kg/L × 30 % = 39 kg N/ha, with no density missing.
    await saveIntrant(
      scopeOf(t.db(), redacteur),
      aSolution,
      "fertilisant",
      parse(FertilisantSchema, { idCategorie: "655", idIntrant: String(SOLUTION_390), origine: "776", quantite: "100", dicLlUnite: "l/ha", n: "30" }),
    );
    const calcaire = await indicateursIntervention(idCampagne, idParcelle, aCalcaire);
    expect(calcaire["ges.direct.co2Chaulage"].valeur).toBeCloseTo(880, 6);
    const solution = await indicateursIntervention(idCampagne, idParcelle, aSolution);
    expect(solution["fertilisation.n.mineral"].valeur).toBeCloseTo(39, 6);
    expect(solution["fertilisation.n.mineral"].manquants.map((m) => m.champ)).not.toContain("densite");
  });

  test("[issue24-irrigation] an irrigation by a diesel motor-pump counts its fuel once and no pumping electricity", async () => {
    const { redacteur, idCampagne, idParcelle } = await contexte();
    const db = t.db();
    const pompe = await saveParcMateriel(
      scopeOf(db, redacteur),
      parse(ParcMaterielSchema, {
        libelle: "Motopompe diesel",
        noClasse: "9",
        idCategorieMateriel: "17",
        idBasemeq: "1701",
        typePropriete: "0",
        copropriete: "100",
        puissance: "80",
        poids: "1500",
        usure: "15000",
        prixNeuf: "25000",
        prixAchat: "25000",
        utilisationAnnuelle: "400",
      }),
    );
    const { id: irrigation } = await saveOperationCulturale(scopeOf(db, redacteur), {
      ...operationBase,
      idTypeAction: 14,
      libelle: "Irrigation motopompe",
      materielTractant: pompe,
      profondeurTravail: 0,
      debitIrrigation: 45,
      debitReel: 0.5,
      consoCarburantReelle: 12,
    });
    const idAction = await intervention(redacteur, idParcelle, irrigation, "05/07/2025");
    await saveIntrant(
      scopeOf(db, redacteur),
      idAction,
      "eau",
      parse(EauSchema, {
        idCategorie: "5421",
        quantite: "30",
        dicLlUnite: "mm",
      }),
    );

    // 12 L/ha of fuel × 43 MJ/L = 516 MJ/ha; the 300 m3/ha of water are not counted again as pumping electricity
    // (an electric pump would add 300 × 0.35 × 8.28 = 869.4 MJ/ha).
    const r = await indicateursIntervention(idCampagne, idParcelle, idAction);
    expect(r["energie.directe.carburant"].valeur).toBeCloseTo(516, 6);
    expect(r["energie.directe.irrigation"].valeur).toBe(0);
    expect(r["energie.directe"].valeur).toBeCloseTo(516, 6);
    expect(r["travail.eau"].valeur).toBeCloseTo(300, 6);
    expect(r["energie.directe.irrigation"].explication.remarques).toContain("irrigation-gazole");
  });

  test("[issue24-demo] the demo's seeded series shows N exported on its harvested plots and machinery energy, none 0 % complete", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2024;
    const serie = await db("calcul_serie").where({ idCampagne, statut: "termine" }).orderBy("id", "desc").first("id");
    expect(serie).toBeDefined();
    const lignes = await db("calcul_resultat")
      .where({ idCalculSerie: serie.id, niveau: "parcelle" })
      .whereIn("code", ["bilanAzote.exporte", "energie.indirecte.materiel"])
      .select("idEntite", "code", "valeur", "completude");
    const recoltees = new Set(
      (
        await db("recolte as r").join("action as a", "a.id", "r.idAction").where("a.idCampagne", idCampagne).where("a.realisee", true).select("a.idParcelle")
      ).map((r) => String(r.idParcelle)),
    );
    expect(recoltees.size).toBeGreaterThan(0);
    for (const code of ["bilanAzote.exporte", "energie.indirecte.materiel"]) {
      const parCode = lignes.filter((l) => l.code === code && recoltees.has(String(l.idEntite)));
      expect(parCode.length, code).toBe(recoltees.size);
      for (const l of parCode) {
        expect(Number(l.valeur), `${code} of plot ${l.idEntite}`).toBeGreaterThan(0);
        expect(Number(l.completude), `${code} of plot ${l.idEntite}`).toBeGreaterThan(0);
      }
    }
  });
});
