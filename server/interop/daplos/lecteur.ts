import { ServiceError } from "../../errors";
import layout from "./reference/daplos-flat-v095-layout.json";

/**
 * The Daplos flat-file reader (issue 25, decision 0094): bytes in, records out, no I/O. The layout is the AgroEDI
 * v0.95 table (reference/daplos-flat-v095-layout.json, 24 record types); real files break the guide in many ways
 * (research notes §1.1) and the reader takes them as they come:
 * - the encoding is found from the bytes: valid UTF-8 is UTF-8 (a BOM dropped), anything else Windows-1252; the
 *   positions are then taken in characters, which is what lines up in both;
 * - CRLF or LF; lines right-trimmed or padded: a missing tail is blank;
 * - numbers in every shape seen (`0000002.2`, `8.6400003`, `.18837328`, `00932    `, `000000   `, `-1`);
 * - dates SSAAMMJJ and SSAAMMJJHHmm, all zeros being no date.
 * A record keeps its line number. What cannot be a Daplos file is refused whole with a key of `daplos.*`
 * (and its line): empty, another format, another version, too big, truncated, an unknown record type, a number or a
 * date that is none.
 */

export type TypeChamp = "a" | "n" | "d8" | "d12";
type Champ = { name: string; start: number; length: number; type: TypeChamp };
type Disposition = { label: string; parent: string; fields: Champ[] };

export const DISPOSITIONS = layout.records as unknown as Record<string, Disposition>;
export const TYPES_ENREGISTREMENT = Object.keys(DISPOSITIONS);

/** Versions of the DE header the reader knows (0.95 is a superset of 0.93 and 0.94: new fields at the end). */
export const VERSIONS_ACCEPTEES = ["0.93", "0.94", "0.95"] as const;

/** The largest file read (bytes): a 5,000-plot farm with a season of interventions is about 60 MB. */
export const TAILLE_MAX_DAPLOS = 64 * 1024 * 1024;

export type Valeur = string | number | null;

export type Enregistrement = {
  /** The two-letter flag (EI, DE, DP, PV, VI, ...). */
  type: string;
  /** 1-based line of the file. */
  ligne: number;
  /** Field values by the layout's names: text trimmed, numbers parsed, dates ISO (`2024-05-14`, `2024-05-14T08:30`); blank is null. */
  champs: Record<string, Valeur>;
};

export type FichierDaplos = {
  encodage: "utf-8" | "windows-1252";
  finDeLigne: "crlf" | "lf";
  version: string;
  enregistrements: Enregistrement[];
};

export type FormatFichier = "daplos" | "edifact" | "edaplos" | "inconnu" | "vide";

function refus(key: string, params: Record<string, string | number> = {}): ServiceError {
  return new ServiceError(`daplos.${key}`, 400, undefined, params);
}

/** The text of the bytes: UTF-8 when they are valid UTF-8, else Windows-1252 (the guide's 1-byte charset). */
export function decoder(octets: Uint8Array): { texte: string; encodage: FichierDaplos["encodage"] } {
  try {
    const texte = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(octets);
    return { texte, encodage: "utf-8" };
  } catch {
    return { texte: new TextDecoder("windows-1252").decode(octets), encodage: "windows-1252" };
  }
}

/** What the content is, whatever the file's extension (research notes §1.6): EI flat file, UNA/UNB EDIFACT, XML eDaplos. */
export function reconnaitreFormat(texte: string): FormatFichier {
  const debut = texte.replace(/^\uFEFF/, "").trimStart();
  if (!debut) return "vide";
  if (/^EI/.test(debut)) return "daplos";
  if (/^UN[AB]/.test(debut)) return "edifact";
  if (/^<(\?xml|[\w-]+:CropDataSheetMessage|CropDataSheetMessage)/.test(debut)) return "edaplos";
  return "inconnu";
}

const NOMBRE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A numeric field as real files write it; `undefined` when it is not a number. Blank is null. */
export function lireNombre(brut: string): number | null | undefined {
  const t = brut.trim();
  if (!t) return null;
  if (!NOMBRE.test(t)) return undefined;
  return Number(t);
}

