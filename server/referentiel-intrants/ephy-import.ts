import { decodeText, ImpossibleDate, normaliseHeader, parseCsv, parseDate, parseDecimal } from "./csv";

/**
 * The official files and their columns (decision 0029):
 * - E-Phy open data of ANSES (data.gouv.fr, "Données ouvertes du catalogue E-Phy", Licence Ouverte), zip
 *   `decisionamm-intrant-format-csv-YYYYMMDD-{utf8,windows-1252}.zip`: `produits_*.csv` (one row per product,
 *   authorised or withdrawn), `substance_active_*.csv`, `usages_des_produits_autorises_*.csv`; the other files
 *   (fertilisers, risk phrases, parallel-trade permits…) are not read.
 * - The ministry's IFT reference doses ("Doses de référence – IFT", one row per harvest year, AMM, crop and
 *   target): its column names vary between releases, so each field accepts the names listed in IFT_COLUMNS.
 * A file is recognised by its header, not its name. A file named like one of them whose header lacks a
 * required column is refused with the missing columns named.
 */

export type FileKind = "produits" | "usages" | "substances" | "ift";

export type CompositionEphy = { libelle: string; substance: string | null; quantite: number | null; unite: string | null };

export type ProduitEphy = {
  amm: string;
  idProduit: number;
  typeProduit: string; // E-Phy 'type produit': PPP, ADJUVANT, MFSC…
  nom: string;
  secondsNoms: string | null;
  titulaire: string | null;
  fonctions: string | null;
  formulation: string | null;
  etat: string | null;
  dateRetrait: string | null;
  biocontrole: boolean;
  substances: CompositionEphy[];
};

export type UsageEphy = {
  amm: string;
  identifiant: string | null;
  libelle: string;
  culture: string | null;
  traitement: string | null;
  cible: string | null;
  dose: number | null;
  unite: string | null;
  etat: string | null;
  delaiAvantRecolte: number | null;
  nombreMaxApplication: number | null;
  dateDecision: string | null;
  /** Grace period of a withdrawn product, use by use (art. 46 of 1107/2009; decision 0117): last day of sale and distribution. */
  dateFinDistribution: string | null;
  /** Last day of use of the existing stocks. */
  dateFinUtilisation: string | null;
};

export type SubstanceEphy = { nom: string; numeroCas: string | null; etat: string | null; variantes: string | null };

export type DoseIft = {
  anneeRecolte: number;
  amm: string;
  biocontrole: boolean;
  codeCulture: string | null;
  culture: string;
  codeCible: string | null;
  cible: string | null;
  segment: string | null;
  dose: number | null;
  unite: string | null;
};

/** Accepted header names of each field (compared after normaliseHeader); the first name is the official one. */
const PRODUIT_COLUMNS = {
  typeProduit: ["type produit"],
  amm: ["numero AMM"],
  nom: ["nom produit"],
  secondsNoms: ["seconds noms commerciaux"],
  titulaire: ["titulaire"],
  mentions: ["mentions autorisees"],
  substances: ["Substances actives"],
  fonctions: ["fonctions"],
  formulation: ["formulations"],
  etat: ["Etat d’autorisation"],
  dateRetrait: ["Date de retrait du produit"],
} as const;
const PRODUIT_REQUIRED = ["amm", "nom", "substances", "etat"] as const;

const USAGE_COLUMNS = {
  amm: ["numero AMM"],
  // The published files put the use's code (15105912) under 'identifiant usage lib court' and its label
  // (Blé*Désherbage) under 'identifiant usage'; each row is read by content, the label being the one with '*'.
  code: ["identifiant usage lib court"],
  libelle: ["identifiant usage"],
  dateDecision: ["date decision"],
  etat: ["etat usage"],
  dose: ["dose retenue"],
  unite: ["dose retenue unite"],
  delaiAvantRecolte: ["delai avant recolte jour"],
  nombreMaxApplication: ["nombre max d'application"],
  // Optional: the grace period the withdrawal decision grants, per use (decision 0117).
  dateFinDistribution: ["date fin distribution", "date de fin de distribution"],
  dateFinUtilisation: ["date fin utilisation", "date de fin d'utilisation"],
} as const;
const USAGE_REQUIRED = ["amm", "code", "etat", "dose", "unite"] as const;

const SUBSTANCE_COLUMNS = {
  nom: ["Nom substance active"],
  numeroCas: ["Numero CAS"],
  etat: ["Etat d’autorisation"],
  variantes: ["Variant"],
} as const;
const SUBSTANCE_REQUIRED = ["nom"] as const;

