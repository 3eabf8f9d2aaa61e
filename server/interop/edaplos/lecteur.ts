import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { Element } from "~/domain/intrant";
import { ServiceError } from "../../errors";
import { decoder, reconnaitreFormat, TAILLE_MAX_DAPLOS } from "../daplos/lecteur";
import {
  ELEMENTS_IC,
  texteCle,
  typeAction,
  versWgs84,
  type Compte,
  type GenreIntrant,
  type NonPris,
  type PlanImport,
  type PlanIntervention,
  type PlanIntrant,
  type PlanParcelle,
  type PlanRecolte,
  type RaisonNonPris,
} from "../daplos/plan";
import {
  CARACTERISTIQUE_PRODUIT,
  CARACTERISTIQUES_RECOLTE,
  CATEGORIES_INTRANT,
  COMPOSANTS,
  CULTURES,
  DEBIT_CHANTIER,
  ETAT_EVENEMENT,
  IRRIGABLE,
  QUALIFIANTS_SEMENCE,
  SURFACE_PARCELLE,
  TRAVAUX,
  VOLUME_BOUILLIE,
} from "./codes";

/**
 * The eDaplos reader (issue 25, decision 0108): the UN/CEFACT CropDataSheetMessage (the AgroEDI profile the writer
 * ./ecrivain.ts produces and a real export of another product shows, ../shared/reference/edaplos-element-paths.txt)
 * read straight into the Daplos import's plan (../daplos/plan.ts `PlanImport`), so that the import service writes it
 * through the one path the flat file takes: same rights, transaction, report, job and history.
 *
 * Safety: the size limit of the flat reader; a document type declaration is refused, entities are not expanded
 * (processEntities: false; the five XML entities and character references of a text are decoded here, nothing else).
 * Refused whole, with a key of `daplos.*`: an empty file, a malformed XML (with its line), another root than
 * CropDataSheetMessage, a message without plot.
 *
 * The elements are counted under the flat record type they stand for (research notes §2.4: AgriculturalPlot DP, its
 * area PS, its points SC, the document DE, the owner party DA, a process PV, an input VI, a component IC, a harvest
 * VR), which is what the service's report counts; an element Sillon has no place for is counted under its own name
 * and listed as not taken, with the line where it starts. Odd inputs of real exports (an input or a process without
 * type code, a code outside the AgroEDI lists) are taken as the nearest honest thing and said in a warning.
 */

export type Noeud = Record<string, unknown>;

export type FichierEdaplos = {
  encodage: PlanImport["encodage"];
  /** The RAM namespace's version (`RAM:5` for the AgroEDI profile). */
  version: string;
  /** The producing software (UsedProduction_Software/Name), Sillon's own files being read with its ids. */
  logiciel: string | null;
  racine: Noeud;
  /** The 1-based line of a parsed element (its opening tag); null for a text-only element. */
  ligneDe: (n: unknown) => number | null;
  /** The line of the k-th (0-based) child element `nom` of a parsed element, text-only ones included. */
  ligneEnfantDe: (parent: unknown, nom: string, k: number) => number | null;
};

function refus(key: string, params: Record<string, string | number> = {}): ServiceError {
  return new ServiceError(`daplos.${key}`, 400, undefined, params);
}

const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  removeNSPrefix: true,
  captureMetaData: true,
  trimValues: true,
});

