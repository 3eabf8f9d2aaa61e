import proj4 from "proj4";
import type { Enregistrement, FichierDaplos, Valeur } from "./lecteur";

/**
 * From the records of a Daplos file to an import plan (issue 25, decision 0094): what the file says in Sillon's
 * terms, with every record accounted for. Pure: the catalogue look-ups (AMM, GNIS) and the "create or update"
 * decision are the service's, which has the database.
 *
 * Hierarchy: implied by the order of the lines and the repeated keys (research notes §1.1). A plot child whose key is
 * not the current plot's, or an event child whose GUID is not the current event's, is not taken ("parent absent").
 */

export type CleParcelle = { ordre: number; reference: string; annee: number };
export const texteCle = (c: CleParcelle) => `${c.annee}|${c.ordre}|${c.reference}`;

export type Geometrie = { type: "Polygon"; coordinates: number[][][] };

/** A record taken into its parent (an eDaplos characteristic or qualifier): created with it, or not taken with it. */
export type Attache = { type: string; ligne: number };

export type GenreIntrant = "phyto" | "semence" | "fertilisant" | "eau" | "autre";

export type PlanIntrant = {
  ligne: number;
  famille: string | null;
  genre: GenreIntrant;
  /** Category of the input (categorie_intrant), from the AEE family. */
  idCategorie: number;
  libelle: string;
  amm: string | null;
  gnis: string | null;
  /** Dose per hectare in `unite` (Sillon's units: kg/ha, l/ha, t/ha, mm), null when the file gives none usable. */
  quantite: number | null;
  unite: string;
  /** Fertiliser composition, % of the product (IC content × 100). */
  composition: Partial<Record<Element, number>>;
  /** Lines of the IC records taken into the composition. */
  lignesComposition: number[];
  /** Seed: shares (%) of certified, farm-saved and GMO seed, from the eDaplos qualifiers (ZQA, ZQD, ZQC). */
  semence?: { certifiee: number | null; ferme: number | null; ogm: number } | null;
  /** Seed: the crop its label names (eDaplos), else the plot's. */
  idCulture?: number | null;
  /** Records taken into the input (qualifiers, spray volume). */
  attaches?: Attache[];
};

export type PlanRecolte = {
  ligne: number;
  typeProduit: string | null;
  espece: string | null;
  libelle: string | null;
  rendement: number | null;
  unite: string;
  /** Reference humidity (%), an eDaplos lot characteristic ZJ4. */
  humidite?: number | null;
  attaches?: Attache[];
};

export type PlanIntervention = {
  guid: string;
  ligne: number;
  /** PV action 2: the sender deleted the event. */
  suppression: boolean;
  date: string;
  typeEvenement: string | null;
  typeTravail: string | null;
  /** Sillon's kind of operation (type_action). */
  idTypeAction: number;
  /** The operation's label: the file's work type text, else its event label. */
  libelleOperation: string;
  intitule: string | null;
  /** The stage as the file says it: the BBCH field (v0.95), else the stage text. */
  stade: string | null;
  /** The BBCH code of the v0.95 field ("32"), when it is one: matched against the reference stages by the service (decision 0125). */
  stadeBbch?: string | null;
  /** The file's stage text (130-164), kept beside a matched stage. */
  stadeTexte?: string | null;
  /** Start and end time "HH:MM" of a one-day event whose start and end carry a time (PV 89-100, 101-112). */
  heureDebut?: string | null;
  heureFin?: string | null;
  realisee: boolean;
  prevue: boolean;
  tauxSurface: number;
  /** Work rate (h/ha), eDaplos AAA38. */
  debit?: number | null;
  /** Spray volume (L/ha) of its operation, eDaplos T37 of its phyto inputs. */
  volumeBouillie?: number | null;
  /** Records taken into the intervention itself (work rate). */
  attaches?: Attache[];
  intrants: PlanIntrant[];
  recoltes: PlanRecolte[];
};

