import fs from "node:fs";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, test } from "vitest";
import { resources } from "~/locales";
import { debutMessage, EXTENSIONS, FIN_MESSAGE, parcelleXml, type CampagneEdaplos, type LigneJournal, type ParcelleEdaplos } from "./ecrivain";

/**
 * The eDaplos writer on a campaign with every kind of input (seed with its treatment, herbicide, mineral and organic
 * fertilisers, water, another input) and harvests (grain with a characteristic, straw, grazing): the XML parsed back
 * has only element paths of the real export (reference/edaplos-element-paths.txt) or of the writer's documented
 * EXTENSIONS, the counts of the data, its codes, and a log line for each thing it could not express.
 */

const REFERENCE = fs
  .readFileSync(path.join(__dirname, "reference/edaplos-element-paths.txt"), "utf8")
  .split("\n")
  .filter((l) => l.startsWith("/"));
const CHEMINS = new Map<string, Set<string>>();
for (const l of REFERENCE) {
  const [chemin, attributs] = l.split(" ");
  const set = CHEMINS.get(chemin) ?? new Set<string>();
  for (const a of (attributs ?? "").replace(/^@/, "").split(",").filter(Boolean)) set.add(a);
  CHEMINS.set(chemin, set);
}

const campagne: CampagneEdaplos = {
  id: 7,
  libelle: "2025",
  anneeRecolte: 2025,
  exploitation: { id: 3, libelle: "EARL des Tilleuls", siret: "12345678900011", adresse: "1 rue des Tilleuls", codePostal: "28000", ville: "Chartres" },
};

const intrant = (x: Partial<ParcelleEdaplos["interventions"][number]["intrants"][number]> & { id: number; libelle: string }) => ({
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
const intervention = (x: Partial<ParcelleEdaplos["interventions"][number]> & { id: number; date: string }) => ({
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
  libelle: "Les Grands Champs",
  surface: 12.5,
  irrigable: true,
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
      debit: 0.8,
      intrants: [
        intrant({
          id: 1,
          idCategorie: 5381,
          idTypeIntrant: 538,
          libelle: "Blé tendre d'hiver – KWS Extase",
          quantite: 160,
          unite: "kg/ha",
          gnis: "0253007",
          semence: { ferme: 0, certifiee: 100, ogm: 0 },
        }),
        intrant({ id: 2, idCategorie: 5397, idTypeIntrant: 539, libelle: "Celest Net", quantite: 0.2, unite: "l/ha", amm: "2070137", traitementSemence: true }),
      ],
    }),
    intervention({
      id: 1002,
      date: "2024-11-05",
      idTypeAction: 11,
      operation: "Désherbage d'automne",
      volumeBouillie: 150,
      intrants: [
        intrant({ id: 3, idCategorie: 5391, idTypeIntrant: 539, libelle: "DEFI", quantite: 3, unite: "l/ha", amm: "9300449", cibles: 2 }),
        intrant({ id: 4, idCategorie: 5391, idTypeIntrant: 539, libelle: "Désherbant sans AMM", quantite: 1, unite: "l/ha" }),
      ],
    }),
    intervention({
      id: 1003,
      date: "2025-02-20",
      idTypeAction: 12,
      operation: "Apport d'ammonitrate",
      tauxSurface: 0.5,
      intrants: [intrant({ id: 5, idCategorie: 655, idTypeIntrant: 540, libelle: "Ammonitrate 27", quantite: 200, unite: "kg/ha", composition: { n: 27 } })],
    }),
    intervention({
      id: 1004,
      date: "2024-09-20",
      idTypeAction: 13,
      operation: "Fumier",
      intrants: [
        intrant({
          id: 6,
          idCategorie: 657,
          idTypeIntrant: 540,
          libelle: "Fumier de bovins",
          quantite: 20,
          unite: "t/ha",
          composition: { n: 0.6, p2o5: 0.3, k2o: 0.9 },
        }),
      ],
    }),
    intervention({
      id: 1005,
      date: "2025-05-10",
      idTypeAction: 14,
      operation: "Irrigation",
      intrants: [intrant({ id: 7, idCategorie: 5421, idTypeIntrant: 542, libelle: "Eau", quantite: 30, unite: "mm" })],
    }),
    intervention({
      id: 1006,
      date: "2025-05-20",
      idTypeAction: 26,
      operation: "Pose de filet",
      prevue: true,
      realisee: false,
      intrants: [intrant({ id: 8, idCategorie: 5431, idTypeIntrant: 543, libelle: "Filet", quantite: 2, unite: "autre" })],
    }),
    intervention({
      id: 1007,
      date: "2025-07-15",
      idTypeAction: 15,
      operation: "Moisson",
      recoltes: [
        {
          id: 11,
          idCulture: 1,
          culture: "Blé tendre d'hiver",
          idTypeSortie: 661,
          typeSortie: "Grain",
          rendement: 8.2,
          unite: "t/ha",
          caracteristiques: [{ id: 1, idType: 1, valeur: 15, unite: "%" }],
        },
        { id: 12, idCulture: 1, culture: "Blé tendre d'hiver", idTypeSortie: 662, typeSortie: "Paille", rendement: 4, unite: "t/ha", caracteristiques: [] },
        { id: 13, idCulture: 1, culture: "Blé tendre d'hiver", idTypeSortie: 671, typeSortie: "Pâturage", rendement: 20, unite: "jours", caracteristiques: [] },
      ],
    }),
    intervention({ id: 1008, date: "2024-09-01", idTypeAction: 1, operation: "Labour" }),
  ],
};

