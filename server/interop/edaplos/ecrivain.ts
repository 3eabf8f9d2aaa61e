import { XMLBuilder } from "fast-xml-parser";
import { ELEMENTS, TYPE_INTRANT, type Element } from "~/domain/intrant";
import {
  AGENCE_AEE,
  CARACTERISTIQUE_PRODUIT,
  CARACTERISTIQUES_RECOLTE,
  CATEGORIES_INTRANT,
  CODE_EAU,
  COMPOSANTS,
  CULTURES,
  DEBIT_CHANTIER,
  ETAT_EVENEMENT,
  IRRIGABLE,
  QUALIFIANTS_SEMENCE,
  SURFACE_PARCELLE,
  SURFACE_TRAVAILLEE,
  TRAVAUX,
  TYPE_EVENEMENT,
  TYPES_SORTIE,
  UNITES_DOSE,
  UNITES_RENDEMENT,
  VOLUME_BOUILLIE,
} from "./codes";

/**
 * The eDaplos writer (issue 25, decision 0096): the UN/CEFACT CropDataSheetMessage in the AgroEDI profile of a real
 * export (../shared/reference/edaplos-element-paths.txt: CropDataSheetMessage:1 with the RAM:5 element names), one
 * `rsm:AgriculturalPlot` per plot and campaign, its crop as `AppliedPlotSoilOccupation/SownAgriculturalCrop`, one
 * production cycle holding one `ApplicablePlotAgriculturalProcess` per intervention, with its inputs
 * (`UsedAgriculturalProcessCropInput`: phyto with its AMM, seeds with GNIS and qualifiers, fertilisers with their
 * composition, water, others) and harvests (`HarvestedAgriculturalProduce`).
 *
 * No I/O but the sink: the header, then each plot, is built by fast-xml-parser's builder and handed to `ecrire` at
 * once, so a network's export holds one plot at a time. What cannot be expressed (a crop or an input family without
 * an AEE code, a dose in a unit that is not per hectare, grazing, targets, ...) is reported to `journal` (niveau 2:
 * left out of the file; niveau 1: written approximately), never dropped silently.
 *
 * For the importer (round trip): the plot's Identification is Sillon's plot id, the occupation's `<plot>_<crop>`, the
 * event's Identification the intervention id, the input's Identification its AMM, GNIS code or `EAU`; the farm of
 * each plot is its `OwnerAgronomicalObservationParty` (a RAM element absent from the sample: EXTENSIONS below).
 */

export type ExploitationEdaplos = {
  id: number;
  libelle: string;
  siret: string | null;
  adresse: string | null;
  codePostal: string | null;
  ville: string | null;
};

export type CampagneEdaplos = { id: number; libelle: string; anneeRecolte: number; exploitation: ExploitationEdaplos };

export type IntrantEdaplos = {
  id: number;
  idCategorie: number | null;
  idTypeIntrant: number | null;
  libelle: string;
  quantite: number | null;
  unite: string | null;
  /** Phyto: the AMM number (codeIntrant). */
  amm: string | null;
  /** Seed: the GNIS variety code. */
  gnis: string | null;
  /** A treatment product of a seed (idIntrantSemence set). */
  traitementSemence: boolean;
  /** Fertiliser: percentages by element. */
  composition: Partial<Record<Element, number | null>> | null;
  /** Seed: shares (%) of farm-saved, certified and GMO seed. */
  semence: { ferme: number | null; certifiee: number | null; ogm: number | null } | null;
  /** Number of targets recorded (not expressed: their list is not AgroEDI's). */
  cibles: number;
};

export type RecolteEdaplos = {
  id: number;
  idCulture: number;
  culture: string;
  idTypeSortie: number;
  typeSortie: string;
  rendement: number | null;
  unite: string;
  caracteristiques: { id: number; idType: number; valeur: number | null; unite: string | null }[];
};

export type InterventionEdaplos = {
  id: number;
  /** yyyy-mm-dd */
  date: string;
  idTypeAction: number | null;
  operation: string | null;
  realisee: boolean;
  prevue: boolean;
  nombrePassage: number | null;
  tauxSurface: number | null;
  /** Work rate, h/ha. */
  debit: number | null;
  /** Spray volume of its operation, L/ha. */
  volumeBouillie: number | null;
  intrants: IntrantEdaplos[];
  recoltes: RecolteEdaplos[];
};