export type PlanParcelle = {
  cle: CleParcelle;
  ligne: number;
  libelle: string;
  surface: number | null;
  codeInsee: string | null;
  noIlotPac: string | null;
  drainee: boolean;
  /** eDaplos ABG12; undefined when the file does not say. */
  irrigable?: boolean;
  geometrie: Geometrie | null;
  /** The AEE species code with Sillon's crop when one is known (CULTURES_AEE). */
  espece: string | null;
  idCulture: number | null;
  remarques: string[];
  interventions: PlanIntervention[];
  /** Records taken into the plot itself (PS area, SC boundary points, PE, PH, PA remarks), by type: created or updated with it. */
  enfants: Record<string, number>;
};

export type Destination =
  "exploitation" | "campagne" | "parcelle" | "culture" | "surface" | "contour" | "remarque" | "intervention" | "intrant" | "composition" | "recolte";
export type Compte = { lus: number; pris: number; nonPris: number };
export type NonPris = { ligne: number; type: string; raison: RaisonNonPris; detail?: string };
export type RaisonNonPris =
  | "parent-absent"
  | "sans-equivalent"
  | "espece-inconnue"
  | "date-absente"
  | "date-hors-campagne"
  | "coordonnees-inconnues"
  | "contour-incomplet"
  | "quantite-absente"
  | "doublon";

export type PlanImport = {
  version: string;
  encodage: FichierDaplos["encodage"];
  exploitation: { siret: string | null; libelle: string; codePostal: string | null; commune: string | null; pacage: string | null; ligne: number | null };
  annees: number[];
  parcelles: PlanParcelle[];
  /** Per record type: read, taken, not taken. */
  comptes: Record<string, Compte>;
  nonPris: NonPris[];
  avertissements: { ligne: number; type: string; cle: string; params?: Record<string, string | number> }[];
};

export const ELEMENTS_IC = {
  NT: "n",
  PT: "p2o5",
  KT: "k2o",
  ST: "so3",
  MT: "mgo",
  CA: "cao",
  NA: "na2o",
  CU: "cu",
  MN: "mn",
  BT: "b",
  FE: "fe",
  MO: "mo",
  CO: "co",
} as const;
type Element = (typeof ELEMENTS_IC)[keyof typeof ELEMENTS_IC];

/**
 * AEE species codes whose Sillon crop is known from the research notes and the sample's own labels (VR "Colza" with
 * ZBE), by sowing period (ZFA spring, ZFB winter) or destination (ZLD grain, ZLF forage). Any other code has no
 * counterpart: the plot keeps the code in its remark and the DP line is listed (decision 0094).
 */
export function cultureAee(espece: string | null, periode: Valeur, destination: Valeur): number | null {
  switch (espece) {
    case "ZDH":
      return periode === "ZFB" ? 4 : 5;
    case "ZCS":
      return destination === "ZLF" ? 11 : 10;
    case "ZBE":
      return periode === "ZFA" ? 44 : 14;
    default:
      return null;
  }
}

/** AEE input family → Sillon's kind and category (categorie_intrant). */
const FAMILLES: Record<string, { genre: GenreIntrant; idCategorie: number }> = {
  ZIU: { genre: "phyto", idCategorie: 5391 },
  ZIV: { genre: "phyto", idCategorie: 5392 },
  ZIW: { genre: "phyto", idCategorie: 5393 },
  ZIX: { genre: "phyto", idCategorie: 5395 },
  ZIZ: { genre: "phyto", idCategorie: 5396 },
  ZJG: { genre: "phyto", idCategorie: 5397 },
  ZQG: { genre: "phyto", idCategorie: 5398 },
  ZJC: { genre: "fertilisant", idCategorie: 655 },
  ZSU: { genre: "fertilisant", idCategorie: 659 },
  ZJB: { genre: "fertilisant", idCategorie: 657 },
  ZKE: { genre: "fertilisant", idCategorie: 658 },
  ZJE: { genre: "eau", idCategorie: 5421 },
  ZJF: { genre: "semence", idCategorie: 5381 },
  ZJT: { genre: "semence", idCategorie: 5382 },
};
const AUTRE_INTRANT = { genre: "autre" as const, idCategorie: 5434 };

/** AEE work type (PV 165-167) → Sillon's kind of operation (type_action). */
const TRAVAUX: Record<string, number> = {
  SEP: 1,
  SEE: 2,
  SET: 6,
  SEW: 6,
  SEU: 7,
  SEX: 11,
  SEM: 12,
  SEK: 12,
  SEO: 14,
  SEQ: 15,
  SER: 15,
  W24: 23,
};
const AUTRE_OPERATION = 26;

