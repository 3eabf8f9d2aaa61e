import { z } from "zod";
import type { PlotGeometry } from "./geometrie";
import { dateString, optional, rowId } from "./validation";

/**
 * The plant-protection register (issue 28; decisions 0104, 0105): one line per treated product per plot, its
 * columns in the order of the EU Annex, and the checks run on every line. Pure: the server loads the facts
 * (server/registre/repo.ts), this module judges them.
 */

/** The text the export follows, stated in every file (decision 0104: annex I's own column names are not verified). */
export const REFERENTIEL_REGISTRE =
  "Règlement d'exécution (UE) 2023/564, annexe ; arrêté du 24 décembre 2025 (JORF 31/12/2025), annexe I — colonnes Sillon, version 1 (noms de l'annexe I non vérifiés, décision 0104)";
export const VERSION_REGISTRE = 1;

export type LigneRegistre = {
  idIntervention: number;
  idIntrant: number;
  idParcelle: number;
  parcelle: string;
  siret: string | null;
  produit: string;
  amm: string | null;
  date: string;
  heureDebut: string | null;
  heureFin: string | null;
  dose: number | null;
  unite: string | null;
  /** Hectares: the plot's area × the treated share. */
  surfaceTraitee: number | null;
  culture: string | null;
  codeEppo: string | null;
  stadeBbch: string | null;
  stade: string | null;
  ilotPac: string | null;
  latitude: number | null;
  longitude: number | null;
  codeInsee: string | null;
  /** Organic production (the plot's type of management): null when not recorded. */
  biologique: boolean | null;
  siretPrestataire: string | null;
  rentreeAnticipee: boolean | null;
  lotSemences: string | null;
  cibles: string | null;
};

/**
 * The columns, in the order of the EU Annex (product, time, dose, location, size of the treated area, crop), after
 * the farm's SIRET, then the French additions (decision 0104). `nom` is the CSV header.
 */
export const COLONNES_REGISTRE: ReadonlyArray<{ cle: keyof LigneRegistre; nom: string }> = [
  { cle: "siret", nom: "SIRET exploitation" },
  { cle: "produit", nom: "Nom commercial du produit" },
  { cle: "amm", nom: "Numéro AMM" },
  { cle: "date", nom: "Date d'utilisation" },
  { cle: "heureDebut", nom: "Heure de début" },
  { cle: "heureFin", nom: "Heure de fin" },
  { cle: "dose", nom: "Dose appliquée" },
  { cle: "unite", nom: "Unité de dose" },
  { cle: "ilotPac", nom: "Îlot PAC" },
  { cle: "latitude", nom: "Latitude (WGS84)" },
  { cle: "longitude", nom: "Longitude (WGS84)" },
  { cle: "codeInsee", nom: "Commune (INSEE)" },
  { cle: "parcelle", nom: "Parcelle" },
  { cle: "surfaceTraitee", nom: "Surface traitée (ha)" },
  { cle: "culture", nom: "Culture" },
  { cle: "codeEppo", nom: "Code OEPP de la culture" },
  { cle: "stadeBbch", nom: "Stade BBCH" },
  { cle: "stade", nom: "Stade (texte)" },
  { cle: "biologique", nom: "Production biologique" },
  { cle: "siretPrestataire", nom: "SIRET du prestataire" },
  { cle: "rentreeAnticipee", nom: "Rentrée anticipée" },
  { cle: "lotSemences", nom: "Lot de semences traitées" },
  { cle: "cibles", nom: "Cibles" },
];

/** The fields every source agrees are mandatory for the treatment of a surface (decision 0104). */
export const CHAMPS_OBLIGATOIRES = [
  "siret",
  "produit",
  "amm",
  "date",
  "dose",
  "unite",
  "surfaceTraitee",
  "culture",
  "codeEppo",
  "localisation",
  "biologique",
] as const;
export type ChampObligatoire = (typeof CHAMPS_OBLIGATOIRES)[number];

/** An authorised use of the product for the line's crop (E-Phy usages, matched through culture_ift). */
export type UsageAutorise = {
  libelle: string;
  dose: number | null;
  unite: string | null;
  nombreMaxApplication: number | null;
  delaiAvantRecolte: number | null;
  /** Grace period of a withdrawn product for this use (E-Phy uses file; art. 46 of 1107/2009): last day of sale and distribution… */
  dateFinDistribution?: string | null;
  /** …and last day of use of the existing stocks. */
  dateFinUtilisation?: string | null;
};