export type ParcelleEdaplos = {
  id: number;
  libelle: string;
  surface: number | null;
  irrigable: boolean;
  /** GeoJSON (WGS 84) of the plot, as stored. */
  geometrie: string | null;
  idModeConduite: number | null;
  culture: { id: number; libelle: string } | null;
  interventions: InterventionEdaplos[];
};

export type EnTeteEdaplos = { identification: string; creation: Date; logiciel: { nom: string; version: string }; emetteur: { id: string; nom: string } };

export type LigneJournal = {
  niveau: 1 | 2;
  /** Key under edaplos.logs (app/locales/{fr,en}/edaplos.ts). */
  message: string;
  parametres?: Record<string, string | number>;
  idExploitation?: number | null;
  idCampagne?: number | null;
  idModeConduite?: number | null;
  idParcelle?: number | null;
  idAction?: number | null;
  dicIdTypeAction?: number | null;
  idIntrant?: number | null;
};

export const NAMESPACES = {
  rsm: "urn:un:unece:uncefact:data:standard:CropDataSheetMessage:1",
  ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:5",
  xsi: "http://www.w3.org/2001/XMLSchema-instance",
} as const;

/**
 * The element paths the writer adds to those of the reference export (absent from it, named as in the RAM model of
 * the research notes §2.3): the farm owning each plot, and the plot's boundary as WGS 84 coordinates (flat SC with
 * qualifier 4).
 */
export const EXTENSIONS = [
  "/rsm:CropDataSheetMessage/rsm:AgriculturalPlot/ram:OwnerAgronomicalObservationParty",
  "/rsm:CropDataSheetMessage/rsm:AgriculturalPlot/ram:OwnerAgronomicalObservationParty/ram:Identification",
  "/rsm:CropDataSheetMessage/rsm:AgriculturalPlot/ram:OwnerAgronomicalObservationParty/ram:Name",
  "/rsm:CropDataSheetMessage/rsm:AgriculturalPlot/ram:OwnerAgronomicalObservationParty/ram:SpecifiedUnstructuredAddress",
  "/rsm:CropDataSheetMessage/rsm:AgriculturalPlot/ram:OwnerAgronomicalObservationParty/ram:SpecifiedUnstructuredAddress/ram:PostcodeCode",
  "/rsm:CropDataSheetMessage/rsm:AgriculturalPlot/ram:OwnerAgronomicalObservationParty/ram:SpecifiedUnstructuredAddress/ram:LineOne",
  "/rsm:CropDataSheetMessage/rsm:AgriculturalPlot/ram:OwnerAgronomicalObservationParty/ram:SpecifiedUnstructuredAddress/ram:CityName",
  "/rsm:CropDataSheetMessage/rsm:AgriculturalPlot/ram:IncludedAgriculturalArea/ram:SpecifiedGeographicalCoordinate",
  "/rsm:CropDataSheetMessage/rsm:AgriculturalPlot/ram:IncludedAgriculturalArea/ram:SpecifiedGeographicalCoordinate/ram:SystemID",
  "/rsm:CropDataSheetMessage/rsm:AgriculturalPlot/ram:IncludedAgriculturalArea/ram:SpecifiedGeographicalCoordinate/ram:LatitudeMeasure",
  "/rsm:CropDataSheetMessage/rsm:AgriculturalPlot/ram:IncludedAgriculturalArea/ram:SpecifiedGeographicalCoordinate/ram:LongitudeMeasure",
  "/rsm:CropDataSheetMessage/rsm:AgriculturalPlot/ram:IncludedAgriculturalArea/ram:SpecifiedGeographicalCoordinate/ram:SequenceNumeric",
] as const;

/** The AEE qualifier of WGS 84 coordinates (flat SC 15-17). */
const WGS84 = "4";

type Noeud = Record<string, unknown>;
type Texte = { "#text": string } & Record<string, string>;

// One element per line, indented: the importer's report names the line of an element (decision 0130).
const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  suppressEmptyNode: false,
  processEntities: true,
  format: true,
  indentBy: "  ",
});

const aee = (code: string): Texte => ({ "#text": code, "@_listAgencyID": AGENCE_AEE.listAgencyID, "@_listAgencyName": AGENCE_AEE.listAgencyName });
const mesure = (valeur: number, unite: string, decimales = 4): Texte => ({ "#text": valeur.toFixed(decimales), "@_unitCode": unite });
const nombre = (v: number) => String(Number(v.toFixed(6)));
const debutJour = (jour: string) => `${jour}T00:00:00Z`;
const finJour = (jour: string) => `${jour}T23:59:59Z`;