/** The kind of operation of an event: its work type, else its event type and inputs (research notes §6). */
export function typeAction(typeTravail: string | null, typeEvenement: string | null, genres: GenreIntrant[]): number {
  if (typeTravail && TRAVAUX[typeTravail]) return typeTravail === "SEM" && genres.includes("fertilisant") ? 12 : TRAVAUX[typeTravail];
  if (typeEvenement === "ZF7") return 15;
  if (genres.includes("phyto")) return 11;
  if (genres.includes("fertilisant")) return 12;
  if (genres.includes("eau")) return 14;
  if (genres.includes("semence")) return 6;
  return AUTRE_OPERATION;
}

proj4.defs(
  "EPSG:27572",
  "+proj=lcc +lat_1=46.8 +lat_0=46.8 +lon_0=0 +k_0=0.99987742 +x_0=600000 +y_0=2200000 +ellps=clrk80ign +pm=paris +towgs84=-168,-60,320,0,0,0,0 +units=m +no_defs",
);
proj4.defs("EPSG:2154", "+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs");

// Built once: proj4(from, to, point) parses both definitions again for every point (two thirds of a file's planning).
const DEPUIS_LAMBERT_II = proj4("EPSG:27572", "WGS84");
const DEPUIS_LAMBERT_93 = proj4("EPSG:2154", "WGS84");

/** A point of a Daplos coordinate record to WGS 84 (lon, lat): qualifier 3 Lambert II étendu, 5 Lambert 93, 4 WGS 84. */
export function versWgs84(srs: Valeur, x: number, y: number): [number, number] | null {
  const code = String(srs ?? "").replace(/^0+/, "");
  if (code === "4") return [x, y];
  const conversion = code === "3" ? DEPUIS_LAMBERT_II : code === "5" ? DEPUIS_LAMBERT_93 : null;
  if (!conversion) return null;
  const [lon, lat] = conversion.forward([x, y]);
  return [Number(lon.toFixed(7)), Number(lat.toFixed(7))];
}

const txt = (v: Valeur) => (v == null ? null : String(v));
const nb = (v: Valeur) => (typeof v === "number" ? v : null);

/** Units of a VI quantity per hectare (232-234) or total (220-222) as Sillon's units, with a factor. */
function unite(genre: GenreIntrant, code: string | null, parHa: boolean): { unite: string; facteur: number } | null {
  const c = (code ?? "").toUpperCase();
  // Water: 1 mm over 1 ha is 10 m³, 10,000 L.
  if (genre === "eau")
    return c === "MMT"
      ? { unite: "mm", facteur: 1 }
      : parHa
        ? null
        : c === "MTQ"
          ? { unite: "mm", facteur: 0.1 }
          : c === "LTR"
            ? { unite: "mm", facteur: 1e-4 }
            : null;
  const liquide = c === "LTR" || c === "ZKK";
  const kilos = c === "KGM" || c === "ZKL";
  const tonnes = c === "TNE";
  if (genre === "fertilisant") {
    if (tonnes) return { unite: "t/ha", facteur: 1 };
    if (kilos) return { unite: "kg/ha", facteur: 1 };
    if (liquide) return { unite: "l/ha", facteur: 1 };
    return null;
  }
  if (liquide) return { unite: "l/ha", facteur: 1 };
  if (kilos) return { unite: "kg/ha", facteur: 1 };
  if (tonnes) return { unite: "kg/ha", facteur: 1000 };
  return null;
}

/** A BBCH code as the stage list holds it ("32", "09"): the v0.95 field's digits, with or without "BBCH" before them. */
export function codeBbch(v: string | null): string | null {
  const m = /^(?:BBCH)?\s*(\d{1,2})$/i.exec((v ?? "").trim());
  return m ? m[1].padStart(2, "0") : null;
}

/**
 * The register's start and end time of an event (issue 28, decision 0125): the times of its start and end date-times
 * (SSAAMMJJHHmm, "0000" being no time) on one day, the end after the start. An event over several days, or whose end
 * is not after its start, has no time in the register: refused (listed as a warning with its line).
 */