/** What the checks need beside the line, loaded by the server from the E-Phy catalogue and the plot's harvests. */
export type FaitsLigne = {
  /** The product's withdrawal date in E-Phy, if any. */
  dateRetrait: string | null;
  /** Whether E-Phy's uses of this product were imported (else the use checks cannot judge and stay silent). */
  usagesConnus: boolean;
  /** The product's authorised uses for the line's crop. */
  usages: UsageAutorise[];
  /** Dates of the harvests recorded on the plot in the campaign. */
  recoltes: string[];
};

export type RegleRegistre =
  "champ-manquant" | "produit-retire" | "usage-retire" | "usage-non-autorise" | "dose-depassee" | "applications-depassees" | "delai-avant-recolte";

export type Constat = {
  regle: RegleRegistre;
  idIntervention: number;
  idIntrant: number;
  /** The missing field, for champ-manquant. */
  champ?: ChampObligatoire;
  /** The figures the message shows (date, dose, limit…). */
  valeurs: Record<string, string | number>;
  /** Where the rule comes from. */
  source: string;
};

export const SOURCES_REGLES: Record<RegleRegistre, string> = {
  "champ-manquant": "Règlement (UE) 2023/564, art. 1 et annexe ; arrêté du 24 décembre 2025, annexe I (décision 0104)",
  "produit-retire":
    "Règlement (CE) 1107/2009, art. 46 (délai de grâce après un retrait : 6 mois au plus pour la vente et la distribution, 1 an de plus au plus pour l'utilisation des stocks) ; E-Phy (ANSES) : date de retrait du produit, date de fin d'utilisation de l'usage (décision 0117)",
  "usage-retire":
    "E-Phy (ANSES), fichier des usages (usages_des_produits_autorises) : colonnes « date fin distribution » et « date fin utilisation » de l'usage, le produit restant autorisé ; règlement (CE) 1107/2009, art. 46 (délai de grâce) et art. 55 (décision 0132)",
  "usage-non-autorise": "E-Phy (ANSES), usages autorisés du produit ; règlement (CE) 1107/2009, art. 55",
  "dose-depassee": "E-Phy (ANSES), dose retenue de l'usage",
  "applications-depassees": "E-Phy (ANSES), nombre maximal d'applications de l'usage",
  "delai-avant-recolte": "E-Phy (ANSES), délai avant récolte de l'usage",
};

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** A dose unit compared without case nor spaces ("L/ha" = "l/ha"). */
export const normaliserUnite = (u: string | null | undefined) => (u ?? "").replace(/\s/g, "").toLowerCase();

/** A label compared without case, accents nor punctuation (a crop of E-Phy's uses against the IFT list's crop). */
export const normaliserLibelle = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");

/** The point the register locates a plot without PAC block by: a Point's own, a Polygon's area-weighted centroid. */
export function centroide(geometry: PlotGeometry | null): { latitude: number; longitude: number } | null {
  if (!geometry) return null;
  if (geometry.type === "Point") {
    const [longitude, latitude] = geometry.coordinates;
    return Number.isFinite(latitude) && Number.isFinite(longitude) ? { latitude, longitude } : null;
  }
  const ring = geometry.coordinates[0];
  if (!ring || ring.length < 3) return null;
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const [x0, y0] = ring[i];
    const [x1, y1] = ring[i + 1];
    const f = x0 * y1 - x1 * y0;
    a += f;
    cx += (x0 + x1) * f;
    cy += (y0 + y1) * f;
  }
  if (a === 0) {
    const n = ring.length;
    return { longitude: ring.reduce((s, p) => s + p[0], 0) / n, latitude: ring.reduce((s, p) => s + p[1], 0) / n };
  }
  return { longitude: cx / (3 * a), latitude: cy / (3 * a) };
}

const round = (n: number, digits: number) => Number(n.toFixed(digits));

/** The mandatory fields a line lacks. The location is a PAC block or coordinates (arrêté, via DRAAF; decision 0104). */
export function champsManquants(l: LigneRegistre): ChampObligatoire[] {
  const missing: ChampObligatoire[] = [];
  const empty = (v: unknown) => v == null || v === "";
  for (const champ of CHAMPS_OBLIGATOIRES) {
    if (champ === "localisation") {
      if (empty(l.ilotPac) && (l.latitude == null || l.longitude == null)) missing.push(champ);
    } else if (empty(l[champ])) missing.push(champ);
  }
  return missing;
}