const IFT_COLUMNS = {
  anneeRecolte: ["campagneIdMetier", "campagne", "annee campagne", "millesime", "annee"],
  amm: ["numeroAmm", "numero AMM", "numeroAmmIdMetier", "code AMM", "AMM"],
  biocontrole: ["biocontrole"],
  codeCulture: ["cultureIdMetier", "code culture", "id culture"],
  culture: ["cultureLibelle", "culture", "libelle culture"],
  codeCible: ["cibleIdMetier", "code cible", "id cible"],
  cible: ["cibleLibelle", "cible", "libelle cible"],
  segment: ["segmentIdMetier", "code segment", "segment"],
  dose: ["dose", "dose reference", "dose de reference"],
  codeUnite: ["uniteIdMetier", "code unite"],
  unite: ["uniteLibelle", "unite", "libelle unite"],
} as const;
const IFT_REQUIRED = ["anneeRecolte", "amm", "culture", "dose", "unite"] as const;

type Columns = Record<string, readonly string[]>;
type Index<C extends Columns> = Partial<Record<keyof C, number>>;

function indexColumns<C extends Columns>(header: string[], columns: C): Index<C> {
  const positions = new Map<string, number>();
  header.forEach((h, i) => {
    const key = normaliseHeader(h);
    if (key && !positions.has(key)) positions.set(key, i);
  });
  const out: Index<C> = {};
  for (const [field, names] of Object.entries(columns)) {
    for (const name of names) {
      const p = positions.get(normaliseHeader(name));
      if (p !== undefined) {
        out[field as keyof C] = p;
        break;
      }
    }
  }
  return out;
}

const missing = <C extends Columns>(index: Index<C>, columns: C, required: readonly (keyof C)[]) =>
  required.filter((f) => index[f] === undefined).map((f) => columns[f][0]);

/** The kind a file's name suggests (used only to refuse a known file of the wrong shape). */
export function kindFromName(name: string): FileKind | null {
  const base = name.split(/[\\/]/).pop()!.toLowerCase();
  if (!base.endsWith(".csv")) return null;
  if (base.startsWith("produits_") && !base.includes("phrases") && !base.includes("classe") && !base.includes("usages") && !base.includes("condition"))
    return "produits";
  if (base.startsWith("usages_des_produits_autorises")) return "usages";
  if (base.startsWith("substance_active")) return "substances";
  if (/(dose|ift)/.test(base)) return "ift";
  return null;
}

/** The kind of a file from its header, or null when the header matches none. */
export function kindFromHeader(header: string[]): FileKind | null {
  const keys = new Set(header.map(normaliseHeader));
  if (keys.has("nomsubstanceactive")) return "substances";
  if (keys.has("numeroamm") && keys.has("identifiantusagelibcourt") && keys.has("doseretenue")) return "usages";
  if (keys.has("numeroamm") && keys.has("nomproduit") && keys.has("substancesactives") && !keys.has("identifiantusagelibcourt")) return "produits";
  const ift = indexColumns(header, IFT_COLUMNS);
  if (missing(ift, IFT_COLUMNS, IFT_REQUIRED).length === 0) return "ift";
  return null;
}

export class ShapeError extends Error {}

const COLUMNS: Record<FileKind, [Columns, readonly string[]]> = {
  produits: [PRODUIT_COLUMNS, PRODUIT_REQUIRED],
  usages: [USAGE_COLUMNS, USAGE_REQUIRED],
  substances: [SUBSTANCE_COLUMNS, SUBSTANCE_REQUIRED],
  ift: [IFT_COLUMNS, IFT_REQUIRED],
};

/** A parsed file; `rejets` are the lines left out (unreadable AMM, empty name…), each with its reason. */
export type ParsedFile = { name: string; encoding: string; rejets: string[] } & (
  | { kind: "produits"; rows: ProduitEphy[] }
  | { kind: "usages"; rows: UsageEphy[] }
  | { kind: "substances"; rows: SubstanceEphy[] }
  | { kind: "ift"; rows: DoseIft[] }
  | { kind: null; rows: [] }
);

class RowError extends Error {}

/** Lines that cannot be read are left out and reported, unless there are so many that the file is not what it seems. */
const MAX_REJETS = (lines: number) => Math.max(10, Math.floor(lines * 0.05));

const text = (row: string[], i: number | undefined): string | null => {
  if (i === undefined) return null;
  const v = (row[i] ?? "").trim();
  return v === "" ? null : v;
};

/**
 * Splits E-Phy's 'Substances actives' ("glyphosate sel d'isopropylamine (Glyphosate) 360.0 g/L | …"): the French
 * name of the form used, the substance's name in brackets (the key of substance_active), the content and its unit.
 */