export function heuresPv(start: Valeur, end: Valeur): { debut: string | null; fin: string | null; refus: boolean } {
  const heure = (v: Valeur) => (typeof v === "string" && v.length > 10 ? v.slice(11, 16) : null);
  const [debut, fin] = [heure(start), heure(end)];
  if (!debut && !fin) return { debut: null, fin: null, refus: false };
  const jourFin = typeof end === "string" ? end.slice(0, 10) : null;
  const unJour = jourFin == null || jourFin === String(start).slice(0, 10);
  if (!unJour || (debut && fin && fin <= debut)) return { debut: null, fin: null, refus: true };
  return { debut, fin, refus: false };
}

/**
 * The plan of a read file: one farm (the DA TF party), its harvest years, the plots with their crop, area, boundary,
 * remarks, events, inputs and harvests. Every record is counted as taken or not taken with its reason.
 */
export function planifier(fichier: FichierDaplos): PlanImport {
  const comptes: Record<string, Compte> = {};
  const nonPris: NonPris[] = [];
  const avertissements: PlanImport["avertissements"] = [];
  const lu = (r: Enregistrement) => (comptes[r.type] ??= { lus: 0, pris: 0, nonPris: 0 }).lus++;
  const pris = (r: Enregistrement) => {
    comptes[r.type].pris++;
    if (parcelle && ["PS", "SC", "PE", "PH", "PA"].includes(r.type)) parcelle.enfants[r.type] = (parcelle.enfants[r.type] ?? 0) + 1;
  };
  const refuse = (r: Enregistrement, raison: RaisonNonPris, detail?: string) => {
    comptes[r.type].nonPris++;
    nonPris.push({ ligne: r.ligne, type: r.type, raison, ...(detail ? { detail } : {}) });
  };

  const exploitation: PlanImport["exploitation"] = { siret: null, libelle: "", codePostal: null, commune: null, pacage: null, ligne: null };
  const parcelles: PlanParcelle[] = [];
  const vus = new Set<string>();
  let parcelle: PlanParcelle | null = null;
  let intervention: PlanIntervention | null = null;
  let intrant: PlanIntrant | null = null;
  let contour: number[][] | null = null;
  let surfacePv: number | null = null;
  const ei = fichier.enregistrements.find((r) => r.type === "EI");

  const fermerContour = () => {
    if (!parcelle || !contour) return;
    if (contour.length >= 3) {
      const ring = [...contour];
      const [a, b] = [ring[0], ring[ring.length - 1]];
      if (a[0] !== b[0] || a[1] !== b[1]) ring.push(a);
      parcelle.geometrie ??= { type: "Polygon", coordinates: [ring] };
    } else avertissements.push({ ligne: parcelle.ligne, type: "SC", cle: "daplos.avertissement.contour-incomplet", params: { points: contour.length } });
    contour = null;
  };

  const memeParcelle = (r: Enregistrement) =>
    parcelle != null &&
    r.champs.parcel_order === parcelle.cle.ordre &&
    (txt(r.champs.parcel_ref) ?? "") === parcelle.cle.reference &&
    r.champs.harvest_year === parcelle.cle.annee;

  for (const r of fichier.enregistrements) {
    lu(r);
    const f = r.champs;
    // A text the sending software had already lost (U+FFFD in the file itself, not a decoding of ours) is imported as it
    // is, and said: the user may correct the name on its screen.
    for (const [champ, v] of Object.entries(f))
      if (typeof v === "string" && v.includes("\uFFFD"))
        avertissements.push({ ligne: r.ligne, type: r.type, cle: "daplos.avertissement.caractere-perdu", params: { champ, valeur: v } });
    switch (r.type) {
      case "EI":
      case "DE":
        pris(r);
        break;
      case "DA":
        if (f.party_qualifier === "TF") {
          exploitation.siret = txt(f.party_id) ?? txt(ei?.champs.sender_id ?? null);
          exploitation.libelle = [f.name1, f.name2].filter(Boolean).join(" ") || `Exploitation ${exploitation.siret ?? ""}`.trim();
          exploitation.codePostal = txt(f.postcode);
          exploitation.commune = txt(f.city);
          exploitation.pacage = txt(f.pacage);
          exploitation.ligne = r.ligne;
          pris(r);
        } else refuse(r, "sans-equivalent", String(f.party_qualifier ?? ""));
        break;
      case "DP": {
        fermerContour();
        intervention = intrant = null;
        const cle = { ordre: nb(f.parcel_order) ?? 0, reference: txt(f.parcel_ref) ?? "", annee: nb(f.harvest_year) ?? 0 };
        if (vus.has(texteCle(cle))) {
          parcelle = null;
          refuse(r, "doublon", texteCle(cle));
          break;
        }
        vus.add(texteCle(cle));
        const espece = txt(f.species);
        const idCulture = cultureAee(espece, f.sowing_period, f.destination);
        const remarques: string[] = [];
        if (espece && idCulture == null) {
          remarques.push(`Culture Daplos ${espece}${f.variety1 ? ` (variété ${f.variety1})` : ""} sans correspondance`);
          avertissements.push({ ligne: r.ligne, type: "DP", cle: "daplos.avertissement.espece-inconnue", params: { espece } });
        }
        const insee = txt(f.insee_commune);
        parcelle = {
          cle,
          ligne: r.ligne,
          libelle: txt(f.name) ?? `Parcelle ${cle.reference || cle.ordre}`,
          surface: null,
          codeInsee: insee && /^\d[\dAB]\d{3}$/.test(insee) ? insee : null,
          noIlotPac: txt(f.pac_islet),
          drainee: f.drained === "O",
          geometrie: null,
          espece,
          idCulture,
          remarques,
          interventions: [],
          enfants: {},
        };
        parcelles.push(parcelle);
        pris(r);
        break;
      }
      case "PS":
        if (!memeParcelle(r)) {
          refuse(r, "parent-absent");
          break;
        }
        fermerContour();
        if (f.area_type === "A17" || parcelle!.surface == null) parcelle!.surface = nb(f.area_ha);
        contour = [];
        pris(r);
        break;
      case "SC": {
        if (!memeParcelle(r) || contour == null) {
          refuse(r, "parent-absent");
          break;
        }
        const x = nb(f.x_or_lon);
        const y = nb(f.y_or_lat);
        const p = x != null && y != null ? versWgs84(f.srs, x, y) : null;
        if (!p) {
          refuse(r, "coordonnees-inconnues", String(f.srs ?? ""));
          break;
        }
        contour.push(p);
        pris(r);
        break;
      }
      case "PE":
      case "PH":
      case "PA": {
        if (!memeParcelle(r)) {
          refuse(r, "parent-absent");
          break;
        }
        parcelle!.remarques.push(remarque(r));
        pris(r);
        break;
      }
      case "PV": {
        fermerContour();
        intrant = null;
        if (!memeParcelle(r)) {
          intervention = null;
          refuse(r, "parent-absent");
          break;
        }
        const date = typeof f.start === "string" ? f.start.slice(0, 10) : null;
        if (!date) {
          intervention = null;
          refuse(r, "date-absente");
          break;
        }
        const guid = txt(f.event_guid) ?? `${texteCle(parcelle!.cle)}#${r.ligne}`;
        if (parcelle!.interventions.some((i) => i.guid === guid)) {
          intervention = null;
          refuse(r, "doublon", guid);
          break;
        }
        surfacePv = nb(f.area_ha);
        const heures = heuresPv(f.start, f.end);
        if (heures.refus)
          avertissements.push({
            ligne: r.ligne,
            type: "PV",
            cle: "daplos.avertissement.heures-non-prises",
            params: { debut: String(f.start), fin: String(f.end ?? "") },
          });
        // An external operator (ZHN) is named with his Certiphyto licence, never his SIRET: the register's contractor is not taken.
        if (f.operator_type === "ZHN")
          avertissements.push({
            ligne: r.ligne,
            type: "PV",
            cle: "daplos.avertissement.prestataire-sans-siret",
            params: { nom: txt(f.operator_name) ?? "", agrement: txt(f.operator_licence) ?? "" },
          });
        const taux = surfacePv != null && parcelle!.surface ? Math.min(1, surfacePv / parcelle!.surface) : 1;
        intervention = {
          guid,
          ligne: r.ligne,
          suppression: f.action === "2",
          date,
          typeEvenement: txt(f.event_type),
          typeTravail: txt(f.work_type),
          idTypeAction: AUTRE_OPERATION,
          libelleOperation: txt(f.work_type_text) ?? txt(f.label) ?? "Intervention Daplos",
          intitule: txt(f.label),
          stade: txt(f.bbch_stage_v095) ?? txt(f.crop_stage_text),
          stadeBbch: codeBbch(txt(f.bbch_stage_v095)),
          stadeTexte: txt(f.crop_stage_text),
          heureDebut: heures.debut,
          heureFin: heures.fin,
          realisee: f.planned_or_done !== "ZK1",
          prevue: f.planned_or_done === "ZK1",
          tauxSurface: Number(taux.toFixed(4)) || 1,
          intrants: [],
          recoltes: [],
        };
        parcelle!.interventions.push(intervention);
        pris(r);
        break;
      }
      case "VI": {
        if (!intervention || f.event_guid !== intervention.guid || !memeParcelle(r)) {
          intrant = null;
          refuse(r, "parent-absent");
          break;
        }
        const famille = txt(f.input_family);
        const { genre, idCategorie } = (famille && FAMILLES[famille]) || AUTRE_INTRANT;
        const surface = surfacePv ?? parcelle!.surface;
        const parHa = unite(genre, txt(f.qty_per_ha_unit), true);
        const total = unite(genre, txt(f.total_unit), false);
        let quantite: number | null = null;
        let u = parHa?.unite ?? total?.unite ?? (genre === "eau" ? "mm" : genre === "fertilisant" || genre === "semence" ? "kg/ha" : "l/ha");
        if (parHa && nb(f.qty_per_ha) != null) quantite = nb(f.qty_per_ha)! * parHa.facteur;
        else if (total && nb(f.total_qty) != null && surface) {
          quantite = (nb(f.total_qty)! * total.facteur) / surface;
          u = total.unite;
        }
        if (quantite == null)
          avertissements.push({ ligne: r.ligne, type: "VI", cle: "daplos.avertissement.quantite-absente", params: { libelle: txt(f.label) ?? "" } });
        const amm = txt(f.amm);
        const gnis = txt(f.gnis);
        intrant = {
          ligne: r.ligne,
          famille,
          genre,
          idCategorie,
          libelle: txt(f.label) ?? (famille ? `Intrant ${famille}` : "Intrant Daplos"),
          amm: amm && /^\d{7}$/.test(amm) ? amm : null,
          gnis: gnis && gnis !== "000" ? gnis : null,
          quantite: quantite == null ? null : Number(quantite.toFixed(4)),
          unite: u,
          composition: {},
          lignesComposition: [],
        };
        intervention.intrants.push(intrant);
        pris(r);
        break;
      }
      case "IC": {
        if (!intrant || f.event_guid !== intervention?.guid || intrant.genre !== "fertilisant") {
          refuse(r, intrant && intrant.genre !== "fertilisant" ? "sans-equivalent" : "parent-absent");
          break;
        }
        const el = ELEMENTS_IC[String(f.component ?? "") as keyof typeof ELEMENTS_IC];
        const v = nb(f.content);
        if (!el || v == null) {
          refuse(r, "sans-equivalent", String(f.component ?? ""));
          break;
        }
        intrant.composition[el] = Number((v * 100).toFixed(3));
        intrant.lignesComposition.push(r.ligne);
        pris(r);
        break;
      }
      case "VR": {
        intrant = null;
        if (!intervention || f.event_guid !== intervention.guid || !memeParcelle(r)) {
          refuse(r, "parent-absent");
          break;
        }
        const surface = surfacePv ?? parcelle!.surface;
        const qUnit = String(f.qty_unit ?? "").toUpperCase();
        const total = nb(f.qty);
        const rendementCalcule = nb(f.yield_calc);
        const rendement =
          rendementCalcule != null
            ? rendementCalcule
            : total != null && surface
              ? (qUnit === "KGM" ? total / 1000 : qUnit === "QTL" ? total / 10 : total) / surface
              : null;
        const recolte: PlanRecolte = {
          ligne: r.ligne,
          typeProduit: txt(f.produce_type),
          espece: txt(f.produce_species),
          libelle: txt(f.label),
          rendement: rendement == null ? null : Number(rendement.toFixed(3)),
          unite: "t/ha",
        };
        intervention.recoltes.push(recolte);
        pris(r);
        break;
      }
      default:
        // DT, PC, CC, HA, VC, VB, IL, IA, RL, LC, VH: no place in Sillon's model (decision 0094), listed.
        refuse(r, "sans-equivalent");
    }
  }
  fermerContour();
  for (const p of parcelles)
    for (const i of p.interventions)
      i.idTypeAction = typeAction(
        i.typeTravail,
        i.typeEvenement,
        i.intrants.map((x) => x.genre),
      );
  if (!exploitation.siret) exploitation.siret = txt(ei?.champs.sender_id ?? null);
  if (!exploitation.libelle) exploitation.libelle = `Exploitation ${exploitation.siret ?? ""}`.trim();
  const annees = [...new Set(parcelles.map((p) => p.cle.annee))].sort();
  return { version: fichier.version, encodage: fichier.encodage, exploitation, annees, parcelles, comptes, nonPris, avertissements };
}

