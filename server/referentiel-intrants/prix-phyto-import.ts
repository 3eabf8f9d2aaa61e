import type { Db } from "../db/knex";
import { toIsoDate } from "~/domain/validation";
import { decodeText, normaliseHeader, parseCsv, parseDecimal } from "./csv";
import { inChunks } from "../db/chunks";

/**
 * Reference-source prices of plant-protection products (table prix_phytcom, decision 0080): a price list that an
 * organisation holds a licence for (a chamber's or a distributor's price scale) is loaded from a CSV file, and the
 * proposed-prices panel of a supply price of origin 773 shows the latest price of its product.
 *
 * File: one header line, then one product per line; separator ';' (or ',' or a tab, found from the header); UTF-8 or
 * Windows-1252. Columns by name (case and accents ignored): `amm` and `prix` required, `libelle`, `unite`, `date`
 * (dd/mm/yyyy or yyyy-mm-dd) and `source` optional. Prices may use a decimal comma.
 */

export const PRIX_PHYTO_MAX = 999_999.9999;
const LONGUEUR_UNITE = 30;
const LONGUEUR_LIBELLE = 255;

export type LignePrixPhyto = {
  ligne: number;
  amm: string;
  prix: number;
  unite: string | null;
  date: string | null;
  libelle: string | null;
  source: string | null;
};
export type FichierPrixPhyto = { lignes: LignePrixPhyto[]; erreurs: string[]; encodage: string };
export type BilanPrixPhyto = { ajoutes: number; modifies: number; inchanges: number; ammInconnus: string[] };

/** Thrown when the file cannot be loaded; nothing has been written. */
export class PrixPhytoError extends Error {
  constructor(readonly erreurs: string[]) {
    super(erreurs.join("\n"));
  }
}

const COLONNES = { amm: "amm", prix: "prix", unite: "unite", date: "date", libelle: "libelle", source: "source" } as const;

function separatorOf(header: string): string {
  const counts = [";", "\t", ","].map((s) => [s, header.split(s).length] as const);
  return counts.reduce((best, c) => (c[1] > best[1] ? c : best))[0];
}

/** Reads a price file; every unreadable line is reported with its number (the header is line 1). */
export function lirePrixPhyto(contenu: Uint8Array | string, sourceParDefaut: string | null = null): FichierPrixPhyto {
  const { text, encoding } = typeof contenu === "string" ? { text: contenu.replace(/^\uFEFF/, ""), encoding: "utf-8" } : decodeText(contenu);
  const header = text.split(/\r?\n/, 1)[0] ?? "";
  const rows = parseCsv(text, separatorOf(header));
  const erreurs: string[] = [];
  const lignes: LignePrixPhyto[] = [];
  if (rows.length === 0) return { lignes, erreurs: ["fichier vide"], encodage: encoding };
  const names = rows[0]!.map(normaliseHeader);
  const col = Object.fromEntries(Object.entries(COLONNES).map(([k, name]) => [k, names.indexOf(name)])) as Record<keyof typeof COLONNES, number>;
  for (const required of ["amm", "prix"] as const) {
    if (col[required] < 0) erreurs.push(`colonne « ${required} » absente de l'en-tête (colonnes attendues : amm;prix;unite;date;libelle;source)`);
  }
  if (erreurs.length) return { lignes, erreurs, encodage: encoding };
  const cell = (row: string[], k: keyof typeof COLONNES) => (col[k] >= 0 ? (row[col[k]] ?? "").trim() : "");
  rows.slice(1).forEach((row, i) => {
    const ligne = i + 2;
    const amm = cell(row, "amm").replace(/\s/g, "");
    const prixTexte = cell(row, "prix");
    const prix = parseDecimal(prixTexte);
    const dateTexte = cell(row, "date");
    const date = dateTexte === "" ? null : toIsoDate(dateTexte);
    const unite = cell(row, "unite") || null;
    const libelle = cell(row, "libelle") || null;
    const source = cell(row, "source") || sourceParDefaut;
    const fautes: string[] = [];
    if (!/^\d{1,10}$/.test(amm)) fautes.push(`AMM « ${amm} » invalide (chiffres attendus)`);
    if (prix === null) fautes.push(`prix « ${prixTexte} » illisible`);
    else if (prix < 0 || prix > PRIX_PHYTO_MAX) fautes.push(`prix ${prixTexte} hors de 0 à ${PRIX_PHYTO_MAX}`);
    if (dateTexte !== "" && date === null) fautes.push(`date « ${dateTexte} » illisible (jj/mm/aaaa attendu)`);
    if (unite && unite.length > LONGUEUR_UNITE) fautes.push(`unité de plus de ${LONGUEUR_UNITE} caractères`);
    if (libelle && libelle.length > LONGUEUR_LIBELLE) fautes.push(`libellé de plus de ${LONGUEUR_LIBELLE} caractères`);
    if (fautes.length) erreurs.push(`ligne ${ligne} : ${fautes.join(", ")}`);
    else lignes.push({ ligne, amm, prix: prix!, unite, date, libelle, source });
  });
  if (lignes.length === 0 && erreurs.length === 0) erreurs.push("aucune ligne de prix");
  return { lignes, erreurs, encodage: encoding };
}

