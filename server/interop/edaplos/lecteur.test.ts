import { describe, expect, test } from "vitest";
import { resources } from "~/locales";
import { debutMessage, FIN_MESSAGE, parcelleXml, type CampagneEdaplos, type ParcelleEdaplos } from "./ecrivain";
import { lireEdaplos, planEdaplos, planifierEdaplos } from "./lecteur";

/**
 * The eDaplos reader (issue 25, decision 0108): XML written by Sillon's own writer read back into the Daplos import's
 * plan, a hand-written message shaped like a real export of another product (reference/edaplos-element-paths.txt)
 * with its odd inputs, and the files refused whole.
 */

const enc = (s: string) => new TextEncoder().encode(s);

const campagne: CampagneEdaplos = {
  id: 7,
  libelle: "2025",
  anneeRecolte: 2025,
  exploitation: { id: 3, libelle: "EARL des Tilleuls", siret: "12345678900011", adresse: "1 rue des Tilleuls", codePostal: "28000", ville: "Chartres" },
};

type Intrant = ParcelleEdaplos["interventions"][number]["intrants"][number];
type Intervention = ParcelleEdaplos["interventions"][number];
const intrant = (x: Partial<Intrant> & { id: number; libelle: string }): Intrant => ({
  idCategorie: null,
  idTypeIntrant: null,
  quantite: null,
  unite: null,
  amm: null,
  gnis: null,
  traitementSemence: false,
  composition: null,
  semence: null,
  cibles: 0,
  ...x,
});
const intervention = (x: Partial<Intervention> & { id: number; date: string }): Intervention => ({
  idTypeAction: null,
  operation: null,
  realisee: true,
  prevue: false,
  nombrePassage: 1,
  tauxSurface: 1,
  debit: null,
  volumeBouillie: null,
  intrants: [],
  recoltes: [],
  ...x,
});

const ble: ParcelleEdaplos = {
  id: 101,
  libelle: "Le Bas <Pré> & Co",
  surface: 12.5,
  irrigable: false,
  geometrie: JSON.stringify({
    type: "Polygon",
    coordinates: [
      [
        [1.59, 48.4],
        [1.6, 48.4],
        [1.6, 48.41],
        [1.59, 48.4],
      ],
    ],
  }),
  idModeConduite: 4,
  culture: { id: 1, libelle: "Blé tendre d'hiver" },
  interventions: [
    intervention({
      id: 1001,
      date: "2024-10-15",
      idTypeAction: 6,
      operation: "Semis",
      intrants: [intrant({ id: 1, idCategorie: 5381, idTypeIntrant: 538, libelle: "KWS Extase", quantite: 160, unite: "kg/ha", gnis: "0253007" })],
    }),
    intervention({
      id: 1002,
      date: "2024-11-05",
      idTypeAction: 11,
      operation: "Désherbage d'automne",
      intrants: [intrant({ id: 3, idCategorie: 5391, idTypeIntrant: 539, libelle: "DEFI", quantite: 3, unite: "l/ha", amm: "9300449" })],
    }),
    intervention({
      id: 1003,
      date: "2025-02-20",
      idTypeAction: 12,
      operation: "Apport d'ammonitrate",
      tauxSurface: 0.5,
      intrants: [
        intrant({ id: 5, idCategorie: 655, idTypeIntrant: 540, libelle: "Ammonitrate 27", quantite: 200, unite: "kg/ha", composition: { n: 27, so3: 6.5 } }),
      ],
    }),
    intervention({
      id: 1004,
      date: "2025-05-10",
      idTypeAction: 14,
      operation: "Irrigation",
      prevue: true,
      realisee: false,
      intrants: [intrant({ id: 7, idCategorie: 5421, idTypeIntrant: 542, libelle: "Eau", quantite: 30, unite: "mm" })],
    }),
    intervention({
      id: 1005,
      date: "2025-07-15",
      idTypeAction: 15,
      operation: "Moisson",
      recoltes: [
        { id: 11, idCulture: 1, culture: "Blé tendre d'hiver", idTypeSortie: 661, typeSortie: "Grain", rendement: 82, unite: "q/ha", caracteristiques: [] },
        { id: 12, idCulture: 1, culture: "Blé tendre d'hiver", idTypeSortie: 662, typeSortie: "Paille", rendement: 4, unite: "t/ha", caracteristiques: [] },
      ],
    }),
  ],
};
const orge: ParcelleEdaplos = {
  id: 102,
  libelle: "La Noue",
  surface: 3,
  irrigable: false,
  geometrie: null,
  idModeConduite: 5,
  culture: { id: 45, libelle: "Orge de printemps semée à l'automne" },
  interventions: [intervention({ id: 2001, date: "2024-09-01", idTypeAction: 1, operation: "Labour" })],
};

