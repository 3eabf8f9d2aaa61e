import { describe, expect, test } from "vitest";
import { calculerParcelle } from "~/domain/calc/indicateurs/moteur";
import { InterventionSchema } from "~/domain/intervention";
import { PhytoSchema, SemenceSchema } from "~/domain/intrant";
import { OperationCulturaleSchema } from "~/domain/operation-culturale";
import { selectTilleuls, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { creerSerie, executerSerie, listerSeries } from "../calcul-serie/service";
import type { Db } from "../db/knex";
import { saveIntervention } from "../intervention/service";
import { saveIntrant } from "../intrant/service";
import { saveOperationCulturale } from "../operation-culturale/service";
import { parseFile } from "../referentiel-intrants/ephy-import";
import { importReferentiel } from "../referentiel-intrants/import-service";
import type { Utilisateur } from "../utilisateur/repo";
import { instantaneCampagne } from "./instantane";
import { getIndicateursParcelle } from "./service";

/*
 * IFT of data recorded through the services as the routes do (decision 0085, issue 24): the products are catalogue
 * rows (the E-Phy import's table), the reference doses come through the list's own importer, the operation, the
 * interventions and the inputs through their services with their schemas. Campaign: EARL des Tilleuls 2025.
 */
const t = useTestDb();
const ORIGINE = 776;
const BLE = "Blé tendre d'hiver";

type Ctx = { db: Db; user: Utilisateur; idCampagne: number; idParcelle: number; idCulture: number; pulve150: number };

async function contexte(): Promise<Ctx> {
  const db = t.db();
  const user = await selectTilleuls(t, "redacteur", "tilleuls2025");
  const idCampagne = t.demo().campagnes.tilleuls2025;
  const idParcelle = Number((await db("parcelle").where({ idCampagne }).orderBy("id").first("id")).id);
  const idCulture = Number((await db("culture").where({ libelle: BLE }).first("id")).id);
  // The campaign's own 2025 list is published (the demo ships 2026's, the nearest): one row of another product, so the
  // figures below compare with the same list before and after.
  await importerListe(db, [`2025;9990000;0;${BLE};;S5;1;L/HA`]);
  // A spraying operation with its spray volume, 150 L/ha (the operations screen's form).
  const op = await saveOperationCulturale(
    scopeOf(db, user),
    OperationCulturaleSchema.parse({
      idTypeAction: "11",
      libelle: `Pulvérisation 150 L/ha ${Math.random()}`,
      eta: "on",
      debitReel: "6",
      consoCarburantReelle: "1",
      volumeBouillie: "150",
      proportionSurfaceTravaillee: "100",
    }),
  );
  return { db, user, idCampagne, idParcelle, idCulture, pulve150: op.id };
}

/** Catalogue rows (as the E-Phy importer writes them): AMM, name, category, biocontrol flag. */
async function produits(db: Db, rows: { amm: string; nom: string; categorie: number; fonctions: string; biocontrole?: boolean }[]) {
  for (const r of rows) {
    await db("intrant_phyto").insert({
      idProduit: Number(r.amm),
      idSource: 1,
      nomProduit: r.nom,
      ammProduit: r.amm,
      typeProduit: r.fonctions,
      dicIdTypeIntrant: r.categorie,
      biocontrole: r.biocontrole ?? false,
    });
  }
}

/** A reference-dose list in the ministry's CSV layout, through the list's importer. */
async function importerListe(db: Db, lignes: string[]) {
  const csv = ["campagneIdMetier;numeroAmm;biocontrole;cultureLibelle;cibleLibelle;segmentIdMetier;dose;uniteLibelle", ...lignes].join("\n");
  await importReferentiel(db, [parseFile("doses-ift.csv", new TextEncoder().encode(csv))]);
}

async function intervention(c: Ctx, tauxSurface: string, date = "2025-04-15"): Promise<number> {
  return saveIntervention(
    scopeOf(c.db, c.user),
    InterventionSchema.parse({
      idParcelle: String(c.idParcelle),
      date,
      idOperationCulturale: String(c.pulve150),
      idCultureConcernee: String(c.idCulture),
      frequence: "1",
      tauxSurface,
      realisee: "on",
    }),
  );
}

async function phyto(c: Ctx, idAction: number, amm: string, quantite: string, unite: string, cible1?: number): Promise<number> {
  return saveIntrant(
    scopeOf(c.db, c.user),
    idAction,
    "phyto",
    PhytoSchema.parse({ idIntrant: amm, origine: String(ORIGINE), quantite, dicLlUnite: unite, ...(cible1 ? { cible1: String(cible1) } : {}) }),
  );
}

/** The plot's IFT figures by the one loader (the series' and the panel's snapshot) and the pure engine. */
async function iftParcelle(
  c: Ctx,
): Promise<Record<string, { valeur: number; completude: number; manquants: { objet: string; id: number | string; champ: string }[] }>> {
  const r = calculerParcelle(await instantaneCampagne(c.db, c.idCampagne, { idParcelle: c.idParcelle }), c.idParcelle, { parIntervention: false });
  return Object.fromEntries(
    Object.entries(r.indicateurs)
      .filter(([k]) => k.startsWith("ift."))
      .map(([k, v]) => [k, { valeur: v.valeur ?? 0, completude: v.completude, manquants: v.manquants }]),
  );
}

const ecart = (apres: Record<string, { valeur: number }>, avant: Record<string, { valeur: number }>, code: string) => apres[code].valeur - avant[code].valeur;

describe(`IFT of recorded data (${dialect})`, () => {
  test("[issue24-ift] research §2.3's worked example, recorded through the services: per segment as worked by hand, the L/hL row through the operation's spray volume", async () => {
    const c = await contexte();
    const db = c.db;
    await produits(db, [
      { amm: "9990101", nom: "HERBICIDE A", categorie: 5391, fonctions: "Herbicide" },
      { amm: "9990102", nom: "FONGICIDE B", categorie: 5392, fonctions: "Fongicide" },
      { amm: "9990103", nom: "FONGICIDE C", categorie: 5392, fonctions: "Fongicide" },
      { amm: "9990104", nom: "INSECTICIDE D", categorie: 5393, fonctions: "Insecticide" },
      { amm: "9990105", nom: "REGULATEUR E", categorie: 5396, fonctions: "Régulateur de croissance" },
      { amm: "9990106", nom: "BIOCONTROLE F", categorie: 5392, fonctions: "Fongicide", biocontrole: true },
      { amm: "9990107", nom: "PRODUIT G", categorie: 5399, fonctions: "Autre" },
      { amm: "9990108", nom: "TRAITEMENT SEMENCES", categorie: 5397, fonctions: "Fongicide" },
    ]);
    await importerListe(db, [
      `2025;9990101;0;${BLE};Vulpin des champs;S3;3;L/HA`,
      `2025;9990102;0;${BLE};;S5;1;L/HA`,
      `2025;9990103;0;${BLE};;S5;0,8;L/HA`,
      `2025;9990104;0;${BLE};Pucerons;S4;0,075;L/HA`,
      `2025;9990104;0;${BLE};Cicadelles;S4;0,1;L/HA`,
      `2025;9990105;0;${BLE};;S6;0,6;L/HA`,
      `2025;9990106;1;${BLE};;S2;2;KG/HA`,
    ]);
    const vulpin = Number((await db("cible").where({ libelle: "Vulpin des champs" }).first("id")).id);
    const avant = await iftParcelle(c);

    // #1 treated seed on the whole plot: the seed input with its treatment (the seed dialog).
    const semis = await intervention(c, "1", "2024-10-20");
    const semence = await db("reference_semence").where({ idCulture: c.idCulture }).orderBy("id").first("id");
    await saveIntrant(
      scopeOf(db, c.user),
      semis,
      "semence",
      SemenceSchema.parse({
        idCulture: String(c.idCulture),
        idIntrant: String(semence.id),
        origine: String(ORIGINE),
        quantite: "150",
        dicLlUnite: "kg/ha",
        idTraitement: "9990108",
        origineTraitement: String(ORIGINE),
        quantiteTraitement: "0,2",
        uniteTraitement: "l/ha",
      }),
    );
    // #2 herbicide A 1.5 L/ha at its target on 8 ha of 10 (surface rate 0.8).
    await phyto(c, await intervention(c, "0,8"), "9990101", "1,5", "l/ha", vulpin);
    // #3 tank mix of B 0.5 L/ha and C 0.4 L/ha, whole plot.
    const melange = await intervention(c, "1");
    await phyto(c, melange, "9990102", "0,5", "l/ha");
    await phyto(c, melange, "9990103", "0,4", "l/ha");
    // #4 insecticide D 0.05 L/ha, target unknown; #5 regulator E 0.2 L/hL; #6 biocontrol F 1 kg/ha; all whole plot.
    await phyto(c, await intervention(c, "1"), "9990104", "0,05", "l/ha");
    await phyto(c, await intervention(c, "1"), "9990105", "0,2", "l/hl");
    await phyto(c, await intervention(c, "1"), "9990106", "1", "kg/ha");
    // #7 a product without reference dose on 5 ha of 10.
    const sansDose = await phyto(c, await intervention(c, "0,5"), "9990107", "1", "l/ha");

    const apres = await iftParcelle(c);
    const d = (code: string) => ecart(apres, avant, `ift.cible.${code}`);
    // By hand (research §2.3): H = 1.5/3 × 0.8 = 0.40; F = 0.5/1 + 0.4/0.8 = 1.00; I = 0.05/0.075 = 0.667 (the smallest
    // target dose, at the crop); A = E 0.2 L/hL × 150 L/ha / 100 / 0.6 = 0.50 + G 1 × 0.5 = 0.50 → 1.00; TS = 1.00;
    // biocontrol = 1/2 = 0.50; chemical without TS = 0.40 + 1.00 + 0.667 + 1.00 = 3.067; chemical = 4.067; total = 4.567.
    expect(d("herbicides")).toBeCloseTo(0.4, 9);
    expect(d("fongicides")).toBeCloseTo(1, 9);
    expect(d("insecticides")).toBeCloseTo(0.05 / 0.075, 9);
    expect(d("autres")).toBeCloseTo(1, 9);
    expect(d("semences")).toBeCloseTo(1, 9);
    expect(d("biocontrole")).toBeCloseTo(0.5, 9);
    expect(d("chimiqueHorsTS")).toBeCloseTo(3 + 0.05 / 0.075 - 0.6, 9);
    expect(d("chimique")).toBeCloseTo(4 + 0.05 / 0.075 - 0.6, 9);
    expect(d("total")).toBeCloseTo(4.5 + 0.05 / 0.075 - 0.6, 9);
    // Only #7 was defaulted: it is listed, with what fixes it (a reference dose for the product).
    expect(apres["ift.cible.autres"].manquants).toContainEqual(expect.objectContaining({ objet: "intrant", id: sansDose, champ: "doseReference" }));
    expect(apres["ift.cible.autres"].completude).toBeLessThan(100);
    expect(apres["ift.cible.herbicides"].manquants.filter((m) => m.objet === "intrant" && m.id === sansDose)).toEqual([]);
  });

  test("[issue24-ift] a list imported after recording reaches the input saved before; a corrected list marks the series out of date and a recalculation gives the new figure", async () => {
    const c = await contexte();
    const db = c.db;
    await produits(db, [{ amm: "9990201", nom: "FONGICIDE TARDIF", categorie: 5392, fonctions: "Fongicide" }]);
    const avant = await getIndicateursParcelle(scopeOf(db, c.user), c.idParcelle);
    const total = (r: typeof avant) => r.indicateurs.find((i) => i.code === "ift.cible.total")!;
    // Recorded before the product is in the list: the term defaults to 1 × passes (0.5 on half the plot) and is listed.
    const idIntrant = await phyto(c, await intervention(c, "0,5"), "9990201", "0,6", "l/ha");
    const sansListe = await getIndicateursParcelle(scopeOf(db, c.user), c.idParcelle);
    expect(total(sansListe).valeur! - total(avant).valeur!).toBeCloseTo(0.5, 9);
    expect(total(sansListe).manquants).toContainEqual(expect.objectContaining({ objet: "intrant", id: idIntrant, champ: "doseReference" }));

    // The list is imported afterwards: 1.2 L/ha at the crop; 0.6 / 1.2 × 0.5 = 0.25, and nothing missing for it.
    await importerListe(db, [`2025;9990201;0;${BLE};;S5;1,2;L/HA`]);
    const avecListe = await getIndicateursParcelle(scopeOf(db, c.user), c.idParcelle);
    expect(total(avecListe).valeur! - total(avant).valeur!).toBeCloseTo(0.25, 9);
    expect(total(avecListe).manquants.filter((m) => m.id === idIntrant)).toEqual([]);

    // A series is calculated, then the ministry corrects the dose to 2.4 L/ha: the series is out of date.
    const valeurSerie = async (idSerie: number) =>
      Number(
        (
          await db("calcul_resultat")
            .where({ idCalculSerie: idSerie, niveau: "parcelle", idEntite: String(c.idParcelle), code: "ift.cible.total" })
            .first("valeur")
        ).valeur,
      );
    const perimee = async (idSerie: number) => (await listerSeries(db, c.user, [c.idCampagne])).find((s) => s.id === idSerie)!.perimee;
    const serie = await creerSerie(db, c.idCampagne, null);
    await executerSerie(db, serie);
    expect(await valeurSerie(serie)).toBeCloseTo(total(avecListe).valeur!, 9);
    expect(await perimee(serie)).toBe(false);
    await importerListe(db, [`2025;9990201;0;${BLE};;S5;2,4;L/HA`]);
    expect(await perimee(serie)).toBe(true);
    // The series keeps its figure (the record); a recalculation gives 0.6 / 2.4 × 0.5 = 0.125 instead of 0.25.
    const ancienne = await valeurSerie(serie);
    expect(ancienne).toBeCloseTo(total(avecListe).valeur!, 9);
    // (A new series replaces the unpublished ones of the campaign.)
    const nouvelle = await creerSerie(db, c.idCampagne, null);
    await executerSerie(db, nouvelle);
    expect(await perimee(nouvelle)).toBe(false);
    expect((await valeurSerie(nouvelle)) - ancienne).toBeCloseTo(0.125 - 0.25, 9);
    // A catalogue change (the product flagged biocontrol) marks the new series too.
    await db("intrant_phyto").where({ ammProduit: "9990201" }).update({ biocontrole: true });
    expect(await perimee(nouvelle)).toBe(true);
  });

  test("[issue24-ift] a product both fungicide and insecticide counts in its row's segment (insecticide), not its first function's", async () => {
    const c = await contexte();
    const db = c.db;
    // Its category is the fungicides' (the catalogue's first function), its row for the crop and target says S4.
    await produits(db, [{ amm: "9990301", nom: "FONGI-INSECTICIDE", categorie: 5392, fonctions: "Fongicide | Insecticide" }]);
    await importerListe(db, [`2025;9990301;0;${BLE};Pucerons;S4;0,5;L/HA`]);
    const pucerons = Number((await db("cible").where({ libelle: "Pucerons" }).first("id")).id);
    const avant = await iftParcelle(c);
    await phyto(c, await intervention(c, "1"), "9990301", "0,25", "l/ha", pucerons);
    const apres = await iftParcelle(c);
    // 0.25 / 0.5 × 1 = 0.5, all of it insecticide.
    expect(ecart(apres, avant, "ift.cible.insecticides")).toBeCloseTo(0.5, 9);
    expect(ecart(apres, avant, "ift.cible.fongicides")).toBeCloseTo(0, 9);
    expect(ecart(apres, avant, "ift.culture.insecticides")).toBeCloseTo(0.5, 9);
  });
});