const couvert: ParcelleEdaplos = {
  id: 102,
  libelle: "Le Bas <Pré> & Co",
  surface: null,
  irrigable: false,
  geometrie: null,
  idModeConduite: null,
  culture: { id: 43, libelle: "Interculture" },
  interventions: [],
};

function ecrire(parcelles: ParcelleEdaplos[]): { xml: string; logs: LigneJournal[] } {
  const logs: LigneJournal[] = [];
  let xml = debutMessage({
    identification: "000042",
    creation: new Date("2026-02-04T10:18:35Z"),
    logiciel: { nom: "Sillon", version: "1.0" },
    emetteur: { id: "conseiller", nom: "C. Onseil" },
  });
  for (const p of parcelles) xml += parcelleXml(campagne, p, (l) => logs.push(l));
  return { xml: xml + FIN_MESSAGE, logs };
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", parseTagValue: false, processEntities: true });

/** Every element path of a parsed tree, with the attribute names of its elements. */
function chemins(noeud: unknown, chemin: string, out: Map<string, Set<string>>): void {
  for (const n of Array.isArray(noeud) ? noeud : [noeud]) {
    const attrs = out.get(chemin) ?? new Set<string>();
    out.set(chemin, attrs);
    if (n == null || typeof n !== "object") continue;
    for (const [k, v] of Object.entries(n)) {
      if (k.startsWith("@_")) attrs.add(k.slice(2));
      else if (k !== "#text") chemins(v, `${chemin}/${k}`, out);
    }
  }
}

const elements = (arbre: unknown, ...noms: string[]): unknown[] => {
  let courant: unknown[] = [arbre].flat();
  for (const n of noms) courant = courant.flatMap((c) => ((c as Record<string, unknown>)[n] == null ? [] : [(c as Record<string, unknown>)[n]].flat()));
  return courant;
};
const texte = (v: unknown) => (typeof v === "object" && v !== null ? String((v as Record<string, unknown>)["#text"]) : String(v));

describe("eDaplos writer", () => {
  const { xml, logs } = ecrire([ble, couvert]);
  const arbre = parser.parse(xml) as Record<string, unknown>;
  const message = arbre["rsm:CropDataSheetMessage"];
  const plots = elements(message, "rsm:AgriculturalPlot");
  const processus = elements(plots, "ram:AppliedPlotSoilOccupation", "ram:SpecifiedAgriculturalCropProductionCycle", "ram:ApplicablePlotAgriculturalProcess");
  const intrants = elements(processus, "ram:UsedAgriculturalProcessCropInput");
  const recoltes = elements(processus, "ram:HarvestedAgriculturalProduce");

  test("[C-EDAP-07] the XML has only the element paths and attributes of the real export, or the writer's documented extensions", () => {
    const vus = new Map<string, Set<string>>();
    chemins(message, "/rsm:CropDataSheetMessage", vus);
    const inconnus = [...vus.keys()].filter((c) => !CHEMINS.has(c) && !(EXTENSIONS as readonly string[]).includes(c));
    expect(inconnus).toEqual([]);
    for (const [c, attrs] of vus) {
      const permis = CHEMINS.get(c) ?? new Set<string>();
      const en_trop = [...attrs].filter((a) => !permis.has(a) && !a.startsWith("xmlns") && c !== "/rsm:CropDataSheetMessage");
      expect(en_trop, c).toEqual([]);
    }
    // Most of the reference's elements are written by this campaign (what Sillon records).
    expect([...CHEMINS.keys()].filter((c) => vus.has(c)).length).toBeGreaterThan(80);
  });

  test("[C-EDAP-07] one plot per plot, one process per intervention, one input per input, one produce per expressible harvest", () => {
    expect(plots).toHaveLength(2);
    expect(processus).toHaveLength(ble.interventions.length);
    expect(intrants).toHaveLength(ble.interventions.flatMap((i) => i.intrants).length);
    expect(recoltes).toHaveLength(2); // grain and straw; grazing has no AgroEDI produce type (logged)
    expect(elements(plots[0], "ram:Identification").map(texte)).toEqual(["101"]);
    expect(elements(processus, "ram:Identification").map(texte)).toEqual(ble.interventions.map((i) => String(i.id)));
    expect(elements(plots, "ram:HarvestedYear").map(texte)).toEqual(["2025", "2025"]);
  });

  test("the farm, the area, the boundary and the crop with its AgroEDI codes", () => {
    const p = plots[0] as Record<string, unknown>;
    expect(texte(elements(p, "ram:OwnerAgronomicalObservationParty", "ram:Identification")[0])).toBe("12345678900011");
    expect(elements(p, "ram:IncludedAgriculturalArea", "ram:ActualMeasure")[0]).toEqual({ "#text": "12.5000", "@_unitCode": "HAR" });
    expect(elements(p, "ram:IncludedAgriculturalArea", "ram:SpecifiedGeographicalCoordinate")).toHaveLength(4);
    const crop = elements(p, "ram:AppliedPlotSoilOccupation", "ram:SownAgriculturalCrop")[0];
    expect(elements(crop, "ram:BotanicalSpeciesCode")[0]).toEqual({ "#text": "ZAR", "@_listAgencyID": "312", "@_listAgencyName": "FR, AGRO EDI EUROPE" });
    expect(texte(elements(crop, "ram:SowingPeriodCode")[0])).toBe("ZFB");
    expect(elements(crop, "ram:SownCropSpeciesVariety", "ram:TypeCode").map(texte)).toEqual(["0253007"]);
    expect(texte(elements(p, "ram:ApplicableTechnicalCharacteristic", "ram:TypeCode")[0])).toBe("ABG12");
    // The plot's name is escaped and read back as written.
    expect(texte(elements(plots[1], "ram:Description")[0])).toBe("Le Bas <Pré> & Co");
  });

  test("interventions: event type, done or planned, work item, worked area", () => {
    const type = (i: number) => texte(elements(processus[i], "ram:TypeCode")[0]);
    expect(ble.interventions.map((_, i) => type(i))).toEqual(["ZG7", "ZG7", "ZG7", "ZG7", "ZG7", "ZG7", "ZF7", "ZF8"]);
    expect(elements(processus, "ram:PerformedAgriculturalProcessWorkItem", "ram:TypeCode").map(texte)).toEqual([
      "SET",
      "SEX",
      "SEM",
      "SEK",
      "SEO",
      "ZTC",
      "SEQ",
      "SEP",
    ]);
    expect(elements(processus[5], "ram:SubordinateTypeCode").map(texte)).toEqual(["ZK1"]);
    expect(elements(processus[0], "ram:SubordinateTypeCode").map(texte)).toEqual(["ZK2"]);
    expect(elements(processus[2], "ram:OccurrenceAgriculturalArea", "ram:ActualMeasure")[0]).toEqual({ "#text": "6.2500", "@_unitCode": "HAR" });
    expect(elements(processus[0], "ram:OccurrenceDelimitedPeriod", "ram:StartDateTime").map(texte)).toEqual(["2024-10-15T00:00:00Z"]);
  });

  test("inputs: phyto with its AMM and spray volume, seed with GNIS and qualifier, fertiliser composition, water", () => {
    const par = (id: string) => intrants.find((x) => elements(x, "ram:Identification").map(texte)[0] === id);
    const defi = par("9300449");
    expect(texte(elements(defi, "ram:TypeCode")[0])).toBe("ZIU");
    expect(elements(defi, "ram:AppliedSurfaceUnitValueMeasure")[0]).toEqual({ "#text": "3.0000", "@_unitCode": "LTR" });
    expect(elements(defi, "ram:ApplicableTechnicalCharacteristic", "ram:ValueMeasure")[0]).toEqual({ "#text": "150", "@_unitCode": "LTR" });
    expect(texte(elements(par("2070137"), "ram:TypeCode")[0])).toBe("ZJG");
    const graine = par("0253007");
    expect(texte(elements(graine, "ram:TypeCode")[0])).toBe("ZJF");
    expect(elements(graine, "ram:SubordinateTypeCode").map(texte)).toEqual(["ZQA"]);
    const ammo = intrants.find((x) => texte(elements(x, "ram:Description")[0]) === "Ammonitrate 27");
    expect(texte(elements(ammo, "ram:TypeCode")[0])).toBe("ZJC");
    const n = elements(ammo, "ram:ComponentCropInputChemical")[0];
    expect(texte(elements(n, "ram:TypeCode")[0])).toBe("NT");
    expect(texte(elements(n, "ram:PresencePercent")[0])).toBe("27.00");
    expect(elements(n, "ram:ValueMeasure")[0]).toEqual({ "#text": "54.0000", "@_unitCode": "NAR" });
    const fumier = intrants.find((x) => texte(elements(x, "ram:Description")[0]) === "Fumier de bovins");
    expect(elements(fumier, "ram:ComponentCropInputChemical", "ram:TypeCode").map(texte)).toEqual(["NT", "PT", "KT"]);
    expect(elements(fumier, "ram:ComponentCropInputChemical", "ram:ValueMeasure").map(texte)).toEqual(["120.0000", "60.0000", "180.0000"]);
    expect(texte(elements(par("EAU"), "ram:TypeCode")[0])).toBe("ZJE");
    expect(elements(par("EAU"), "ram:AppliedSurfaceUnitValueMeasure")[0]).toEqual({ "#text": "30.0000", "@_unitCode": "MMT" });
  });

  test("harvests: main product and straw with yield in tonnes, humidity as a characteristic", () => {
    expect(elements(recoltes, "ram:TypeCode").map(texte)).toEqual(["ZJH", "ZJI"]);
    expect(elements(recoltes[0], "ram:EstimatedYieldMeasure")[0]).toEqual({ "#text": "8.2000", "@_unitCode": "TNE" });
    const lc = elements(recoltes[0], "ram:ApplicableTechnicalCharacteristic")[0];
    expect(texte(elements(lc, "ram:TypeCode")[0])).toBe("AAA13");
    expect(texte(elements(lc, "ram:SubordinateTypeCode")[0])).toBe("ZJ4");
    expect(elements(lc, "ram:ValueMeasure")[0]).toEqual({ "#text": "15", "@_unitCode": "PCD" });
  });

  test("[C-EDAP-17][C-EDAP-20] what cannot be expressed is a log line with its level and links, never a silent omission", () => {
    const cle = (l: LigneJournal) => `${l.niveau}:${l.message}:${l.idParcelle ?? ""}:${l.idAction ?? ""}:${l.idIntrant ?? ""}`;
    const vus = logs.map(cle);
    expect(vus).toEqual(
      expect.arrayContaining([
        "2:phyto-sans-amm:101:1002:4", // a phyto without AMM
        "1:cibles-non-exportees:101:1002:3", // targets
        "2:intrant-sans-famille:101:1006:8", // an other input: no AgroEDI family
        "2:intrant-unite:101:1006:8", // a dose in "autre"
        "1:intrant-famille-proche:101:1004:6", // solid organic product → effluents d'élevage
        "2:recolte-sans-type:101:1007:", // grazing
        "2:parcelle-sans-surface:102::",
        "2:culture-sans-code:102::",
      ]),
    );
    for (const l of logs) {
      expect(l.idExploitation).toBe(3);
      expect(l.idCampagne).toBe(7);
      // Every message has its French and English text.
      expect(resources.fr.translation.edaplos.logs).toHaveProperty([l.message]);
      expect(resources.en.translation.edaplos.logs).toHaveProperty([l.message]);
    }
    expect(logs.find((l) => l.message === "phyto-sans-amm")?.dicIdTypeAction).toBe(11);
  });

  test("the header names the document, the software and the issuer", () => {
    const doc = elements(message, "rsm:CropDataSheetDocument")[0];
    expect(texte(elements(doc, "ram:Identification")[0])).toBe("000042");
    expect(texte(elements(doc, "ram:CreationDateTime")[0])).toBe("2026-02-04T10:18:35Z");
    expect(texte(elements(doc, "ram:UsedProduction_Software", "ram:Name")[0])).toBe("Sillon");
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:5"');
  });
});