function ecrit(parcelles: ParcelleEdaplos[]): string {
  let xml = debutMessage({
    identification: "000042",
    creation: new Date("2026-02-04T10:18:35Z"),
    logiciel: { nom: "Sillon", version: "1.0" },
    emetteur: { id: "c", nom: "C" },
  });
  for (const p of parcelles) xml += parcelleXml(campagne, p, () => {});
  return xml + FIN_MESSAGE;
}

function refus(octets: Uint8Array): { key: string; params?: Record<string, unknown> } {
  try {
    lireEdaplos(octets);
  } catch (e) {
    return e as { key: string; params?: Record<string, unknown> };
  }
  throw new Error("not refused");
}

describe("eDaplos reader: Sillon's own export read back", () => {
  const xml = ecrit([ble, orge]);
  const plan = planifierEdaplos(enc(xml));

  test("[issue25] the farm is the plots' owner party, the campaign year the plots' harvest year", () => {
    expect(plan.exploitation).toMatchObject({ siret: "12345678900011", libelle: "EARL des Tilleuls", codePostal: "28000", commune: "Chartres" });
    expect(plan.annees).toEqual([2025]);
    expect(plan.version).toBe("eDaplos RAM:5");
  });

  test("[issue25] each plot with its key, name (entities decoded), area, crop and boundary", () => {
    const [a, b] = plan.parcelles;
    expect(a).toMatchObject({ cle: { ordre: 0, reference: "101", annee: 2025 }, libelle: "Le Bas <Pré> & Co", surface: 12.5, idCulture: 1, espece: "ZAR" });
    expect(a.geometrie).toEqual({
      type: "Polygon",
      coordinates: [
        [
          [1.59, 48.4],
          [1.6, 48.4],
          [1.6, 48.41],
          [1.59, 48.4],
        ],
      ],
    });
    expect(a.enfants).toMatchObject({ PS: 1, SC: 4 });
    // ZDH + ZMV + ZFB is two Sillon crops' codes apart from the period: the occupation's id names the right one.
    expect(b).toMatchObject({ cle: { reference: "102" }, surface: 3, idCulture: 45, geometrie: null });
    expect(plan.avertissements.filter((w) => w.cle.endsWith("culture-proche"))).toEqual([]);
  });

  test("[issue25] the interventions with their kind, date, share of the area, state; inputs with kind, code, dose, composition; the grain harvest", () => {
    const i = plan.parcelles[0].interventions;
    expect(i.map((x) => [x.guid, x.date, x.idTypeAction, x.libelleOperation])).toEqual([
      ["1001", "2024-10-15", 6, "Semis"],
      ["1002", "2024-11-05", 11, "Désherbage d'automne"],
      ["1003", "2025-02-20", 12, "Apport d'ammonitrate"],
      ["1004", "2025-05-10", 14, "Irrigation"],
      ["1005", "2025-07-15", 15, "Moisson"],
    ]);
    expect(i[2].tauxSurface).toBe(0.5);
    expect(i[3]).toMatchObject({ realisee: false, prevue: true });
    expect(i[0].intrants[0]).toMatchObject({ genre: "semence", idCategorie: 5381, gnis: "0253007", amm: null, quantite: 160, unite: "kg/ha" });
    expect(i[1].intrants[0]).toMatchObject({ genre: "phyto", idCategorie: 5391, amm: "9300449", quantite: 3, unite: "l/ha", libelle: "DEFI" });
    expect(i[2].intrants[0]).toMatchObject({ genre: "fertilisant", idCategorie: 655, quantite: 200, unite: "kg/ha", composition: { n: 27, so3: 6.5 } });
    expect(i[2].intrants[0].lignesComposition).toHaveLength(2);
    expect(i[3].intrants[0]).toMatchObject({ genre: "eau", quantite: 30, unite: "mm" });
    // 82 q/ha written as 8.2 t; the straw (co-product) is listed as not taken, not written as grain.
    expect(i[4].recoltes).toEqual([expect.objectContaining({ typeProduit: "ZJH", rendement: 8.2, unite: "t/ha" })]);
    expect(plan.nonPris).toContainEqual(expect.objectContaining({ type: "VR", raison: "sans-equivalent", detail: expect.stringContaining("ZJI") }));
    expect(plan.parcelles[1].interventions[0]).toMatchObject({ idTypeAction: 1, libelleOperation: "Labour" });
  });

  test("[issue25] every element counted as taken or not taken, each not taken with its line in the file", () => {
    const lignes = xml.split("\n");
    for (const [type, c] of Object.entries(plan.comptes)) expect(c.pris + c.nonPris, type).toBe(c.lus);
    expect(plan.comptes).toMatchObject({
      DP: { lus: 2, pris: 2 },
      PV: { lus: 6, pris: 6 },
      VI: { lus: 4, pris: 4 },
      IC: { lus: 2, pris: 2 },
      VR: { lus: 2, pris: 1, nonPris: 1 },
    });
    // One element per line: a record not taken is named by the line of its opening tag.
    const ouvrant = (texte: string, balise: string) => {
      const k = lignes.findIndex((l) => l.includes(texte));
      return lignes.slice(0, k + 1).findLastIndex((l) => l.includes(`<ram:${balise}>`)) + 1;
    };
    // The crop's variety is the seed input's (taken with the plot); the straw is not a main product.
    expect(plan.comptes.SownCropSpeciesVariety).toEqual({ lus: 1, pris: 1, nonPris: 0 });
    expect(plan.nonPris).toEqual([
      { type: "VR", ligne: ouvrant("Paille", "HarvestedAgriculturalProduce"), raison: "sans-equivalent", detail: "ZJI Blé tendre d'hiver - Paille" },
    ]);
    expect(lignes[plan.nonPris[0].ligne - 1].trim()).toBe("<ram:HarvestedAgriculturalProduce>");
  });
});