/**
 * Loads read price lines in one transaction. A line is matched to every catalogue product with its AMM; a price of
 * the same product, date and source is replaced, any other is added (the panel shows the latest by date). AMMs
 * absent from the catalogue are reported, not refused (a price scale lists more products than the catalogue).
 */
export async function chargerPrixPhyto(db: Db, fichier: FichierPrixPhyto): Promise<BilanPrixPhyto> {
  if (fichier.erreurs.length) throw new PrixPhytoError(fichier.erreurs);
  return db.transaction(async (trx) => {
    const amms = [...new Set(fichier.lignes.map((l) => l.amm))];
    const produits = new Map<string, number[]>();
    for (const chunk of inChunks(amms)) {
      for (const r of await trx("intrant_phyto").whereIn("ammProduit", chunk).select("id", "ammProduit")) {
        const key = String(r.ammProduit);
        produits.set(key, [...(produits.get(key) ?? []), Number(r.id)]);
      }
    }
    const bilan: BilanPrixPhyto = { ajoutes: 0, modifies: 0, inchanges: 0, ammInconnus: amms.filter((a) => !produits.has(a)) };
    for (const l of fichier.lignes) {
      for (const idIntrantPhyto of produits.get(l.amm) ?? []) {
        const same = trx("prix_phytcom").where({ idIntrantPhyto });
        if (l.date === null) same.whereNull("datePhytcom");
        else same.where("datePhytcom", l.date);
        if (l.source === null) same.whereNull("source");
        else same.where("source", l.source);
        const existing = await same.first("id", "prixPhytcom", "unite", "libelle");
        const values = { prixPhytcom: l.prix, unite: l.unite, libelle: l.libelle };
        if (!existing) {
          await trx("prix_phytcom").insert({ idIntrantPhyto, datePhytcom: l.date, source: l.source, ...values });
          bilan.ajoutes++;
        } else if (Number(existing.prixPhytcom) !== l.prix || existing.unite !== l.unite || existing.libelle !== l.libelle) {
          await trx("prix_phytcom")
            .where({ id: existing.id })
            .update({ ...values, updatedAt: new Date() });
          bilan.modifies++;
        } else {
          bilan.inchanges++;
        }
      }
    }
    return bilan;
  });
}

/** The report printed by the command line. */
export function formatBilanPrixPhyto(fichier: FichierPrixPhyto, bilan: BilanPrixPhyto): string[] {
  const out = [
    `${fichier.lignes.length} ligne(s) lue(s) (${fichier.encodage})`,
    `prix ajoutés : ${bilan.ajoutes}, modifiés : ${bilan.modifies}, inchangés : ${bilan.inchanges}`,
  ];
  if (bilan.ammInconnus.length) out.push(`AMM absentes du catalogue (ignorées) : ${bilan.ammInconnus.join(", ")}`);
  return out;
}