export function parseSubstances(value: string | null): CompositionEphy[] {
  if (!value) return [];
  return value
    .split(" | ")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      let rest = part;
      let quantite: number | null = null;
      let unite: string | null = null;
      const q = /\s(\d+(?:[.,]\d+)?)\s*([^\s()][^()]*)?$/.exec(rest);
      if (q) {
        quantite = parseDecimal(q[1]);
        unite = q[2]?.trim() || null;
        rest = rest.slice(0, q.index).trim();
      }
      let substance: string | null = null;
      if (rest.endsWith(")")) {
        // The last balanced bracket group is the substance's name.
        let depth = 0;
        for (let i = rest.length - 1; i >= 0; i--) {
          if (rest[i] === ")") depth++;
          else if (rest[i] === "(" && --depth === 0) {
            substance = rest.slice(i + 1, -1).trim() || null;
            rest = rest.slice(0, i).trim();
            break;
          }
        }
      }
      return { libelle: rest || substance || part, substance, quantite, unite };
    });
}

/** Crop, treatment and target of an E-Phy use label "Blé*Trt Part.Aer.*Septoriose(s)". */
export function splitUsage(libelle: string): { culture: string | null; traitement: string | null; cible: string | null } {
  const [culture, traitement, ...cible] = libelle.split("*").map((s) => s.trim());
  return { culture: culture || null, traitement: traitement || null, cible: cible.join("*") || null };
}

const truthy = (v: string | null) => v != null && /^(1|true|oui|o|vrai|x)$/i.test(v);