function jourValide(a: number, m: number, j: number): boolean {
  const d = new Date(Date.UTC(a, m - 1, j));
  return d.getUTCFullYear() === a && d.getUTCMonth() === m - 1 && d.getUTCDate() === j;
}

/** SSAAMMJJ or SSAAMMJJHHmm as ISO (`2024-05-14` or `2024-05-14T08:30`; time 0000 is no time); blank or zeros null; `undefined` when it is no date. */
export function lireDate(brut: string, avecHeure: boolean): string | null | undefined {
  const t = brut.trim();
  if (!t || /^0+$/.test(t)) return null;
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2}))?$/.exec(t);
  if (!m) return undefined;
  const [a, mo, j] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!jourValide(a, mo, j)) return undefined;
  const jour = `${m[1]}-${m[2]}-${m[3]}`;
  if (!avecHeure || m[4] === undefined || (m[4] === "00" && m[5] === "00")) return jour;
  if (Number(m[4]) > 23 || Number(m[5]) > 59) return undefined;
  return `${jour}T${m[4]}:${m[5]}`;
}

/** One line cut by its record's layout. Throws on a number or a date that is none, naming the line and the field. */
export function lireEnregistrement(texte: string, ligne: number): Enregistrement {
  const type = texte.slice(0, 2);
  const disposition = DISPOSITIONS[type];
  if (!disposition) throw refus("type-inconnu", { ligne, type: type.trim() || "?" });
  const champs: Record<string, Valeur> = {};
  for (const f of disposition.fields) {
    const brut = texte.slice(f.start - 1, f.start - 1 + f.length);
    let v: Valeur | undefined;
    if (f.type === "a") v = brut.trim() || null;
    else if (f.type === "n") v = lireNombre(brut);
    else v = lireDate(brut, f.type === "d12");
    if (v === undefined) throw refus(f.type === "n" ? "nombre-invalide" : "date-invalide", { ligne, type, champ: f.name, valeur: brut.trim() });
    champs[f.name] = v;
  }
  return { type, ligne, champs };
}

/**
 * Reads a whole file. `taille`: the size limit in bytes. Refuses an empty or truncated file (fewer plot sheets than
 * the DE header announces, or no DE), another format, another version and an unknown record.
 */
export function lireDaplos(octets: Uint8Array, options: { tailleMax?: number } = {}): FichierDaplos {
  const tailleMax = options.tailleMax ?? TAILLE_MAX_DAPLOS;
  if (octets.byteLength > tailleMax) throw refus("trop-gros", { taille: octets.byteLength, max: tailleMax });
  const { texte, encodage } = decoder(octets);
  const format = reconnaitreFormat(texte);
  if (format === "vide") throw refus("vide");
  if (format !== "daplos") throw refus(`format-${format}`);
  const propre = texte.replace(/^\uFEFF/, "");
  const finDeLigne = /\r\n/.test(propre) ? "crlf" : "lf";
  const lignes = propre.split(/\r?\n|\r/);
  const enregistrements: Enregistrement[] = [];
  for (let i = 0; i < lignes.length; i++) {
    const l = lignes[i].replace(/\s+$/, "");
    if (!l) continue;
    enregistrements.push(lireEnregistrement(l, i + 1));
  }
  const de = enregistrements.find((e) => e.type === "DE");
  if (!de) throw refus("tronque", { ligne: enregistrements.at(-1)?.ligne ?? 1 });
  const version = String(de.champs.message_version ?? "");
  if (!(VERSIONS_ACCEPTEES as readonly string[]).includes(version)) throw refus("version", { ligne: de.ligne, version: version || "?" });
  const annoncees = typeof de.champs.plot_sheet_count === "number" ? de.champs.plot_sheet_count : null;
  const lues = enregistrements.filter((e) => e.type === "DP").length;
  if (lues === 0 || (annoncees != null && annoncees > 0 && lues < annoncees))
    throw refus("tronque", { ligne: enregistrements.at(-1)!.ligne, annoncees: annoncees ?? 0, lues });
  return { encodage, finDeLigne, version, enregistrements };
}
