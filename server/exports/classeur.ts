import fs from "node:fs";
import path from "node:path";
import ExcelJS from "exceljs";
import { ServiceError } from "../errors";

/**
 * The xlsx writer of the exports (issue 14; decision 0052): exceljs' streaming WorkbookWriter, so memory stays
 * constant whatever the number of rows (each row is committed to the zip stream as soon as it is added; strings are
 * written inline, never kept in a shared-strings table).
 *
 *   verifierLignesExport({ Parcelles: n1, Interventions: n2 });   // before any work: 413 exports.trop-de-lignes
 *   const classeur = ouvrirClasseur("/data/exports/<uuid>.xlsx");   // creates the folder
 *   const f = classeur.feuille("Parcelles", [
 *     { entete: "Parcelle" },                                        // type "texte" (default)
 *     { entete: "Surface (ha)", type: "nombre", largeur: 12 },
 *     { entete: "Date", type: "date" },                              // "YYYY-MM-DD" or a Date, shown dd/mm/yyyy
 *   ]);
 *   for (const p of rows) await f.ligne([p.nom, p.surface, p.date]); // null/undefined: empty cell
 *   const g = classeur.feuille("Interventions", [...]);             // the previous sheet is committed
 *   await classeur.fermer();                                        // the file is complete once this resolves
 *
 * - Every sheet has its header row frozen and an autofilter on it (issue 29).
 *
 * - A sheet name is cut to Excel's 31 characters, its forbidden characters replaced, and made unique.
 * - A string starting with = + - @ (or a tab or carriage return), as user text may, is written as a text cell with
 *   the text number format: it is never a formula, in the file or when the cell is edited in a spreadsheet.
 * - A sheet holds at most LIGNES_MAX_EXPORT data rows below its header row (the spreadsheet limit of 1,048,576
 *   lines): a further row is refused (exports.trop-de-lignes); count first with verifierLignesExport.
 * - `ligne` waits every few thousand rows for the zip compressor to take what was written (bounded memory): await it.
 */

/** Data rows of one sheet: the header row plus these make Excel's 1,048,576 lines (A-EXPORT-25, C-REXP-09). */
export const LIGNES_MAX_EXPORT = 1_048_575;

export const ERREUR_TROP_DE_LIGNES = "exports.trop-de-lignes";

/**
 * Refuses (413 exports.trop-de-lignes, with the largest count and the limit) an export whose counted rows exceed
 * the limit in one sheet: call it with the counts of every sheet before writing anything.
 */
export function verifierLignesExport(comptes: number | Record<string, number>): void {
  const valeurs = typeof comptes === "number" ? [comptes] : Object.values(comptes);
  const plus = Math.max(0, ...valeurs);
  if (plus > LIGNES_MAX_EXPORT) throw new ServiceError(ERREUR_TROP_DE_LIGNES, 413, undefined, { lignes: plus, max: LIGNES_MAX_EXPORT });
}

/**
 * A campaign's cell (issue 29): a campaign named by its harvest year alone ("2025") is written as a number, as
 * spreadsheet users filter and sort it; a prefixed label ("Bio 2025") stays text; empty is an empty cell.
 */
export function celluleCampagne(libelle: string | null | undefined): string | number | null {
  const l = (libelle ?? "").trim();
  if (!l) return null;
  return /^\d{1,9}$/.test(l) ? Number(l) : l;
}

export type TypeColonne = "texte" | "nombre" | "date" | "booleen";
export type Colonne = { entete: string; type?: TypeColonne; largeur?: number };
export type Valeur = string | number | boolean | Date | null | undefined;

const FORMULE = /^[=+\-@\t\r]/;
const TEXTE = "@";
const FORMAT_DATE = "dd/mm/yyyy";
const STYLE_VIDE: Partial<ExcelJS.Style> = {};
const STYLE_DATE: Partial<ExcelJS.Style> = { numFmt: FORMAT_DATE };
const STYLE_TEXTE: Partial<ExcelJS.Style> = { numFmt: TEXTE };
const JOUR = /^(\d{4})-(\d{2})-(\d{2})/;
const CEDER_TOUTES = 16_384;

/**
 * The promise of the last chunk the sheet's stream (an exceljs StreamBuf in batch mode) passed on to the zip
 * compressor: it resolves once the compressor has taken that chunk (and so every earlier one).
 */
function suivreEcritures(stream: unknown): () => Promise<void> {
  const s = stream as { _pipe?: (chunk: unknown) => Promise<void> } | undefined;
  let dernier: Promise<void> = Promise.resolve();
  if (!s || typeof s._pipe !== "function") return () => dernier;
  const transmettre = s._pipe.bind(s);
  s._pipe = (chunk: unknown) => {
    const p = transmettre(chunk);
    dernier = p;
    return p;
  };
  return () => dernier;
}

/** A sheet name Excel accepts: no []:*?/\ characters, at most 31 characters, not empty. */
export function nomFeuilleValide(nom: string): string {
  const propre = nom
    .replace(/[[\]:*?/\\]/g, " ")
    .replace(/^'+|'+$/g, "")
    .trim()
    .slice(0, 31)
    .trim();
  return propre || "Feuille";
}