/**
 * Whether a product was authorised on the day it was used (art. 46 of Regulation (EC) No 1107/2009; decision 0117):
 * on or before its withdrawal date it was; withdrawn, it may still be used until the end-of-use date E-Phy gives the
 * use that fits the crop (the grace period). Several uses fit (several targets): the latest end of use counts, the
 * register not saying which was meant. The finding's values say which date was passed: `motif` "fin-utilisation"
 * (after the use's end of use) or "retrait" (after the withdrawal, no end-of-use date known for the crop). Null:
 * authorised, or within the grace period.
 */
export function produitRetire(date: string, f: Pick<FaitsLigne, "dateRetrait" | "usages">): Constat["valeurs"] | null {
  if (!f.dateRetrait || date <= f.dateRetrait) return null;
  const fins = f.usages.map((u) => u.dateFinUtilisation).filter((d): d is string => d != null && d !== "");
  if (fins.length === 0) return { motif: "retrait", date, dateRetrait: f.dateRetrait };
  const finUtilisation = fins.sort().at(-1)!;
  if (date <= finUtilisation) return null;
  return { motif: "fin-utilisation", date, dateRetrait: f.dateRetrait, dateFinUtilisation: finUtilisation };
}

/**
 * Whether the use of a still-authorised product on the line's crop was withdrawn on the day it was used (decision
 * 0132): E-Phy's file of uses gives a withdrawn use its end of distribution and its end of use (the grace period of
 * art. 46 of Regulation (EC) No 1107/2009, as decision 0117 reads them for a product). The finding needs every use
 * that fits the crop to have an end of use, and the date after the latest of them (a use without one is still valid;
 * the register does not say which target was meant). A withdrawn product is judged by `produitRetire` instead: its
 * finding takes precedence, and this returns null for a date after the product's withdrawal.
 */
export function usageRetire(date: string, f: Pick<FaitsLigne, "dateRetrait" | "usages">): Constat["valeurs"] | null {
  if (f.dateRetrait && date > f.dateRetrait) return null;
  if (f.usages.length === 0) return null;
  const fins = f.usages.map((u) => u.dateFinUtilisation);
  if (fins.some((d) => d == null || d === "")) return null;
  const latest = [...f.usages].sort((a, b) => a.dateFinUtilisation!.localeCompare(b.dateFinUtilisation!)).at(-1)!;
  if (date <= latest.dateFinUtilisation!) return null;
  return {
    date,
    usage: latest.libelle,
    dateFinUtilisation: latest.dateFinUtilisation!,
    ...(latest.dateFinDistribution ? { dateFinDistribution: latest.dateFinDistribution } : {}),
  };
}

/**
 * Every check of every line (issue 28). Where several uses of the product fit the crop (several targets), a line is
 * judged against the most permissive of them (highest dose, most applications, shortest pre-harvest interval): the
 * register does not say which target's use was meant, and a finding must be certain.
 */
export function controlerRegistre(lignes: readonly LigneRegistre[], faits: ReadonlyMap<number, FaitsLigne>): Constat[] {
  const constats: Constat[] = [];
  const add = (l: LigneRegistre, regle: RegleRegistre, valeurs: Constat["valeurs"], champ?: ChampObligatoire) =>
    constats.push({ regle, idIntervention: l.idIntervention, idIntrant: l.idIntrant, ...(champ ? { champ } : {}), valeurs, source: SOURCES_REGLES[regle] });

  // Applications of one product on one plot, in date order: the n-th one is counted against the use's maximum.
  const rang = new Map<number, number>();
  const groups = new Map<string, LigneRegistre[]>();
  for (const l of lignes) {
    const key = `${l.idParcelle}|${l.amm ?? l.produit}`;
    groups.set(key, [...(groups.get(key) ?? []), l]);
  }
  for (const list of groups.values()) {
    [...list].sort((a, b) => a.date.localeCompare(b.date) || a.idIntervention - b.idIntervention).forEach((l, i) => rang.set(l.idIntrant, i + 1));
  }

  for (const l of lignes) {
    for (const champ of champsManquants(l)) add(l, "champ-manquant", {}, champ);
    const f = faits.get(l.idIntrant);
    if (!f) continue;
    const retrait = produitRetire(l.date, f);
    if (retrait) add(l, "produit-retire", retrait);
    if (!f.usagesConnus || l.culture == null) continue;
    const usage = usageRetire(l.date, f);
    if (usage) add(l, "usage-retire", usage);
    if (f.usages.length === 0) {
      add(l, "usage-non-autorise", { culture: l.culture });
      continue;
    }
    const sameUnit = f.usages.filter((u) => u.dose != null && l.unite != null && normaliserUnite(u.unite) === normaliserUnite(l.unite));
    if (l.dose != null && sameUnit.length > 0) {
      const max = Math.max(...sameUnit.map((u) => u.dose as number));
      if (l.dose > max + 1e-9) add(l, "dose-depassee", { dose: l.dose, doseMax: max, unite: l.unite ?? "" });
    }
    const maxApps = f.usages.map((u) => u.nombreMaxApplication).filter((n): n is number => n != null && n > 0);
    const n = rang.get(l.idIntrant) ?? 1;
    if (maxApps.length === f.usages.length && n > Math.max(...maxApps)) add(l, "applications-depassees", { rang: n, maximum: Math.max(...maxApps) });
    const dars = f.usages.map((u) => u.delaiAvantRecolte).filter((n): n is number => n != null);
    if (dars.length === f.usages.length) {
      const dar = Math.min(...dars);
      const recolte = f.recoltes.filter((d) => d >= l.date).sort()[0];
      if (recolte && daysBetween(l.date, recolte) < dar) add(l, "delai-avant-recolte", { recolte, jours: daysBetween(l.date, recolte), delai: dar });
    }
  }
  return constats;
}