/** A message shaped like the other product's export (same element paths), with the odd inputs a real one has. */
const SYSTERRE = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CropDataSheetMessage xmlns:rsm="urn:un:unece:uncefact:data:standard:CropDataSheetMessage:1" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:5">
  <rsm:CropDataSheetDocument>
    <ram:Identification>000001</ram:Identification>
    <ram:TypeCode>415</ram:TypeCode>
    <ram:IssuerCropDataSheetParty><ram:Identification>77568577900313</ram:Identification><ram:Description>Emetteur</ram:Description></ram:IssuerCropDataSheetParty>
    <ram:UsedProduction_Software><ram:Name>AUTRE</ram:Name><ram:Version>1.0</ram:Version></ram:UsedProduction_Software>
  </rsm:CropDataSheetDocument>
  <rsm:AgriculturalPlot>
    <ram:Identification>1687752</ram:Identification>
    <ram:Description>P205 ni Orge de blé</ram:Description>
    <ram:SequenceNumeric>0.0</ram:SequenceNumeric>
    <ram:HarvestedYear>2025</ram:HarvestedYear>
    <ram:IncludedInAgriculturalCountrySubDivision><ram:Identification>1687749</ram:Identification><ram:TypeCode>AAA20</ram:TypeCode><ram:Description>3 Sol Superficiel</ram:Description></ram:IncludedInAgriculturalCountrySubDivision>
    <ram:IncludedAgriculturalArea><ram:TypeCode>A17</ram:TypeCode><ram:ActualMeasure unitCode="HAR">12.5000</ram:ActualMeasure></ram:IncludedAgriculturalArea>
    <ram:AppliedPlotSoilOccupation>
      <ram:Identification>1687752_55</ram:Identification>
      <ram:TypeCode listAgencyID="312">ABA00</ram:TypeCode>
      <ram:SequenceNumeric>1</ram:SequenceNumeric>
      <ram:SownAgriculturalCrop><ram:BotanicalSpeciesCode listAgencyID="312">ZDA</ram:BotanicalSpeciesCode><ram:SupplementaryBotanicalSpeciesCode listAgencyID="312">ZES</ram:SupplementaryBotanicalSpeciesCode><ram:Description>Moutarde blanche</ram:Description></ram:SownAgriculturalCrop>
      <ram:SpecifiedAgriculturalCropProductionCycle>
        <ram:ApplicablePlotAgriculturalProcess>
          <ram:Identification>16751400</ram:Identification>
          <ram:TypeCode listAgencyID="312">ZF9</ram:TypeCode>
          <ram:OccurrenceDelimitedPeriod><ram:StartDateTime>2024-09-05T00:00:00Z</ram:StartDateTime></ram:OccurrenceDelimitedPeriod>
          <ram:PerformedAgriculturalProcessWorkItem><ram:TypeCode listAgencyID="312">ZKE</ram:TypeCode><ram:Description>Semis de précision</ram:Description></ram:PerformedAgriculturalProcessWorkItem>
        </ram:ApplicablePlotAgriculturalProcess>
      </ram:SpecifiedAgriculturalCropProductionCycle>
    </ram:AppliedPlotSoilOccupation>
    <ram:AppliedPlotSoilOccupation>
      <ram:Identification>1687752_422</ram:Identification>
      <ram:SequenceNumeric>2</ram:SequenceNumeric>
      <ram:SownAgriculturalCrop>
        <ram:BotanicalSpeciesCode listAgencyID="312">ZDH</ram:BotanicalSpeciesCode>
        <ram:SupplementaryBotanicalSpeciesCode listAgencyID="312"/>
        <ram:Description>Orge de Printemps</ram:Description>
        <ram:SownCropSpeciesVariety><ram:TypeCode>0253007</ram:TypeCode><ram:Description>ACHILLES</ram:Description></ram:SownCropSpeciesVariety>
      </ram:SownAgriculturalCrop>
      <ram:SpecifiedAgriculturalCropProductionCycle>
        <ram:ProductionYearDateTime>2025-12-31T00:00:00Z</ram:ProductionYearDateTime>
        <ram:ApplicablePlotAgriculturalProcess>
          <ram:ApplicableTechnicalCharacteristic><ram:TypeCode>AAA38</ram:TypeCode><ram:ValueMeasure>0.4</ram:ValueMeasure></ram:ApplicableTechnicalCharacteristic>
          <ram:Identification>16751476</ram:Identification>
          <ram:TypeCode listAgencyID="312">ZG7</ram:TypeCode>
          <ram:SubordinateTypeCode>ZK2</ram:SubordinateTypeCode>
          <ram:OccurrenceAgriculturalArea><ram:TypeCode>ABE02</ram:TypeCode><ram:ActualMeasure unitCode="HAR">6.2500</ram:ActualMeasure><ram:SpatialFrequency>50</ram:SpatialFrequency></ram:OccurrenceAgriculturalArea>
          <ram:OccurrenceDelimitedPeriod><ram:StartDateTime>2025-05-19T00:00:00Z</ram:StartDateTime><ram:EndDateTime>2025-05-19T23:59:59Z</ram:EndDateTime></ram:OccurrenceDelimitedPeriod>
          <ram:PerformedAgriculturalProcessWorkItem><ram:TypeCode listAgencyID="312">SEX</ram:TypeCode><ram:Description>Traitement phytosanitaire</ram:Description></ram:PerformedAgriculturalProcessWorkItem>
          <ram:UsedSpecifiedAgriculturalDevice><ram:Identification>OUTI999999999</ram:Identification><ram:Description>Pulvérisateur</ram:Description></ram:UsedSpecifiedAgriculturalDevice>
          <ram:UsedAgriculturalProcessCropInput>
            <ram:Identification>9800336</ram:Identification>
            <ram:TypeCode>ZIW</ram:TypeCode>
            <ram:Description>KARATE ZEON</ram:Description>
            <ram:AppliedSurfaceUnitValueMeasure unitCode="LTR">0.0750</ram:AppliedSurfaceUnitValueMeasure>
            <ram:CostUnit>109.8</ram:CostUnit>
          </ram:UsedAgriculturalProcessCropInput>
          <ram:UsedAgriculturalProcessCropInput>
            <ram:Identification>2010030</ram:Identification>
            <ram:Description>MEDAX TOP</ram:Description>
            <ram:AppliedSurfaceUnitValueMeasure unitCode="LTR">0.5000</ram:AppliedSurfaceUnitValueMeasure>
          </ram:UsedAgriculturalProcessCropInput>
          <ram:UsedAgriculturalProcessCropInput>
            <ram:TypeCode>ENGR_AUTR</ram:TypeCode>
            <ram:Description>sulfan</ram:Description>
            <ram:AppliedSurfaceUnitValueMeasure unitCode="KGM">200.0000</ram:AppliedSurfaceUnitValueMeasure>
            <ram:ComponentCropInputChemical><ram:TypeCode listAgencyID="312">NT</ram:TypeCode><ram:PresencePercent>24.00</ram:PresencePercent><ram:ValueMeasure unitCode="NAR">48.0000</ram:ValueMeasure></ram:ComponentCropInputChemical>
            <ram:ComponentCropInputChemical><ram:TypeCode listAgencyID="312">XX</ram:TypeCode><ram:PresencePercent>1.00</ram:PresencePercent></ram:ComponentCropInputChemical>
          </ram:UsedAgriculturalProcessCropInput>
          <ram:UsedAgriculturalProcessCropInput>
            <ram:TypeCode>ZJC</ram:TypeCode>
            <ram:Description>Ammonitrate</ram:Description>
            <ram:AppliedSurfaceUnitValueMeasure unitCode="W95">3</ram:AppliedSurfaceUnitValueMeasure>
          </ram:UsedAgriculturalProcessCropInput>
        </ram:ApplicablePlotAgriculturalProcess>
        <ram:ApplicablePlotAgriculturalProcess>
          <ram:Identification>16751477</ram:Identification>
          <ram:TypeCode listAgencyID="312">ZF7</ram:TypeCode>
          <ram:OccurrenceDelimitedPeriod><ram:StartDateTime>2025-07-20T00:00:00Z</ram:StartDateTime></ram:OccurrenceDelimitedPeriod>
          <ram:PerformedAgriculturalProcessWorkItem><ram:TypeCode listAgencyID="312">SER</ram:TypeCode></ram:PerformedAgriculturalProcessWorkItem>
          <ram:HarvestedAgriculturalProduce><ram:TypeCode listAgencyID="312">ZJH</ram:TypeCode><ram:Name>Orge de Printemps</ram:Name><ram:EstimatedYieldMeasure unitCode="TNE">7.1500</ram:EstimatedYieldMeasure></ram:HarvestedAgriculturalProduce>
        </ram:ApplicablePlotAgriculturalProcess>
      </ram:SpecifiedAgriculturalCropProductionCycle>
    </ram:AppliedPlotSoilOccupation>
    <ram:ApplicableTechnicalCharacteristic><ram:TypeCode>ABG12</ram:TypeCode><ram:Description>Irrigable/irriguée</ram:Description></ram:ApplicableTechnicalCharacteristic>
  </rsm:AgriculturalPlot>