export class Feuille {
  private lignes = 0;
  private readonly dates: number[];
  /**
   * One style object per column, shared by all its cells: exceljs remembers the style id of a style object it has
   * seen (a WeakMap), where a new object per cell would be turned into XML again for every cell.
   */
  private readonly styles: Partial<ExcelJS.Style>[];

  constructor(
    private readonly ws: ExcelJS.Worksheet,
    readonly nom: string,
    private readonly colonnes: Colonne[],
  ) {
    this.dates = colonnes.flatMap((c, i) => (c.type === "date" ? [i] : []));
    this.styles = colonnes.map((c) => (c.type === "date" ? STYLE_DATE : STYLE_VIDE));
    this.derniereEcriture = suivreEcritures((ws as unknown as { stream: unknown }).stream);
  }

  private readonly derniereEcriture: () => Promise<void>;
  private point: Promise<void> = Promise.resolve();

  /**
   * Backpressure: exceljs hands the sheet's XML to the zip compressor without waiting for it, so a fast producer
   * would pile up the whole uncompressed sheet in memory. Every few thousand rows the writer waits until the
   * compressor took the XML written up to the previous checkpoint (one batch behind, so both keep working).
   */
  private async ceder(): Promise<void> {
    const precedent = this.point;
    this.point = this.derniereEcriture();
    await precedent;
    await new Promise((r) => setImmediate(r));
  }

  /** Data rows written so far. */
  get nombreLignes(): number {
    return this.lignes;
  }

  /** Adds and commits one row (values in the columns' order). */
  ligne(valeurs: readonly Valeur[]): Promise<void> | void {
    if (this.lignes >= LIGNES_MAX_EXPORT) throw new ServiceError(ERREUR_TROP_DE_LIGNES, 413, undefined, { lignes: this.lignes + 1, max: LIGNES_MAX_EXPORT });
    const cellules: Valeur[] = valeurs.slice(0, this.colonnes.length);
    let textes: number[] | undefined;
    for (let i = 0; i < cellules.length; i++) {
      const v = cellules[i];
      if (typeof v === "string") {
        if (FORMULE.test(v)) (textes ??= []).push(i);
      } else if (v === undefined) cellules[i] = null;
    }
    for (const i of this.dates) {
      const v = cellules[i];
      if (typeof v === "string") {
        const m = JOUR.exec(v);
        if (m) cellules[i] = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      }
    }
    const row = this.ws.addRow(cellules);
    (row as unknown as { style: Partial<ExcelJS.Style> }).style = STYLE_VIDE;
    for (let i = 0; i < cellules.length; i++) if (cellules[i] !== null) row.getCell(i + 1).style = this.styles[i];
    if (textes) for (const i of textes) row.getCell(i + 1).style = STYLE_TEXTE;
    row.commit();
    this.lignes++;
    if (this.lignes % CEDER_TOUTES === 0) return this.ceder();
  }

  /** Commits the sheet (done by the next feuille() or fermer()). */
  terminer(): void {
    if (!(this.ws as unknown as { committed: boolean }).committed) this.ws.commit();
  }
}

export class Classeur {
  private readonly wb: ExcelJS.stream.xlsx.WorkbookWriter;
  private courante: Feuille | undefined;
  private readonly noms = new Set<string>();

  constructor(readonly fichier: string) {
    fs.mkdirSync(path.dirname(fichier), { recursive: true });
    this.wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: fichier, useStyles: true, useSharedStrings: false });
    this.wb.creator = "Sillon";
  }

  /** Starts a sheet with its header row (bold, frozen); the previous sheet is committed. */
  feuille(nom: string, colonnes: Colonne[]): Feuille {
    this.courante?.terminer();
    let base = nomFeuilleValide(nom);
    let unique = base;
    for (let n = 2; this.noms.has(unique.toLowerCase()); n++) unique = `${base.slice(0, 31 - String(n).length - 1)} ${n}`;
    this.noms.add(unique.toLowerCase());
    base = unique;
    const ws = this.wb.addWorksheet(base, { views: [{ state: "frozen", ySplit: 1 }] });
    // An autofilter on the header row of every sheet (issue 29): Excel extends it to the rows below.
    if (colonnes.length) ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: colonnes.length } };
    ws.columns = colonnes.map((c) => ({ width: c.largeur ?? Math.min(60, Math.max(10, c.entete.length + 2)) }));
    const entete = ws.addRow(colonnes.map((c) => c.entete));
    entete.font = { bold: true };
    entete.eachCell((cell) => {
      if (FORMULE.test(String(cell.value))) cell.numFmt = TEXTE;
    });
    entete.commit();
    this.courante = new Feuille(ws, base, colonnes);
    return this.courante;
  }

  /** Commits the last sheet and finishes the file. */
  async fermer(): Promise<void> {
    this.courante?.terminer();
    await this.wb.commit();
  }

  /** Stops writing and removes the partial file (an export that failed). */
  async abandonner(): Promise<void> {
    try {
      this.courante?.terminer();
      await this.wb.commit();
    } catch {
      // the file is removed whatever state it was left in
    }
    fs.rmSync(this.fichier, { force: true });
  }
}

export function ouvrirClasseur(fichier: string): Classeur {
  return new Classeur(fichier);
}