/** Drops undefined members, so that absent values write no element. */
function net(n: Noeud): Noeud {
  const r: Noeud = {};
  for (const [k, v] of Object.entries(n)) if (v !== undefined && !(Array.isArray(v) && v.length === 0)) r[k] = v;
  return r;
}

/** The XML declaration, the root's opening tag and the document header (CropDataSheetDocument). */
export function debutMessage(t: EnTeteEdaplos): string {
  const document = builder.build({
    "rsm:CropDataSheetDocument": {
      "ram:Identification": t.identification,
      "ram:TypeCode": "415",
      "ram:CreationDateTime": t.creation.toISOString().replace(/\.\d{3}Z$/, "Z"),
      "ram:CopyIndicator": "false",
      "ram:IssuerCropDataSheetParty": { "ram:Identification": t.emetteur.id, "ram:Description": t.emetteur.nom },
      "ram:UsedProduction_Software": {
        "ram:AuthorName": t.logiciel.nom,
        "ram:Identification": t.logiciel.nom.toUpperCase(),
        "ram:Name": t.logiciel.nom,
        "ram:Version": t.logiciel.version,
      },
    },
  });
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<rsm:CropDataSheetMessage xmlns:rsm="${NAMESPACES.rsm}" xmlns:ram="${NAMESPACES.ram}" xmlns:xsi="${NAMESPACES.xsi}"` +
    ` xsi:schemaLocation="${NAMESPACES.rsm} AEE_eDAPLOS.xsd">\n${document.trimEnd()}\n`
  );
}

export const FIN_MESSAGE = "</rsm:CropDataSheetMessage>\n";

/** One plot of a campaign as its `rsm:AgriculturalPlot` element (a string, without its XML declaration). */
export function parcelleXml(campagne: CampagneEdaplos, p: ParcelleEdaplos, journal: (l: LigneJournal) => void): string {
  return builder.build({ "rsm:AgriculturalPlot": parcelleNoeud(campagne, p, journal) }).trimEnd() + "\n";
}

/** The tree of one plot (what `parcelleXml` serialises), for the writer and its tests. */
export function parcelleNoeud(campagne: CampagneEdaplos, p: ParcelleEdaplos, journal: (l: LigneJournal) => void): Noeud {
  const lien = { idExploitation: campagne.exploitation.id, idCampagne: campagne.id, idModeConduite: p.idModeConduite, idParcelle: p.id };
  const log = (niveau: 1 | 2, message: string, extra: Partial<LigneJournal> = {}, parametres?: Record<string, string | number>) =>
    journal({ niveau, message, ...lien, ...extra, ...(parametres ? { parametres } : {}) });

  const jours = p.interventions.map((i) => i.date).sort();
  const debut = jours[0] ?? `${campagne.anneeRecolte - 1}-09-01`;
  const fin = jours[jours.length - 1] ?? `${campagne.anneeRecolte}-08-31`;

  let surface: Noeud | undefined;
  if (p.surface != null && p.surface > 0) {
    surface = { "ram:TypeCode": SURFACE_PARCELLE, "ram:Description": "Surface de la parcelle culturale", "ram:ActualMeasure": mesure(p.surface, "HAR") };
  } else log(2, "parcelle-sans-surface");
  const contour = coordonnees(p.geometrie, (m) => log(m.niveau, m.message));
  const zone = surface || contour.length ? net({ ...(surface ?? {}), "ram:SpecifiedGeographicalCoordinate": contour }) : undefined;

  const e = campagne.exploitation;
  const proprietaire = net({
    "ram:Identification": e.siret ?? `SILLON-E${e.id}`,
    "ram:Name": e.libelle,
    "ram:SpecifiedUnstructuredAddress":
      e.adresse || e.codePostal || e.ville
        ? net({ "ram:PostcodeCode": e.codePostal ?? undefined, "ram:LineOne": e.adresse ?? undefined, "ram:CityName": e.ville ?? undefined })
        : undefined,
  });

  // The crop: its AEE species code, else the occupation without it (logged).
  let culture: Noeud | undefined;
  if (p.culture) {
    const code = CULTURES[p.culture.id];
    if (!code) log(2, "culture-sans-code", {}, { culture: p.culture.libelle });
    else if (code.proche) log(1, "culture-code-proche", {}, { culture: p.culture.libelle, code: code.espece });
    const varietes = p.interventions
      .flatMap((i) => i.intrants)
      .filter((x) => x.idTypeIntrant === TYPE_INTRANT.SEMENCE && !x.traitementSemence)
      .map((x) => net({ "ram:TypeCode": x.gnis ?? undefined, "ram:Description": x.libelle }));
    culture = net({
      "ram:BotanicalSpeciesCode": code ? aee(code.espece) : undefined,
      "ram:SupplementaryBotanicalSpeciesCode": code?.complement ? aee(code.complement) : undefined,
      "ram:SowingPeriodCode": code?.periode ? aee(code.periode) : undefined,
      "ram:Description": p.culture.libelle,
      "ram:SownCropSpeciesVariety": varietes,
    });
  } else log(2, "parcelle-sans-culture");

  const processus = p.interventions.map((i) => interventionNoeud(p, i, (niveau, message, extra, parametres) => log(niveau, message, extra, parametres)));

  return net({
    "ram:Identification": String(p.id),
    "ram:Description": p.libelle,
    "ram:DataSheetStartDateTime": debutJour(debut),
    "ram:DataSheetEndDateTime": debutJour(fin),
    "ram:SequenceNumeric": "0",
    "ram:IssuerInternalReference": String(p.id),
    "ram:HarvestedYear": String(campagne.anneeRecolte),
    "ram:OwnerAgronomicalObservationParty": proprietaire,
    "ram:IncludedAgriculturalArea": zone,
    "ram:AppliedPlotSoilOccupation": net({
      "ram:Identification": `${p.id}_${p.culture?.id ?? 0}`,
      "ram:TypeCode": aee("ABA00"),
      "ram:SequenceNumeric": "1",
      "ram:StartDateTime": debutJour(debut),
      "ram:EndDateTime": debutJour(fin),
      "ram:SownAgriculturalCrop": culture,
      "ram:UsedAgriculturalArea": surface,
      "ram:SpecifiedAgriculturalCropProductionCycle": net({
        "ram:SequenceNumeric": "1",
        "ram:StartDateTime": debutJour(debut),
        "ram:EndDateTime": debutJour(fin),
        "ram:ProductionYearDateTime": `${campagne.anneeRecolte}-12-31T00:00:00Z`,
        "ram:ApplicablePlotAgriculturalProcess": processus,
      }),
    }),
    "ram:ApplicableTechnicalCharacteristic": p.irrigable ? { "ram:TypeCode": IRRIGABLE, "ram:Description": "Irrigable/irriguée" } : undefined,
  });
}

type Log = (niveau: 1 | 2, message: string, extra?: Partial<LigneJournal>, parametres?: Record<string, string | number>) => void;

function interventionNoeud(p: ParcelleEdaplos, i: InterventionEdaplos, log: Log): Noeud {
  const lien = { idAction: i.id, dicIdTypeAction: i.idTypeAction };
  const travail = i.idTypeAction != null ? TRAVAUX[i.idTypeAction] : undefined;
  if (!travail) log(2, "intervention-sans-travail", lien, { operation: i.operation ?? "" });
  else if (travail.proche) log(1, "travail-code-proche", lien, { operation: i.operation ?? "", code: travail.travail });
  const type = i.recoltes.length
    ? TYPE_EVENEMENT.RECOLTE
    : i.intrants.length
      ? TYPE_EVENEMENT.INTRANT
      : travail?.sol
        ? TYPE_EVENEMENT.TRAVAIL_SOL
        : TYPE_EVENEMENT.AUTRE;
  const surface = p.surface != null && p.surface > 0 ? p.surface * (i.tauxSurface ?? 1) : null;
  const intrants = i.intrants.map((x) => intrantNoeud(i, x, (n, m, extra, params) => log(n, m, { ...lien, ...extra }, params)));
  const recoltes = i.recoltes.flatMap((r) => recolteNoeud(r, (n, m, params) => log(n, m, lien, params)));
  return net({
    "ram:ApplicableTechnicalCharacteristic": i.debit != null ? { "ram:TypeCode": DEBIT_CHANTIER, "ram:ValueMeasure": nombre(i.debit) } : undefined,
    "ram:TripNumber": i.nombrePassage != null ? nombre(i.nombrePassage) : undefined,
    "ram:Identification": String(i.id),
    "ram:TypeCode": aee(type),
    "ram:SubordinateTypeCode": i.realisee ? ETAT_EVENEMENT.REALISE : ETAT_EVENEMENT.PREVU,
    "ram:Status": "9",
    "ram:OccurrenceAgriculturalArea": surface != null ? { "ram:TypeCode": SURFACE_TRAVAILLEE, "ram:ActualMeasure": mesure(surface, "HAR") } : undefined,
    "ram:OccurrenceDelimitedPeriod": { "ram:StartDateTime": debutJour(i.date), "ram:EndDateTime": finJour(i.date) },
    "ram:PerformedAgriculturalProcessWorkItem": net({
      "ram:TypeCode": travail ? aee(travail.travail) : undefined,
      "ram:Description": i.operation ?? undefined,
    }),
    "ram:UsedAgriculturalProcessCropInput": intrants,
    "ram:HarvestedAgriculturalProduce": recoltes,
  });
}

function intrantNoeud(i: InterventionEdaplos, x: IntrantEdaplos, log: Log): Noeud {
  const lien = { idIntrant: x.id };
  const params = { intrant: x.libelle };
  const famille = x.traitementSemence ? CATEGORIES_INTRANT[5397] : x.idCategorie != null ? CATEGORIES_INTRANT[x.idCategorie] : undefined;
  if (!famille) log(2, "intrant-sans-famille", lien, params);
  else if (famille.proche) log(1, "intrant-famille-proche", lien, { ...params, code: famille.type });

  let identification: string | undefined;
  if (x.idTypeIntrant === TYPE_INTRANT.PHYTO) {
    if (x.amm) identification = x.amm;
    else log(2, "phyto-sans-amm", lien, params);
  } else if (x.idTypeIntrant === TYPE_INTRANT.SEMENCE) {
    if (x.gnis) identification = x.gnis;
    else log(1, "semence-sans-gnis", lien, params);
  } else if (x.idTypeIntrant === TYPE_INTRANT.EAU) identification = CODE_EAU;

  let dose: Texte | undefined;
  const uniteDose = x.unite != null ? UNITES_DOSE[x.unite] : undefined;
  if (x.quantite == null) log(2, "intrant-sans-dose", lien, params);
  else if (!uniteDose) log(2, "intrant-unite", lien, { ...params, unite: x.unite ?? "" });
  else dose = mesure(x.quantite, uniteDose);

  // Fertiliser composition: the element's percentage and, for a dose in kg or t per ha, its units per ha (spec 3 §9).
  const composants: Noeud[] = [];
  if (x.composition) {
    for (const el of ELEMENTS) {
      const pct = x.composition[el];
      if (pct == null || pct === 0) continue;
      const parHa = x.quantite != null && (x.unite === "kg/ha" || x.unite === "t/ha") ? (x.quantite * pct * (x.unite === "t/ha" ? 1000 : 1)) / 100 : null;
      composants.push(
        net({
          "ram:TypeCode": aee(COMPOSANTS[el]),
          "ram:PresencePercent": pct.toFixed(2),
          "ram:ValueMeasure": parHa != null ? mesure(parHa, "NAR") : undefined,
        }),
      );
    }
    if (composants.length && x.unite === "l/ha") log(1, "composition-litres", lien, params);
  } else if (x.idTypeIntrant === TYPE_INTRANT.FERTILISANT) log(1, "fertilisant-sans-composition", lien, params);

  // Seed qualifiers: the larger share of certified or farm-saved, and GMO when it has a share.
  const qualifiants: string[] = [];
  if (x.semence) {
    const { certifiee, ferme, ogm } = x.semence;
    if ((certifiee ?? 0) > 0 || (ferme ?? 0) > 0)
      qualifiants.push((certifiee ?? 0) >= (ferme ?? 0) ? QUALIFIANTS_SEMENCE.certifiee : QUALIFIANTS_SEMENCE.ferme);
    if ((certifiee ?? 0) > 0 && (ferme ?? 0) > 0) log(1, "semence-parts", lien, { ...params, certifiee: certifiee ?? 0, ferme: ferme ?? 0 });
    if ((ogm ?? 0) > 0) qualifiants.push(QUALIFIANTS_SEMENCE.ogm);
  }
  if (x.cibles > 0) log(1, "cibles-non-exportees", lien, { ...params, nombre: x.cibles });

  const volume = x.idTypeIntrant === TYPE_INTRANT.PHYTO && i.volumeBouillie != null && i.volumeBouillie > 0 ? i.volumeBouillie : null;
  return net({
    "ram:Identification": identification,
    "ram:TypeCode": famille ? aee(famille.type) : undefined,
    "ram:SubordinateTypeCode": qualifiants.length ? qualifiants : undefined,
    "ram:Description": x.libelle,
    "ram:AppliedSurfaceUnitValueMeasure": dose,
    "ram:ComponentCropInputChemical": composants,
    "ram:ApplicableTechnicalCharacteristic": volume != null ? { "ram:TypeCode": VOLUME_BOUILLIE, "ram:ValueMeasure": mesure(volume, "LTR", 0) } : undefined,
  });
}

function recolteNoeud(r: RecolteEdaplos, log: (niveau: 1 | 2, message: string, parametres?: Record<string, string | number>) => void): Noeud[] {
  const params = { culture: r.culture, sortie: r.typeSortie };
  const type = TYPES_SORTIE[r.idTypeSortie];
  if (!type) {
    log(2, "recolte-sans-type", params);
    return [];
  }
  const code = CULTURES[r.idCulture];
  let rendement: Texte | undefined;
  const unite = UNITES_RENDEMENT[r.unite];
  if (r.rendement == null) log(2, "recolte-sans-rendement", params);
  else if (!unite) log(2, "recolte-unite", { ...params, unite: r.unite });
  else rendement = mesure(r.rendement * unite.facteur, unite.code);
  const caracteristiques: Noeud[] = [];
  for (const c of r.caracteristiques) {
    const lc = CARACTERISTIQUES_RECOLTE[c.idType];
    if (!lc || c.valeur == null) {
      log(2, "caracteristique-recolte", params);
      continue;
    }
    caracteristiques.push({
      "ram:TypeCode": aee(CARACTERISTIQUE_PRODUIT),
      "ram:SubordinateTypeCode": aee(lc.code),
      "ram:Description": lc.libelle,
      "ram:ValueMeasure": { "#text": nombre(c.valeur), "@_unitCode": c.unite === "%" ? "PCD" : (c.unite ?? "") },
    });
  }
  if (!code) log(1, "recolte-culture-sans-code", params);
  return [
    net({
      "ram:TypeCode": aee(type),
      "ram:Name": `${r.culture} - ${r.typeSortie}`,
      "ram:EstimatedYieldMeasure": rendement,
      "ram:ApplicableTechnicalCharacteristic": caracteristiques,
    }),
  ];
}

/** The exterior ring of a stored GeoJSON polygon as numbered WGS 84 points; other shapes are logged. */
function coordonnees(geometrie: string | null, log: (m: { niveau: 1 | 2; message: string }) => void): Noeud[] {
  if (!geometrie) return [];
  let g: { type?: string; coordinates?: unknown };
  try {
    g = JSON.parse(geometrie) as typeof g;
  } catch {
    log({ niveau: 2, message: "geometrie-illisible" });
    return [];
  }
  let anneau: unknown;
  if (g.type === "Polygon") anneau = (g.coordinates as unknown[])?.[0];
  else if (g.type === "MultiPolygon") {
    const parts = g.coordinates as unknown[][];
    anneau = parts?.[0]?.[0];
    if ((parts?.length ?? 0) > 1) log({ niveau: 1, message: "geometrie-multiple" });
  }
  if (!Array.isArray(anneau)) {
    log({ niveau: 2, message: "geometrie-illisible" });
    return [];
  }
  if (g.type === "Polygon" && (g.coordinates as unknown[]).length > 1) log({ niveau: 1, message: "geometrie-trous" });
  return (anneau as [number, number][])
    .filter((pt) => Array.isArray(pt) && Number.isFinite(pt[0]) && Number.isFinite(pt[1]))
    .map((pt, k) => ({
      "ram:SystemID": WGS84,
      "ram:LatitudeMeasure": nombre(pt[1]),
      "ram:LongitudeMeasure": nombre(pt[0]),
      "ram:SequenceNumeric": String(k + 1),
    }));
}