function remarque(r: Enregistrement): string {
  const f = r.champs;
  if (r.type === "PE") return `Engagement ${[f.commitment_code, f.other_contract_label, f.contract_no].filter(Boolean).join(" ")}`.trim();
  if (r.type === "PH") return `Précédent ${f.previous_order ?? ""} : ${[f.species, f.variety1].filter(Boolean).join(" ") || "?"}`;
  return `Analyse de sol ${[f.analysis_ticket, f.analysed_on].filter(Boolean).join(" du ")}`.trim();
}

const nom = (s: string) => s.normalize("NFC").trim().replace(/\s+/g, " ").toLocaleLowerCase("fr");
const ilot = (s: string | null | undefined) => s?.trim() || null;

/**
 * Plots of the file without key matched to the campaign's plots not taken yet (decision 0138): the one plot of the same
 * name (spaces and case aside) whose PAC islet is the file's or blank on either side — when several plots of the file
 * bear that name, the one of the same name and islet; else the one plot of the file's PAC islet when no other plot of
 * the file has that islet. Ambiguity matches nothing (the plot is created, `ambigues` names it).
 */
export function apparierParcelles(
  fichier: { cle: string; libelle: string; noIlotPac: string | null }[],
  campagne: { id: number; libelle: string; noIlotPac: string | null }[],
): { trouvees: Map<string, number>; ambigues: string[] } {
  const trouvees = new Map<string, number>();
  const ambigues: string[] = [];
  const libres = new Set(campagne.map((c) => c.id));
  const compatibles = (a: string | null, b: string | null) => a == null || b == null || a === b;
  const compte = new Map<string, number>();
  const plus = (k: string) => compte.set(k, (compte.get(k) ?? 0) + 1);
  for (const f of fichier) {
    plus(`n|${nom(f.libelle)}`);
    plus(`ni|${nom(f.libelle)}|${ilot(f.noIlotPac) ?? ""}`);
    if (ilot(f.noIlotPac)) plus(`i|${ilot(f.noIlotPac)}`);
  }
  const combien = (k: string) => compte.get(k) ?? 0;
  const prendre = (cle: string, id: number) => {
    trouvees.set(cle, id);
    libres.delete(id);
  };
  const restent: typeof fichier = [];
  for (const f of fichier) {
    const i = ilot(f.noIlotPac);
    let m = campagne.filter((c) => libres.has(c.id) && nom(c.libelle) === nom(f.libelle) && compatibles(ilot(c.noIlotPac), i));
    if (!m.length) {
      restent.push(f);
      continue;
    }
    if (combien(`n|${nom(f.libelle)}`) > 1 || m.length > 1) m = i && combien(`ni|${nom(f.libelle)}|${i}`) === 1 ? m.filter((c) => ilot(c.noIlotPac) === i) : [];
    if (m.length === 1) prendre(f.cle, m[0].id);
    else ambigues.push(f.cle);
  }
  for (const f of restent) {
    const i = ilot(f.noIlotPac);
    const m = i ? campagne.filter((c) => libres.has(c.id) && ilot(c.noIlotPac) === i) : [];
    if (!m.length) continue;
    if (m.length === 1 && combien(`i|${i}`) === 1) prendre(f.cle, m[0].id);
    else ambigues.push(f.cle);
  }
  return { trouvees, ambigues };
}