/**
 * The last day the register of treatments made on `date` must be in electronic form (arrêté of 24 December 2025,
 * art. 4): none before 1 January 2027 (those uses may be left unconverted), before 31 January of the next year until
 * 2029, 30 days after the use from 2030.
 */
export function echeanceRegistre(date: string): string | null {
  const year = Number(date.slice(0, 4));
  if (year < 2027) return null;
  if (year < 2030) return `${year + 1}-01-30`; // "avant le 31 janvier" of the following year
  return new Date(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) + 30 * DAY_MS).toISOString().slice(0, 10);
}

/** A cell of the CSV: dot decimals (machine-readable), booleans oui/non, quoted when it holds ; " or a line break. */
export function celluleCsv(v: string | number | boolean | null | undefined): string {
  if (v == null) return "";
  const s = typeof v === "boolean" ? (v ? "oui" : "non") : typeof v === "number" ? String(round(v, 6)) : v;
  return /[;"\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The register as CSV text: UTF-8 (the caller adds the BOM), semicolons, the columns' names, the reference text in the last column. */
export function registreCsv(lignes: readonly LigneRegistre[]): string {
  const header = [...COLONNES_REGISTRE.map((c) => c.nom), "Référentiel"];
  const rows = lignes.map((l) => [...COLONNES_REGISTRE.map((c) => celluleCsv(l[c.cle])), celluleCsv(REFERENTIEL_REGISTRE)].join(";"));
  return [header.map(celluleCsv).join(";"), ...rows].join("\r\n") + "\r\n";
}

/**
 * A register asked for (the screen, the exports, later the API): one farm through a folder, for one campaign or for
 * a date range (both ends given, the start not after the end).
 */
export const RegistreDemandeSchema = z
  .object({
    idDossier: rowId(),
    idExploitation: rowId(),
    idCampagne: optional(rowId()),
    du: optional(dateString()),
    au: optional(dateString()),
  })
  .superRefine((v, ctx) => {
    if (v.idCampagne == null && (v.du == null || v.au == null))
      ctx.addIssue({ code: "custom", path: [v.du == null ? "du" : "au"], message: "warning.required" });
    if (v.du != null && v.au != null && v.du > v.au) ctx.addIssue({ code: "custom", path: ["au"], message: "warning.invalid" });
  });
export type RegistreDemande = z.infer<typeof RegistreDemandeSchema>;

/** A folder's registers for a date range (the folder view and its archive). */
export const RegistreDossierSchema = z
  .object({ idDossier: rowId(), du: dateString(), au: dateString() })
  .refine((v) => v.du <= v.au, { path: ["au"], message: "warning.invalid" });

export type StatutRegistre = "complet" | "champs-manquants" | "constats" | "vide";

/** A farm's register status for the folder view: no line, findings on the E-Phy rules, missing fields only, or complete. */
export function statutRegistre(nbLignes: number, constats: readonly Constat[]): StatutRegistre {
  if (nbLignes === 0) return "vide";
  if (constats.some((c) => c.regle !== "champ-manquant")) return "constats";
  if (constats.length > 0) return "champs-manquants";
  return "complet";
}