</rsm:CropDataSheetMessage>
`;

describe("eDaplos reader: another product's export and its odd inputs", () => {
  const lignes = SYSTERRE.split("\n");
  const ligneDe = (fragment: string, apres = 0) => lignes.findIndex((l, i) => i >= apres && l.includes(fragment)) + 1;
  const plan = planifierEdaplos(enc(SYSTERRE));
  const [p] = plan.parcelles;
  const avertissement = (cle: string) => plan.avertissements.filter((w) => w.cle === `daplos.avertissement.${cle}`);

  test("[issue25] no owner party: the issuer is taken for the farm, and said", () => {
    expect(plan.exploitation).toMatchObject({ siret: "77568577900313", libelle: "Emetteur" });
    expect(avertissement("edaplos-sans-exploitation")).toHaveLength(1);
  });

  test("[issue25] two occupations: the crop is the later one's, the catch crop is listed not taken and kept in a remark, its process kept", () => {
    expect(p).toMatchObject({ cle: { ordre: 0, reference: "1687752", annee: 2025 }, libelle: "P205 ni Orge de blé", surface: 12.5, espece: "ZDH" });
    // ZDH without qualifier nor period: a barley, the nearest Sillon crop, said.
    expect([4, 5, 45]).toContain(p.idCulture);
    expect(avertissement("edaplos-culture-proche")).toHaveLength(1);
    expect(plan.nonPris).toContainEqual({
      ligne: ligneDe("<ram:AppliedPlotSoilOccupation>"),
      type: "AppliedPlotSoilOccupation",
      raison: "sans-equivalent",
      detail: "ZDA Moutarde blanche",
    });
    expect(p.remarques).toEqual(["Autre occupation eDaplos : Moutarde blanche ZDA"]);
    expect(p.interventions.map((i) => i.guid)).toEqual(["16751400", "16751476", "16751477"]);
  });

  test("[issue25] a work code outside the lists: the nearest kind, with a warning on its line", () => {
    const [semis, traitement, recolte] = p.interventions;
    expect(semis.idTypeAction).toBe(26);
    expect(avertissement("edaplos-code-inconnu")).toContainEqual(
      expect.objectContaining({ ligne: ligneDe("<ram:Identification>16751400") - 1, params: expect.objectContaining({ code: "ZKE" }) }),
    );
    expect(traitement).toMatchObject({ idTypeAction: 11, tauxSurface: 0.5, date: "2025-05-19", realisee: true, libelleOperation: "Traitement phytosanitaire" });
    expect(recolte).toMatchObject({ idTypeAction: 15 });
    expect(recolte.recoltes).toEqual([expect.objectContaining({ rendement: 7.15, typeProduit: "ZJH" })]);
  });

  test("[issue25] odd inputs: no type code with an AMM is a phyto, ENGR_AUTR the other fertiliser, an unknown unit no dose; each said with its line", () => {
    const [karate, medax, sulfan, ammo] = p.interventions[1].intrants;
    expect(karate).toMatchObject({ genre: "phyto", idCategorie: 5393, amm: "9800336", quantite: 0.075, unite: "l/ha", ligne: ligneDe("9800336") - 1 });
    expect(medax).toMatchObject({ genre: "phyto", idCategorie: 5399, amm: "2010030", quantite: 0.5 });
    expect(sulfan).toMatchObject({ genre: "fertilisant", idCategorie: 659, quantite: 200, unite: "kg/ha", composition: { n: 24 } });
    expect(ammo).toMatchObject({ genre: "fertilisant", quantite: null });
    expect(avertissement("edaplos-sans-type")).toContainEqual(
      expect.objectContaining({ ligne: medax.ligne, params: expect.objectContaining({ libelle: "MEDAX TOP" }) }),
    );
    expect(avertissement("edaplos-code-inconnu")).toContainEqual(
      expect.objectContaining({ ligne: sulfan.ligne, params: expect.objectContaining({ code: "ENGR_AUTR" }) }),
    );
    expect(avertissement("edaplos-unite")).toContainEqual(expect.objectContaining({ ligne: ammo.ligne, params: expect.objectContaining({ unite: "W95" }) }));
    expect(plan.nonPris).toContainEqual({ ligne: ligneDe('<ram:TypeCode listAgencyID="312">XX'), type: "IC", raison: "sans-equivalent", detail: "XX" });
  });

  test("[issue25] what Sillon has no place for (soil, device, cost, a variety no seed input names, spatial frequency) is listed not taken with its line; work rate and irrigable are taken", () => {
    const listes = plan.nonPris.filter((n) => n.raison === "sans-equivalent").map((n) => [n.type, n.ligne]);
    expect(listes).toEqual(
      expect.arrayContaining([
        ["IncludedInAgriculturalCountrySubDivision", ligneDe("IncludedInAgriculturalCountrySubDivision")],
        ["UsedSpecifiedAgriculturalDevice", ligneDe("UsedSpecifiedAgriculturalDevice")],
        // A text-only element is found on its own line.
        ["CostUnit", ligneDe("CostUnit")],
        ["SownCropSpeciesVariety", ligneDe("SownCropSpeciesVariety")],
      ]),
    );
    // The work rate (AAA38) is the intervention's, the irrigable characteristic (ABG12) the plot's (decision 0130).
    expect(listes).not.toContainEqual(["ApplicableTechnicalCharacteristic", ligneDe("AAA38")]);
    expect(listes).not.toContainEqual(["ApplicableTechnicalCharacteristic", ligneDe("ABG12")]);
    expect(plan.parcelles[0].interventions.find((i) => i.guid === "16751476")).toMatchObject({ debit: 0.4 });
    expect(plan.parcelles[0].irrigable).toBe(true);
    expect(plan.nonPris.find((n) => n.type === "SpatialFrequency")).toBeDefined();
    for (const [type, c] of Object.entries(plan.comptes)) expect(c.pris + c.nonPris, type).toBe(c.lus);
  });

  test("[issue25] every warning and reason has its French and English text", () => {
    for (const lang of ["fr", "en"] as const) {
      const d = (resources[lang].translation as unknown as { daplos: { avertissement: Record<string, string>; raison: Record<string, string> } }).daplos;
      for (const w of plan.avertissements) expect(d.avertissement[w.cle.replace("daplos.avertissement.", "")], `${lang} ${w.cle}`).toBeTruthy();
      for (const n of plan.nonPris) expect(d.raison[n.raison], `${lang} ${n.raison}`).toBeTruthy();
    }
  });
});

describe("eDaplos reader: files refused whole", () => {
  test("[issue25] empty, malformed (with its line), another root, no plot, a DOCTYPE (no entity expansion), too big", () => {
    expect(refus(enc("   \n"))).toMatchObject({ key: "daplos.vide" });
    expect(refus(enc('<?xml version="1.0"?>\n<rsm:CropDataSheetMessage>\n<rsm:AgriculturalPlot>\n</rsm:CropDataSheetMessage>'))).toMatchObject({
      key: "daplos.edaplos-xml-invalide",
      params: { ligne: 4 },
    });
    expect(refus(enc('<?xml version="1.0"?><Invoice><a/></Invoice>'))).toMatchObject({ key: "daplos.edaplos-racine", params: { racine: "Invoice" } });
    expect(refus(enc('<?xml version="1.0"?><rsm:CropDataSheetMessage xmlns:rsm="u"><rsm:CropDataSheetDocument/></rsm:CropDataSheetMessage>'))).toMatchObject({
      key: "daplos.edaplos-sans-parcelle",
    });
    const bombe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]><rsm:CropDataSheetMessage xmlns:rsm="u"><rsm:AgriculturalPlot><ram:Description>&b;</ram:Description></rsm:AgriculturalPlot></rsm:CropDataSheetMessage>`;
    expect(refus(enc(bombe))).toMatchObject({ key: "daplos.edaplos-dtd" });
    expect(() => lireEdaplos(enc(ecrit([orge])), { tailleMax: 100 })).toThrow(expect.objectContaining({ key: "daplos.trop-gros" }));
  });

  test("[issue25] an undeclared entity is left as written, never expanded", () => {
    const xml = ecrit([{ ...orge, libelle: "La Noue" }]).replace(
      "<ram:Description>La Noue</ram:Description>",
      "<ram:Description>La Noue &ext; &#233;</ram:Description>",
    );
    expect(planEdaplos(lireEdaplos(enc(xml))).parcelles[0].libelle).toBe("La Noue &ext; é");
  });
});