/** Reads one file: its kind from the header (or refuses a known name of the wrong shape) and its rows. */
export function parseFile(name: string, bytes: Uint8Array): ParsedFile {
  const { text: content, encoding } = decodeText(bytes);
  const rows = parseCsv(content);
  const header = rows[0] ?? [];
  const kind = kindFromHeader(header);
  const expected = kindFromName(name);
  if (!kind) {
    if (expected) {
      const [columns, required] = COLUMNS[expected];
      const lacking = missing(indexColumns(header, columns), columns, required);
      throw new ShapeError(`${name}: ce fichier n'a pas la forme attendue (${expected}) ; colonnes manquantes : ${lacking.join(", ") || "en-tête illisible"}`);
    }
    return { kind: null, name, encoding, rows: [], rejets: [] };
  }
  const body = rows.slice(1);
  const bad = (line: number, why: string) => new RowError(`ligne ${line + 2} : ${why}`);
  // A date written but impossible (31/02/2017) refuses its line, named, instead of being stored as "2017-02-31".
  const date = (value: string | null, line: number, what: string): string | null => {
    try {
      return parseDate(value ?? undefined);
    } catch (e) {
      if (e instanceof ImpossibleDate) throw bad(line, `${what} : ${e.message}`);
      throw e;
    }
  };
  const collect = <T>(read: (r: string[], line: number) => T): { rows: T[]; rejets: string[] } => {
    const rows: T[] = [];
    const rejets: string[] = [];
    body.forEach((r, line) => {
      try {
        rows.push(read(r, line));
      } catch (e) {
        if (!(e instanceof RowError)) throw e;
        rejets.push(e.message);
      }
    });
    if (rejets.length > MAX_REJETS(body.length)) {
      throw new ShapeError(
        `${name} : ${rejets.length} lignes illisibles sur ${body.length} (${rejets.slice(0, 3).join(" ; ")}…) ; ce fichier n'a pas la forme attendue (${kind})`,
      );
    }
    return { rows, rejets };
  };
  switch (kind) {
    case "produits": {
      const ix = indexColumns(header, PRODUIT_COLUMNS);
      return {
        kind,
        name,
        encoding,
        ...collect((r, line) => {
          const amm = text(r, ix.amm);
          if (!amm || !/^\d{1,9}$/.test(amm)) throw bad(line, `numéro AMM illisible « ${amm ?? ""} »`);
          const nom = text(r, ix.nom);
          if (!nom) throw bad(line, "nom du produit vide");
          const mentions = text(r, ix.mentions);
          return {
            amm,
            idProduit: Number(amm),
            typeProduit: text(r, ix.typeProduit) ?? "PPP",
            nom,
            secondsNoms: text(r, ix.secondsNoms),
            titulaire: text(r, ix.titulaire),
            fonctions: text(r, ix.fonctions),
            formulation: text(r, ix.formulation),
            etat: text(r, ix.etat),
            dateRetrait: date(text(r, ix.dateRetrait), line, "date de retrait"),
            biocontrole: mentions != null && /biocontr[oô]le/i.test(mentions),
            substances: parseSubstances(text(r, ix.substances)),
          };
        }),
      };
    }
    case "usages": {
      const ix = indexColumns(header, USAGE_COLUMNS);
      return {
        kind,
        name,
        encoding,
        ...collect((r, line) => {
          const amm = text(r, ix.amm);
          if (!amm || !/^\d{1,9}$/.test(amm)) throw bad(line, `numéro AMM illisible « ${amm ?? ""} »`);
          const [a, b] = [text(r, ix.code), text(r, ix.libelle)];
          const libelle = [b, a].find((v) => v?.includes("*")) ?? b ?? a;
          if (!libelle) throw bad(line, "usage vide");
          const identifiant = libelle === b ? a : b;
          const nb = parseDecimal(text(r, ix.nombreMaxApplication) ?? undefined);
          const dar = parseDecimal(text(r, ix.delaiAvantRecolte) ?? undefined);
          return {
            amm,
            identifiant,
            libelle,
            ...splitUsage(libelle),
            dose: parseDecimal(text(r, ix.dose) ?? undefined),
            unite: text(r, ix.unite),
            etat: text(r, ix.etat),
            delaiAvantRecolte: dar == null ? null : Math.round(dar),
            nombreMaxApplication: nb == null ? null : Math.round(nb),
            dateDecision: date(text(r, ix.dateDecision), line, "date de décision"),
            dateFinDistribution: date(text(r, ix.dateFinDistribution), line, "date de fin de distribution"),
            dateFinUtilisation: date(text(r, ix.dateFinUtilisation), line, "date de fin d'utilisation"),
          };
        }),
      };
    }
    case "substances": {
      const ix = indexColumns(header, SUBSTANCE_COLUMNS);
      return {
        kind,
        name,
        encoding,
        ...collect((r, line) => {
          const nom = text(r, ix.nom);
          if (!nom) throw bad(line, "nom de substance vide");
          return { nom, numeroCas: text(r, ix.numeroCas), etat: text(r, ix.etat), variantes: text(r, ix.variantes) };
        }),
      };
    }
    case "ift": {
      const ix = indexColumns(header, IFT_COLUMNS);
      return {
        kind,
        name,
        encoding,
        ...collect((r, line) => {
          const annee = Number(text(r, ix.anneeRecolte));
          if (!Number.isInteger(annee) || annee < 1990 || annee > 2100) throw bad(line, `campagne illisible « ${text(r, ix.anneeRecolte) ?? ""} »`);
          const amm = text(r, ix.amm);
          if (!amm || !/^\d{1,9}$/.test(amm)) throw bad(line, `numéro AMM illisible « ${amm ?? ""} »`);
          const culture = text(r, ix.culture);
          if (!culture) throw bad(line, "culture vide");
          return {
            anneeRecolte: annee,
            amm,
            biocontrole: truthy(text(r, ix.biocontrole)),
            codeCulture: text(r, ix.codeCulture),
            culture,
            codeCible: text(r, ix.codeCible),
            cible: text(r, ix.cible),
            segment: text(r, ix.segment),
            dose: parseDecimal(text(r, ix.dose) ?? undefined),
            unite: text(r, ix.unite) ?? text(r, ix.codeUnite),
          };
        }),
      };
    }
  }
}

/**
 * The phyto category (categorie_intrant, decision 0028) of a product from its E-Phy functions, the first one
 * that maps; a product whose every use is a seed treatment ("Trt Sem.") is a seed treatment.
 */
export function categoriePhyto(typeProduit: string, fonctions: string | null, usages: UsageEphy[] = []): { id: number; code: string } {
  if (/adjuvant/i.test(typeProduit)) return { id: 5398, code: "ADJUVANT" };
  if (usages.length > 0 && usages.every((u) => /trt\s*sem/i.test(u.traitement ?? ""))) return { id: 5397, code: "TRAITEMENT_SEMENCES" };
  const rules: Array<[RegExp, number, string]> = [
    [/herbicide|d[ée]fanant/i, 5391, "HERBICIDE"],
    [/fongicide|bact[ée]ricide/i, 5392, "FONGICIDE"],
    [/insecticide/i, 5393, "INSECTICIDE"],
    [/acaricide/i, 5394, "ACARICIDE"],
    [/molluscicide/i, 5395, "MOLLUSCICIDE"],
    [/r[ée]gulateur|subst\.?\s*croiss/i, 5396, "REGULATEUR"],
  ];
  for (const f of (fonctions ?? "").split("|").map((s) => s.trim())) {
    for (const [re, id, code] of rules) if (re.test(f)) return { id, code };
  }
  return { id: 5399, code: "PHYTO_AUTRE" };
}