/** Reads the bytes of an eDaplos message; refuses what cannot be one (nothing is planned, nothing written). */
export function lireEdaplos(octets: Uint8Array, options: { tailleMax?: number } = {}): FichierEdaplos {
  const tailleMax = options.tailleMax ?? TAILLE_MAX_DAPLOS;
  if (octets.byteLength > tailleMax) throw refus("trop-gros", { taille: octets.byteLength, max: tailleMax });
  const { texte: brut, encodage } = decoder(octets);
  const texte = brut.replace(/^\uFEFF/, "");
  const format = reconnaitreFormat(texte);
  if (format === "vide") throw refus("vide");
  if (/<!DOCTYPE/i.test(texte)) throw refus("edaplos-dtd");
  const valide = XMLValidator.validate(texte);
  if (valide !== true) throw refus("edaplos-xml-invalide", { ligne: valide.err.line, message: valide.err.msg });
  const arbre = parser.parse(texte) as Noeud;
  const racines = Object.keys(arbre).filter((k) => !k.startsWith("?") && !k.startsWith("#"));
  if (racines.length !== 1 || racines[0] !== "CropDataSheetMessage") throw refus("edaplos-racine", { racine: racines[0] ?? "?" });
  const racine = (arbre.CropDataSheetMessage && typeof arbre.CropDataSheetMessage === "object" ? arbre.CropDataSheetMessage : {}) as Noeud;
  if (!liste(racine.AgriculturalPlot).length) throw refus("edaplos-sans-parcelle");
  const debuts = [0];
  for (let i = 0; i < texte.length; i++) if (texte.charCodeAt(i) === 10) debuts.push(i + 1);
  const ligneDe = (n: unknown): number | null => {
    const index = n && typeof n === "object" ? (n as Record<symbol, { startIndex?: number } | undefined>)[META]?.startIndex : undefined;
    if (index == null) return null;
    let [lo, hi] = [0, debuts.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (debuts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const ligneDeIndex = (index: number) => {
    let [lo, hi] = [0, debuts.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (debuts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  // A text-only element is a string in the tree, without position: its parent's tags are scanned for it.
  const balise = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<(\/?)(?:[\w.-]+:)?([\w.-]+)(?:"[^"]*"|'[^']*'|[^'">])*?(\/?)>/g;
  const ligneEnfantDe = (parent: unknown, nom: string, k: number): number | null => {
    const debut = parent && typeof parent === "object" ? (parent as Record<symbol, { startIndex?: number } | undefined>)[META]?.startIndex : undefined;
    if (debut == null) return null;
    const re = new RegExp(balise.source, "g");
    re.lastIndex = debut;
    let profondeur = 0;
    let vus = 0;
    for (let m = re.exec(texte); m; m = re.exec(texte)) {
      if (m[2] == null) continue;
      if (m[1]) {
        if (--profondeur <= 0) return null;
        continue;
      }
      if (profondeur === 1 && m[2] === nom && vus++ === k) return ligneDeIndex(m.index);
      if (!m[3]) profondeur++;
      else if (profondeur === 0) return null;
    }
    return null;
  };
  const ram = /xmlns:ram="[^"]*:(\d+)"/.exec(texte.slice(0, 2000));
  const logiciel = texteDe((enfant(enfant(racine, "CropDataSheetDocument"), "UsedProduction_Software") ?? {}).Name);
  return { encodage, version: `eDaplos RAM:${ram?.[1] ?? "?"}`, logiciel, racine, ligneDe, ligneEnfantDe };
}

// ---- Tree helpers

/** An element's occurrences as a list (one occurrence is not an array in the parsed tree). */
export const liste = (v: unknown): unknown[] => (v == null ? [] : Array.isArray(v) ? v : [v]);
const enfant = (n: unknown, nom: string): Noeud | undefined => {
  const v = n && typeof n === "object" ? liste((n as Noeud)[nom])[0] : undefined;
  return v && typeof v === "object" ? (v as Noeud) : v === "" || typeof v === "string" ? { "#text": v } : undefined;
};
const enfants = (n: unknown, nom: string): Noeud[] =>
  (n && typeof n === "object" ? liste((n as Noeud)[nom]) : []).map((v) => (v && typeof v === "object" ? (v as Noeud) : { "#text": v }));

const ENTITES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
/** The five XML entities and character references; any other `&name;` is left as it is (no DTD, no expansion). */
export const decoderEntites = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (m, e: string) => {
    if (e[0] !== "#") return ENTITES[e.toLowerCase()] ?? m;
    const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });

/** The text of an element (a string, or the #text of an element with attributes); blank is null. */
function texteDe(v: unknown): string | null {
  const first = liste(v)[0];
  const t = typeof first === "string" ? first : first && typeof first === "object" ? (first as Noeud)["#text"] : null;
  if (t == null) return null;
  const s = decoderEntites(String(t)).trim();
  return s || null;
}
const attribut = (v: unknown, nom: string): string | null => {
  const first = liste(v)[0];
  return first && typeof first === "object" && (first as Noeud)[`@_${nom}`] != null ? String((first as Noeud)[`@_${nom}`]).trim() || null : null;
};
const nombreDe = (v: unknown): number | null => {
  const t = texteDe(v);
  if (t == null) return null;
  const n = Number(t.replace(",", "."));
  return Number.isFinite(n) ? n : null;
};
const jourDe = (v: unknown): string | null => {
  const t = texteDe(v);
  return t && /^\d{4}-\d{2}-\d{2}/.test(t) ? t.slice(0, 10) : null;
};

// ---- Code lists read the other way (./codes.ts: Sillon's ids → AEE codes)

type Culture = { id: number; proche: boolean };

/**
 * The Sillon crop of an occupation's species, qualifier and sowing period: the rows of CULTURES with these exact codes,
 * else those whose codes the file does not contradict, else the species alone (proche). Several rows: the one the
 * occupation's Identification names (`<plot>_<crop>`, Sillon's own files) when the file is Sillon's, else the first.
 */
export function cultureEdaplos(espece: string | null, complement: string | null, periode: string | null, suffixe: number | null): Culture | null {
  if (!espece) return null;
  const lignes = Object.entries(CULTURES).map(([id, c]) => ({ id: Number(id), ...c }));
  const memeEspece = lignes.filter((c) => c.espece === espece);
  const exactes = memeEspece.filter((c) => (c.complement ?? null) === complement && (c.periode ?? null) === periode);
  const compatibles = memeEspece.filter((c) => (c.complement == null || c.complement === complement) && (c.periode == null || c.periode === periode));
  const choix = exactes.length ? exactes : compatibles.length ? compatibles : memeEspece;
  if (!choix.length) return null;
  const nommee = suffixe != null ? choix.find((c) => c.id === suffixe) : undefined;
  const c = nommee ?? choix.find((x) => !x.proche) ?? choix[0];
  return { id: c.id, proche: !!c.proche || (!exactes.length && !nommee) || (choix.length > 1 && !nommee) };
}

/** An input family → Sillon's kind and category: the first category of CATEGORIES_INTRANT with that family (ZJB the solid one, as the flat import). */
const FAMILLES = new Map<string, number>();
for (const [id, c] of Object.entries(CATEGORIES_INTRANT)) if (!FAMILLES.has(c.type)) FAMILLES.set(c.type, Number(id));
FAMILLES.set("ZJB", 657);
FAMILLES.set("ZSU", 659);

function genreDeCategorie(id: number): GenreIntrant {
  if (id >= 5381 && id <= 5389) return "semence";
  if (id >= 5391 && id <= 5399) return "phyto";
  if (id >= 655 && id <= 659) return "fertilisant";
  if (id >= 5421 && id <= 5429) return "eau";
  return "autre";
}
const AUTRE_PHYTO = 5399;
const AUTRE_FERTILISANT = 659;
const AUTRE_INTRANT = 5434;

/** Work item → type_action: the flat import's table first (plan.ts), else the first row of TRAVAUX with that code. */
function travailEdaplos(code: string): number | null {
  if (typeAction(code, null, []) !== 26) return typeAction(code, null, []);
  const ids = Object.entries(TRAVAUX).filter(([, t]) => t.travail === code);
  return Number((ids.find(([, t]) => !t.proche) ?? ids[0])?.[0] ?? NaN) || null;
}

/** A component code → Sillon's element: the writer's codes (COMPOSANTS), else the flat file's (IC). */
const ELEMENTS_EDAPLOS = new Map<string, Element>([
  ...(Object.entries(ELEMENTS_IC) as [string, Element][]),
  ...(Object.entries(COMPOSANTS) as [Element, string][]).map(([el, code]) => [code, el] as [string, Element]),
]);

/** Dose unit codes (AppliedSurfaceUnitValueMeasure, per ha) as Sillon's units, by kind of input. */
function uniteDose(genre: GenreIntrant, code: string | null): { unite: string; facteur: number } | null {
  const c = (code ?? "").toUpperCase();
  if (genre === "eau") return c === "MMT" ? { unite: "mm", facteur: 1 } : c === "MTQ" ? { unite: "mm", facteur: 0.1 } : null;
  if (c === "LTR") return { unite: "l/ha", facteur: 1 };
  if (c === "KGM") return { unite: "kg/ha", facteur: 1 };
  if (c === "TNE") return genre === "fertilisant" ? { unite: "t/ha", facteur: 1 } : { unite: "kg/ha", facteur: 1000 };
  return null;
}

// ---- The plan

const PLOT = new Set([
  "Identification",
  "Description",
  "DataSheetStartDateTime",
  "DataSheetEndDateTime",
  "SequenceNumeric",
  "IssuerInternalReference",
  "HarvestedYear",
  "OwnerAgronomicalObservationParty",
  "IncludedAgriculturalArea",
  "AppliedPlotSoilOccupation",
  "ApplicableTechnicalCharacteristic",
]);
const AREA = new Set(["TypeCode", "Description", "ActualMeasure", "SpecifiedGeographicalCoordinate"]);
const OCCUPATION = new Set([
  "Identification",
  "TypeCode",
  "SequenceNumeric",
  "StartDateTime",
  "EndDateTime",
  "SownAgriculturalCrop",
  "UsedAgriculturalArea",
  "SpecifiedAgriculturalCropProductionCycle",
]);
const CROP = new Set(["BotanicalSpeciesCode", "SupplementaryBotanicalSpeciesCode", "SowingPeriodCode", "Description", "SownCropSpeciesVariety"]);
const CYCLE = new Set(["SequenceNumeric", "StartDateTime", "EndDateTime", "ProductionYearDateTime", "ApplicablePlotAgriculturalProcess"]);
const PROCESS = new Set([
  "Identification",
  "TypeCode",
  "SubordinateTypeCode",
  "Status",
  "Description",
  "OccurrenceAgriculturalArea",
  "OccurrenceDelimitedPeriod",
  "PerformedAgriculturalProcessWorkItem",
  "UsedAgriculturalProcessCropInput",
  "HarvestedAgriculturalProduce",
  "ApplicableTechnicalCharacteristic",
]);
const OCCURRENCE_AREA = new Set(["TypeCode", "Description", "ActualMeasure"]);
const INPUT = new Set([
  "Identification",
  "TypeCode",
  "Description",
  "AppliedSurfaceUnitValueMeasure",
  "AppliedSurfaceUnitVolumeMeasure",
  "ComponentCropInputChemical",
  "SubordinateTypeCode",
  "ApplicableTechnicalCharacteristic",
]);
const PRODUCE = new Set(["TypeCode", "Name", "EstimatedYieldMeasure", "ApplicableTechnicalCharacteristic"]);
const CARACTERISTIQUE = "ApplicableTechnicalCharacteristic";
/** The lot characteristic codes the writer uses (CARACTERISTIQUES_RECOLTE), read back: ZJ4 is the reference humidity. */
const HUMIDITE = CARACTERISTIQUES_RECOLTE[1].code;

/** The plan of a read eDaplos message: one farm, its harvest years, its plots with crop, area, boundary, processes, inputs and harvests. */
export function planEdaplos(f: FichierEdaplos): PlanImport {
  const comptes: Record<string, Compte> = {};
  const nonPris: NonPris[] = [];
  const avertissements: PlanImport["avertissements"] = [];
  const compte = (type: string) => (comptes[type] ??= { lus: 0, pris: 0, nonPris: 0 });
  const lu = (type: string) => compte(type).lus++;
  const pris = (type: string) => compte(type).pris++;
  const refuse = (type: string, ligne: number, raison: RaisonNonPris, detail?: string) => {
    compte(type).nonPris++;
    nonPris.push({ ligne, type, raison, ...(detail ? { detail: detail.slice(0, 200) } : {}) });
  };
  const ligne = (n: unknown, parent: number) => f.ligneDe(n) ?? parent;
  const avertir = (l: number, type: string, cle: string, params?: Record<string, string | number>) =>
    avertissements.push({ ligne: l, type, cle: `daplos.avertissement.${cle}`, ...(params ? { params } : {}) });
  /** Every child element Sillon has no place for: counted under its name, not taken, with its line. */
  const reste = (n: Noeud, connus: Set<string>, parent: number) => {
    for (const nom of Object.keys(n)) {
      if (connus.has(nom) || nom.startsWith("@_") || nom === "#text") continue;
      for (const { v: occurrence, ligne: l } of occurrences(n, nom, parent)) {
        lu(nom);
        refuse(nom, l, "sans-equivalent", resume(occurrence));
      }
    }
  };
  /** The occurrences of a child element with the line of each (text-only ones found in the parent's tags). */
  const occurrences = (n: Noeud, nom: string, parent: number) =>
    liste(n[nom]).map((v, k) => ({ v, ligne: f.ligneDe(v) ?? f.ligneEnfantDe(n, nom, k) ?? ligne(n, parent) }));
  const resume = (occurrence: unknown) => {
    const texte =
      typeof occurrence === "string"
        ? occurrence
        : (texteDe(enfant(occurrence, "TypeCode")) ?? texteDe(enfant(occurrence, "Description")) ?? texteDe(occurrence));
    return texte ? decoderEntites(texte) : undefined;
  };
  const sillon = /^sillon$/i.test(f.logiciel ?? "");

  // Header: the document (DE) and its issuer; the farm is the plots' owner party (DA), else the issuer.
  const document = enfant(f.racine, "CropDataSheetDocument");
  const ligneDocument = ligne(document, 1);
  lu("DE");
  if (document) pris("DE");
  else refuse("DE", 1, "parent-absent");
  const emetteur = enfant(document, "IssuerCropDataSheetParty");
  reste(f.racine, new Set(["CropDataSheetDocument", "AgriculturalPlot"]), 1);

  const exploitation: PlanImport["exploitation"] = { siret: null, libelle: "", codePostal: null, commune: null, pacage: null, ligne: null };
  const parcelles: PlanParcelle[] = [];
  const vus = new Set<string>();

  for (const [k, plot] of enfants(f.racine, "AgriculturalPlot").entries()) {
    const lp = ligne(plot, ligneDocument);
    lu("DP");
    // The farm: the first owner party; a plot of another one is not taken (one farm per import).
    const owner = enfant(plot, "OwnerAgronomicalObservationParty");
    if (owner) {
      lu("DA");
      const id = texteDe(owner.Identification);
      if (exploitation.ligne == null) {
        const adresse = enfant(owner, "SpecifiedUnstructuredAddress");
        Object.assign(exploitation, {
          siret: id,
          libelle: texteDe(owner.Name) ?? "",
          codePostal: texteDe(adresse?.PostcodeCode),
          commune: texteDe(adresse?.CityName),
          ligne: ligne(owner, lp),
        });
        pris("DA");
      } else if (id !== exploitation.siret) {
        refuse("DA", ligne(owner, lp), "sans-equivalent", `${id ?? "?"} ${texteDe(owner.Name) ?? ""}`.trim());
        refuse("DP", lp, "sans-equivalent", `exploitation ${id ?? "?"}`);
        continue;
      } else pris("DA");
    }
    const reference = texteDe(plot.Identification) ?? texteDe(plot.IssuerInternalReference) ?? `#${k + 1}`;
    const anneeTexte = texteDe(plot.HarvestedYear);
    const annee =
      anneeTexte && /^\d{4}/.test(anneeTexte)
        ? Number(anneeTexte.slice(0, 4))
        : Number(
            (jourDe(enfant(enfant(plot, "AppliedPlotSoilOccupation"), "SpecifiedAgriculturalCropProductionCycle")?.ProductionYearDateTime) ?? "").slice(0, 4),
          ) || null;
    if (annee == null) {
      refuse("DP", lp, "date-absente", reference);
      continue;
    }
    const cle = { ordre: Math.trunc(nombreDe(plot.SequenceNumeric) ?? 0), reference, annee };
    if (vus.has(texteCle(cle))) {
      refuse("DP", lp, "doublon", texteCle(cle));
      continue;
    }
    vus.add(texteCle(cle));
    const parcelle: PlanParcelle = {
      cle,
      ligne: lp,
      libelle: texteDe(plot.Description) ?? `Parcelle ${reference}`,
      surface: null,
      codeInsee: null,
      noIlotPac: null,
      drainee: false,
      // Sillon's writer says ABG12 only of an irrigable plot: its file without it says "not irrigable".
      ...(sillon ? { irrigable: false } : {}),
      geometrie: null,
      espece: null,
      idCulture: null,
      remarques: [],
      interventions: [],
      enfants: {},
    };
    const enfantPris = (type: string) => {
      pris(type);
      parcelle.enfants[type] = (parcelle.enfants[type] ?? 0) + 1;
    };
    parcelles.push(parcelle);
    pris("DP");
    reste(plot, PLOT, lp);
    for (const { v, ligne: l } of occurrences(plot, CARACTERISTIQUE, lp)) {
      lu(CARACTERISTIQUE);
      if (texteDe(enfant(v, "TypeCode")) === IRRIGABLE) {
        parcelle.irrigable = true;
        enfantPris(CARACTERISTIQUE);
      } else refuse(CARACTERISTIQUE, l, "sans-equivalent", resume(v));
    }

    // Area (PS) and boundary (SC).
    for (const area of enfants(plot, "IncludedAgriculturalArea")) {
      const la = ligne(area, lp);
      lu("PS");
      const unite = attribut(area.ActualMeasure, "unitCode");
      const ha = nombreDe(area.ActualMeasure);
      const type = texteDe(area.TypeCode);
      if (ha != null && (unite == null || unite === "HAR") && (type === SURFACE_PARCELLE || parcelle.surface == null)) parcelle.surface = ha;
      else if (ha != null && unite && unite !== "HAR") avertir(la, "PS", "edaplos-unite", { element: "ActualMeasure", unite });
      enfantPris("PS");
      reste(area, AREA, la);
      const points = enfants(area, "SpecifiedGeographicalCoordinate")
        .map((pt, i) => ({ pt, ordre: nombreDe(pt.SequenceNumeric) ?? i + 1 }))
        .sort((a, b) => a.ordre - b.ordre);
      const anneau: number[][] = [];
      for (const { pt } of points) {
        lu("SC");
        const systeme = texteDe(pt.SystemID);
        const lon = nombreDe(pt.LongitudeMeasure);
        const lat = nombreDe(pt.LatitudeMeasure);
        const p = lon != null && lat != null ? versWgs84(systeme, lon, lat) : null;
        if (!p) {
          refuse("SC", ligne(pt, la), "coordonnees-inconnues", systeme ?? undefined);
          continue;
        }
        anneau.push(p);
        enfantPris("SC");
      }
      if (anneau.length >= 3 && !parcelle.geometrie) {
        const [a, b] = [anneau[0], anneau[anneau.length - 1]];
        if (a[0] !== b[0] || a[1] !== b[1]) anneau.push(a);
        parcelle.geometrie = { type: "Polygon", coordinates: [anneau] };
      } else if (anneau.length) avertir(la, "SC", "contour-incomplet", { points: anneau.length });
    }

    // Occupations: the crop is the last one's (by sequence) with a species; the others are listed, their processes kept.
    const occupations = enfants(plot, "AppliedPlotSoilOccupation")
      .map((o, i) => ({ o, ordre: nombreDe(o.SequenceNumeric) ?? i }))
      .sort((a, b) => a.ordre - b.ordre)
      .map((x) => x.o);
    const varietes: { ligne: number; gnis: string | null; libelle: string | null }[] = [];
    const principale = [...occupations].reverse().find((o) => texteDe(enfant(o, "SownAgriculturalCrop")?.BotanicalSpeciesCode)) ?? occupations.at(-1);
    for (const occupation of occupations) {
      const lo = ligne(occupation, lp);
      lu("AppliedPlotSoilOccupation");
      reste(occupation, OCCUPATION, lo);
      const crop = enfant(occupation, "SownAgriculturalCrop");
      if (crop) {
        reste(crop, CROP, ligne(crop, lo));
        for (const { v, ligne: l } of occurrences(crop, "SownCropSpeciesVariety", ligne(crop, lo)))
          varietes.push({ ligne: l, gnis: texteDe(enfant(v, "TypeCode")), libelle: texteDe(enfant(v, "Description")) });
      }
      const espece = texteDe(crop?.BotanicalSpeciesCode);
      const libelleCulture = texteDe(crop?.Description);
      if (occupation === principale) {
        enfantPris("AppliedPlotSoilOccupation");
        const suffixe = sillon ? Number(/_(\d+)$/.exec(texteDe(occupation.Identification) ?? "")?.[1] ?? NaN) : NaN;
        const c = cultureEdaplos(
          espece,
          texteDe(crop?.SupplementaryBotanicalSpeciesCode),
          texteDe(crop?.SowingPeriodCode),
          Number.isFinite(suffixe) ? suffixe : null,
        );
        parcelle.espece = espece;
        parcelle.idCulture = c?.id ?? null;
        if (espece && !c) {
          parcelle.remarques.push(`Culture eDaplos ${espece}${libelleCulture ? ` (${libelleCulture})` : ""} sans correspondance`);
          avertir(lo, "DP", "espece-inconnue", { espece });
        } else if (c?.proche) avertir(lo, "DP", "edaplos-culture-proche", { espece: espece ?? "", culture: libelleCulture ?? "" });
        if (parcelle.surface == null) {
          const used = enfant(occupation, "UsedAgriculturalArea");
          const ha = nombreDe(used?.ActualMeasure);
          if (ha != null && (attribut(used?.ActualMeasure, "unitCode") ?? "HAR") === "HAR") parcelle.surface = ha;
        }
      } else {
        refuse("AppliedPlotSoilOccupation", lo, "sans-equivalent", [espece, libelleCulture].filter(Boolean).join(" ") || undefined);
        parcelle.remarques.push(`Autre occupation eDaplos : ${[libelleCulture, espece].filter(Boolean).join(" ") || "?"}`);
      }
      for (const cycle of enfants(occupation, "SpecifiedAgriculturalCropProductionCycle")) {
        const lc = ligne(cycle, lo);
        reste(cycle, CYCLE, lc);
        for (const process of enfants(cycle, "ApplicablePlotAgriculturalProcess")) processus(parcelle, process, ligne(process, lc));
      }
    }
    // The crop's varieties are the plot's seed inputs (the writer writes one per seed): taken with the plot when a seed
    // input names it (its GNIS code, else its label), the code given to a seed input of that label that has none.
    const semences = parcelle.interventions.flatMap((i) => i.intrants).filter((x) => x.genre === "semence");
    for (const v of varietes) {
      lu("SownCropSpeciesVariety");
      const memes = semences.filter((x) => (v.gnis != null && x.gnis === v.gnis) || (v.libelle != null && x.libelle === v.libelle));
      if (!memes.length) {
        refuse("SownCropSpeciesVariety", v.ligne, "sans-equivalent", [v.gnis, v.libelle].filter(Boolean).join(" ") || undefined);
        continue;
      }
      if (v.gnis) for (const x of memes) x.gnis ??= v.gnis;
      enfantPris("SownCropSpeciesVariety");
    }
  }

  function processus(parcelle: PlanParcelle, process: Noeud, lv: number) {
    lu("PV");
    const periode = enfant(process, "OccurrenceDelimitedPeriod");
    const date = jourDe(periode?.StartDateTime) ?? jourDe(periode?.EndDateTime);
    const guid = texteDe(process.Identification) ?? `${texteCle(parcelle.cle)}#${lv}`;
    // Inputs and harvests of a process not taken are not taken either (their parent is absent).
    const orphelins = (raison: RaisonNonPris, detail?: string) => {
      refuse("PV", lv, raison, detail);
      for (const x of enfants(process, "UsedAgriculturalProcessCropInput")) {
        lu("VI");
        refuse("VI", ligne(x, lv), "parent-absent");
      }
      for (const h of enfants(process, "HarvestedAgriculturalProduce")) {
        lu("VR");
        refuse("VR", ligne(h, lv), "parent-absent");
      }
    };
    if (!date) return orphelins("date-absente", guid);
    if (parcelle.interventions.some((i) => i.guid === guid)) return orphelins("doublon", guid);
    // One trip is what an intervention is; more trips have no place in the plan (listed).
    reste(process, nombreDe(process.TripNumber) === 1 ? new Set([...PROCESS, "TripNumber"]) : PROCESS, lv);
    const zone = enfant(process, "OccurrenceAgriculturalArea");
    if (zone) reste(zone, OCCURRENCE_AREA, ligne(zone, lv));
    const surfaceTravaillee = nombreDe(zone?.ActualMeasure);
    const taux = surfaceTravaillee != null && parcelle.surface ? Math.min(1, surfaceTravaillee / parcelle.surface) : 1;
    const travail = enfant(process, "PerformedAgriculturalProcessWorkItem");
    const etat = texteDe(process.SubordinateTypeCode);
    const intervention: PlanIntervention = {
      guid,
      ligne: lv,
      suppression: false,
      date,
      typeEvenement: texteDe(process.TypeCode),
      typeTravail: texteDe(travail?.TypeCode),
      idTypeAction: 26,
      libelleOperation: texteDe(travail?.Description) ?? texteDe(process.Description) ?? "Intervention eDaplos",
      intitule: texteDe(process.Description),
      stade: null,
      realisee: etat !== ETAT_EVENEMENT.PREVU,
      prevue: etat === ETAT_EVENEMENT.PREVU,
      tauxSurface: Number(taux.toFixed(4)) || 1,
      intrants: [],
      recoltes: [],
    };
    parcelle.interventions.push(intervention);
    pris("PV");
    for (const { v, ligne: l } of occurrences(process, CARACTERISTIQUE, lv)) {
      lu(CARACTERISTIQUE);
      const debit = nombreDe(enfant(v, "ValueMeasure"));
      if (texteDe(enfant(v, "TypeCode")) === DEBIT_CHANTIER && debit != null && debit >= 0 && intervention.debit == null) {
        intervention.debit = debit;
        (intervention.attaches ??= []).push({ type: CARACTERISTIQUE, ligne: l });
        pris(CARACTERISTIQUE);
      } else refuse(CARACTERISTIQUE, l, "sans-equivalent", resume(v));
    }
    if (!intervention.typeEvenement)
      avertir(lv, "PV", "edaplos-sans-type", { element: "ApplicablePlotAgriculturalProcess", libelle: intervention.libelleOperation });

    for (const x of enfants(process, "UsedAgriculturalProcessCropInput")) intervention.intrants.push(intrant(x, ligne(x, lv), intervention));
    for (const h of enfants(process, "HarvestedAgriculturalProduce")) {
      const lh = ligne(h, lv);
      lu("VR");
      reste(h, PRODUCE, lh);
      const type = texteDe(h.TypeCode);
      if (type === "ZJI") {
        // A co-product (straw): the service writes a harvest as the crop's main output; not taken rather than mislabelled.
        refuse("VR", lh, "sans-equivalent", `${type} ${texteDe(h.Name) ?? ""}`.trim());
        continue;
      }
      if (type !== "ZJH")
        avertir(lh, "VR", type ? "edaplos-code-inconnu" : "edaplos-sans-type", {
          element: "HarvestedAgriculturalProduce",
          code: type ?? "",
          libelle: texteDe(h.Name) ?? "",
        });
      let humidite: number | null = null;
      const attaches: PlanRecolte["attaches"] = [];
      for (const { v, ligne: l } of occurrences(h, CARACTERISTIQUE, lh)) {
        lu(CARACTERISTIQUE);
        const pct = nombreDe(enfant(v, "ValueMeasure"));
        const unitePct = attribut(enfant(v, "ValueMeasure"), "unitCode");
        if (
          texteDe(enfant(v, "TypeCode")) === CARACTERISTIQUE_PRODUIT &&
          texteDe(enfant(v, "SubordinateTypeCode")) === HUMIDITE &&
          pct != null &&
          pct >= 0 &&
          pct <= 100 &&
          (unitePct == null || unitePct === "PCD") &&
          humidite == null
        ) {
          humidite = pct;
          attaches.push({ type: CARACTERISTIQUE, ligne: l });
          pris(CARACTERISTIQUE);
        } else refuse(CARACTERISTIQUE, l, "sans-equivalent", [resume(v), texteDe(enfant(v, "SubordinateTypeCode"))].filter(Boolean).join(" "));
      }
      const valeur = nombreDe(h.EstimatedYieldMeasure);
      const unite = (attribut(h.EstimatedYieldMeasure, "unitCode") ?? "TNE").toUpperCase();
      const facteur = unite === "TNE" ? 1 : unite === "QTL" ? 0.1 : unite === "KGM" ? 0.001 : null;
      if (valeur != null && facteur == null) avertir(lh, "VR", "edaplos-unite", { element: "EstimatedYieldMeasure", unite });
      intervention.recoltes.push({
        ligne: lh,
        typeProduit: type,
        espece: null,
        libelle: texteDe(h.Name),
        rendement: valeur != null && facteur != null ? Number((valeur * facteur).toFixed(3)) : null,
        unite: "t/ha",
        humidite,
        attaches,
      });
      pris("VR");
    }
    const genres = intervention.intrants.map((x) => x.genre);
    const code = intervention.typeTravail;
    const id = code ? travailEdaplos(code) : null;
    intervention.idTypeAction = id ?? typeAction(null, intervention.typeEvenement, genres);
    if (code && id == null)
      avertir(lv, "PV", "edaplos-code-inconnu", { element: "PerformedAgriculturalProcessWorkItem", code, libelle: intervention.libelleOperation });
  }

  function intrant(x: Noeud, lx: number, intervention: PlanIntervention): PlanIntrant {
    lu("VI");
    reste(x, INPUT, lx);
    const famille = texteDe(x.TypeCode);
    const identification = texteDe(x.Identification);
    const libelle = texteDe(x.Description) ?? identification ?? (famille ? `Intrant ${famille}` : "Intrant eDaplos");
    let idCategorie = famille ? FAMILLES.get(famille) : undefined;
    // Odd inputs: no family, or one outside the AgroEDI list; the nearest honest kind from what the input says.
    if (idCategorie == null) {
      idCategorie =
        identification && /^\d{7}$/.test(identification)
          ? AUTRE_PHYTO
          : identification?.toUpperCase() === "EAU"
            ? 5421
            : famille && /^ENGR/i.test(famille)
              ? AUTRE_FERTILISANT
              : AUTRE_INTRANT;
      avertir(lx, "VI", famille ? "edaplos-code-inconnu" : "edaplos-sans-type", {
        element: "UsedAgriculturalProcessCropInput",
        code: famille ?? "",
        libelle,
        genre: genreDeCategorie(idCategorie),
      });
    }
    const genre = genreDeCategorie(idCategorie);
    const dose = x.AppliedSurfaceUnitValueMeasure ?? x.AppliedSurfaceUnitVolumeMeasure;
    const valeur = nombreDe(dose);
    const codeUnite = attribut(dose, "unitCode");
    const u = uniteDose(genre, codeUnite);
    if (valeur != null && !u) avertir(lx, "VI", "edaplos-unite", { element: "AppliedSurfaceUnitValueMeasure", unite: codeUnite ?? "" });
    const quantite = valeur != null && u ? Number((valeur * u.facteur).toFixed(4)) : null;
    if (quantite == null) avertir(lx, "VI", "quantite-absente", { libelle });
    const composition: PlanIntrant["composition"] = {};
    const lignesComposition: number[] = [];
    for (const c of enfants(x, "ComponentCropInputChemical")) {
      const lc = ligne(c, lx);
      lu("IC");
      const code = texteDe(c.TypeCode);
      const el = code ? ELEMENTS_EDAPLOS.get(code) : undefined;
      const pct = nombreDe(c.PresencePercent);
      if (genre !== "fertilisant" || !el || pct == null) {
        refuse("IC", lc, "sans-equivalent", code ?? undefined);
        continue;
      }
      composition[el] = Number(pct.toFixed(3));
      lignesComposition.push(lc);
      pris("IC");
    }
    // Seed qualifiers (the writer's: the larger of certified or farm-saved, and GMO) as the seed's shares; the spray
    // volume (T37, which the writer puts on each phyto input of an operation) as the operation's.
    const attaches: PlanIntrant["attaches"] = [];
    let semence: PlanIntrant["semence"] = null;
    const qualifiants = new Map<string, keyof NonNullable<PlanIntrant["semence"]>>(
      Object.entries(QUALIFIANTS_SEMENCE).map(([k, code]) => [code, k as keyof NonNullable<PlanIntrant["semence"]>]),
    );
    for (const { v, ligne: l } of occurrences(x, "SubordinateTypeCode", lx)) {
      lu("SubordinateTypeCode");
      const q = qualifiants.get(texteDe(v) ?? "");
      const deja = semence && q && (q === "ogm" ? semence.ogm === 100 : semence.certifiee != null);
      if (genre !== "semence" || !q || deja) {
        refuse("SubordinateTypeCode", l, "sans-equivalent", texteDe(v) ?? undefined);
        continue;
      }
      const s = (semence ??= { certifiee: null, ferme: null, ogm: 0 });
      if (q === "ogm") s.ogm = 100;
      else Object.assign(s, q === "certifiee" ? { certifiee: 100, ferme: 0 } : { certifiee: 0, ferme: 100 });
      attaches.push({ type: "SubordinateTypeCode", ligne: l });
      pris("SubordinateTypeCode");
    }
    for (const { v, ligne: l } of occurrences(x, CARACTERISTIQUE, lx)) {
      lu(CARACTERISTIQUE);
      const volume = nombreDe(enfant(v, "ValueMeasure"));
      const uniteVolume = attribut(enfant(v, "ValueMeasure"), "unitCode");
      const dejaVolume = intervention.volumeBouillie != null && intervention.volumeBouillie !== volume;
      if (
        texteDe(enfant(v, "TypeCode")) !== VOLUME_BOUILLIE ||
        genre !== "phyto" ||
        volume == null ||
        volume <= 0 ||
        (uniteVolume != null && uniteVolume !== "LTR") ||
        dejaVolume
      ) {
        refuse(CARACTERISTIQUE, l, "sans-equivalent", resume(v));
        continue;
      }
      intervention.volumeBouillie = volume;
      attaches.push({ type: CARACTERISTIQUE, ligne: l });
      pris(CARACTERISTIQUE);
    }
    pris("VI");
    return {
      ligne: lx,
      famille,
      genre,
      idCategorie,
      libelle,
      amm: genre === "phyto" && identification && /^\d{7}$/.test(identification) ? identification : null,
      gnis: genre === "semence" && identification && identification !== "000" ? identification : null,
      quantite,
      unite: u?.unite ?? (genre === "eau" ? "mm" : genre === "fertilisant" || genre === "semence" ? "kg/ha" : "l/ha"),
      composition,
      lignesComposition,
      semence,
      attaches,
    };
  }

  if (exploitation.ligne == null) avertir(ligneDocument, "DA", "edaplos-sans-exploitation", { emetteur: texteDe(emetteur?.Identification) ?? "" });
  if (!exploitation.siret) exploitation.siret = texteDe(emetteur?.Identification);
  if (!exploitation.libelle)
    exploitation.libelle = texteDe(emetteur?.Description) ?? texteDe(emetteur?.Name) ?? `Exploitation ${exploitation.siret ?? ""}`.trim();
  const annees = [...new Set(parcelles.map((p) => p.cle.annee))].sort();
  return { version: f.version, encodage: f.encodage, exploitation, annees, parcelles, comptes, nonPris, avertissements };
}

/** Bytes → plan: what the import service calls for an eDaplos file. */
export const planifierEdaplos = (octets: Uint8Array, options: { tailleMax?: number } = {}) => planEdaplos(lireEdaplos(octets, options));
