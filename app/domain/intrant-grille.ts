import { z } from "zod";
import { AutreSchema, EauSchema, FertilisantSchema, PhytoSchema, SemenceSchema, TYPE_INTRANT, UNITES } from "./intrant";
import { decimalMax, optionalNumber, requiredNumber } from "./validation";

/**
 * The inputs of one intervention as the interventions grid edits them (issue 29, decision 0126): product, dose,
 * unit and main target per row. The grid's row schema checks the cells; the server then builds the input its
 * dialog would send (`dialogInput`, the stored input's other details kept) and parses it with that dialog's schema
 * (SemenceSchema, PhytoSchema...), so the grid and the dialogs share one schema per kind and one write path.
 * A row appended in the grid is a plant-protection product (the catalogue the drop-down lists); the other kinds
 * are added through their dialogs and then edited here.
 */

/** A catalogue product as a cell holds it: "origin:id" (an input is named by both). */
export const produitKey = (origine: number | null | undefined, idIntrant: number | null | undefined): string | undefined =>
  origine != null && idIntrant != null ? `${origine}:${idIntrant}` : undefined;

export function parseProduitKey(key: unknown): { origine: number; idIntrant: number } | null {
  if (typeof key !== "string") return null;
  const m = /^(\d{1,9}):(\d{1,12})$/.exec(key);
  return m ? { origine: Number(m[1]), idIntrant: Number(m[2]) } : null;
}

export const KINDS_BY_TYPE = {
  [TYPE_INTRANT.SEMENCE]: "semence",
  [TYPE_INTRANT.PHYTO]: "phyto",
  [TYPE_INTRANT.FERTILISANT]: "fertilisant",
  [TYPE_INTRANT.EAU]: "eau",
  [TYPE_INTRANT.AUTRE]: "autre",
} as const;
export type GrilleKind = (typeof KINDS_BY_TYPE)[keyof typeof KINDS_BY_TYPE];

export const kindOfType = (type: number): GrilleKind | null => (KINDS_BY_TYPE as Record<number, GrilleKind>)[type] ?? null;

/** Every unit an input may have (the unit column's list); the kind's schema says which ones it takes. */
export const UNITES_GRILLE: string[] = [...new Set(Object.values(UNITES).flat())];

/** The grid's row: each cell on its own (the kind's schema judges the whole input on the server). */
export const IntrantGrilleSchema = z.object({
  produit: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z
      .string({ error: "warning.invalid" })
      .regex(/^\d{1,9}:\d{1,12}$/, "warning.invalid")
      .optional(),
  ),
  quantite: requiredNumber({ min: 0, max: decimalMax(14, 4) }),
  dicLlUnite: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.enum(UNITES_GRILLE as [string, ...string[]], { error: (iss) => (iss.input === undefined ? "warning.required" : "warning.invalid") }),
  ),
  cible1: optionalNumber({ integer: true, min: 1 }),
});
export type IntrantGrilleInput = z.output<typeof IntrantGrilleSchema>;

/** A stored input as its dialog reads it (server/intrant/service.ts, getIntrant). */
export type IntrantStocke = {
  type: number;
  idCategorie: number;
  idIntrant: number | null;
  origine: number | null;
  libelle: string;
  idCulture: number | null;
  quantite: number | null;
  unite: string | null;
  caracteristique: Record<string, number | null> | null;
  cibles: { id: number }[];
};

/** The grid's row of a stored input (values as the grid holds them: empty cells absent). */
export function grilleRowOf(s: IntrantStocke): Record<string, unknown> {
  const row: Record<string, unknown> = { type: s.type, libelle: s.libelle };
  const p = produitKey(s.origine, s.idIntrant);
  if (p && (s.type === TYPE_INTRANT.PHYTO || s.type === TYPE_INTRANT.FERTILISANT || s.type === TYPE_INTRANT.SEMENCE)) row.produit = p;
  if (s.quantite != null) row.quantite = s.quantite;
  if (s.unite != null) row.dicLlUnite = s.unite;
  if (s.cibles[0]) row.cible1 = s.cibles[0].id;
  return row;
}

export const KIND_SCHEMAS = {
  semence: SemenceSchema,
  phyto: PhytoSchema,
  fertilisant: FertilisantSchema,
  eau: EauSchema,
  autre: AutreSchema,
} as const;

/**
 * The input the kind's dialog would send for a grid row: the grid's cells over the stored input (undefined for a
 * new row, a phyto). Product, dose, unit and main target come from the grid; the rest (the other targets, the
 * composition, the seed shares, the category, an other input's name) is kept as stored.
 */
export function dialogInput(kind: GrilleKind, values: IntrantGrilleInput, stored?: IntrantStocke): Record<string, unknown> {
  const p = parseProduitKey(values.produit) ?? (stored ? { origine: stored.origine, idIntrant: stored.idIntrant } : null);
  const base = { quantite: values.quantite, dicLlUnite: values.dicLlUnite };
  const car = stored?.caracteristique ?? {};
  switch (kind) {
    case "phyto": {
      const others = (stored?.cibles ?? []).slice(1).map((c) => c.id);
      return {
        idIntrant: p?.idIntrant,
        origine: p?.origine,
        ...base,
        cible1: values.cible1 ?? others[0],
        cible2: values.cible1 == null ? others[1] : others[0],
        cible3: values.cible1 == null ? others[2] : others[1],
        cible4: values.cible1 == null ? undefined : others[2],
      };
    }
    case "fertilisant":
      return { idCategorie: stored?.idCategorie, idIntrant: p?.idIntrant, origine: p?.origine, ...base, ...withoutNulls(car) };
    case "semence":
      return { idCulture: stored?.idCulture, idIntrant: p?.idIntrant, origine: p?.origine, ...base, ...withoutNulls(car) };
    case "eau":
      return { idCategorie: stored?.idCategorie, ...base };
    case "autre":
      return { idCategorie: stored?.idCategorie, libelle: stored?.libelle, idIntrant: stored?.idIntrant ?? undefined, ...base };
  }
}

const withoutNulls = (o: Record<string, number | null>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v != null));

/** A dialog schema's field as the grid names it (the product is one cell, the other targets are not shown). */
export function grilleField(field: string): string {
  if (field === "idIntrant" || field === "origine" || field === "idCulture") return "produit";
  if (/^cible\d$/.test(field)) return "cible1";
  if (field === "quantite" || field === "dicLlUnite") return field;
  return "";
}
