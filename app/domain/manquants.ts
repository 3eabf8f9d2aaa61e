/**
 * The missing-data worklist (issue 24; decision 0087): what keeps a farm's indicators incomplete, one line per missing
 * datum the engine lists (`manquants` of every plot figure, docs/indicators.md §7.1), with the screen and row that fix
 * it and how much completeness fixing it would restore. Pure: the worklist service gives it the engine's figures.
 */
import type { Manquant, ObjetDonnee } from "./calc/indicateurs/types";

/** A plot figure as the engine gives it: its code, its expected data count and its missing data. */
export type FigureManquants = { idParcelle: number; code: string; attendus: number; manquants: readonly Manquant[] };

export type LigneManquant = {
  cle: string;
  objet: ObjetDonnee;
  id: number | string;
  champ: string;
  libelle: string | null;
  /** The plots whose figures miss it. */
  parcelles: number[];
  /** Figures (plot × indicator) that list it. */
  figures: number;
  /**
   * Completeness it would restore, in points of the farm's mean figure completeness: Σ over the plot figures that list
   * it of the figure's missing completeness (100 − completeness) × its occurrences / the figure's missing count,
   * divided by the number of the farm's plot figures. The lines' gains add up to 100 − the mean completeness.
   */
  gain: number;
};

export const cleManquant = (m: Pick<Manquant, "objet" | "id" | "champ">) => `${m.objet}|${m.id}|${m.champ}`;

/** One line per distinct missing datum (object, id, field) over the farm's plot figures, the largest gain first. */
export function lignesManquants(figures: readonly FigureManquants[]): LigneManquant[] {
  const nombreFigures = figures.filter((f) => f.attendus > 0).length;
  const lignes = new Map<string, LigneManquant & { points: number; vues: Set<string> }>();
  for (const f of figures) {
    if (f.attendus <= 0 || f.manquants.length === 0) continue;
    // A figure can list more missing data than it expected (clamped at 0 %): its missing points are shared out.
    const parManquant = (100 * Math.min(f.manquants.length, f.attendus)) / f.attendus / f.manquants.length;
    for (const m of f.manquants) {
      const cle = cleManquant(m);
      let l = lignes.get(cle);
      if (!l)
        lignes.set(
          cle,
          (l = { cle, objet: m.objet, id: m.id, champ: m.champ, libelle: m.libelle ?? null, parcelles: [], figures: 0, gain: 0, points: 0, vues: new Set() }),
        );
      l.libelle ??= m.libelle ?? null;
      l.points += parManquant;
      const figure = `${f.idParcelle}|${f.code}`;
      if (!l.vues.has(figure)) {
        l.vues.add(figure);
        l.figures++;
      }
      if (!l.parcelles.includes(f.idParcelle)) l.parcelles.push(f.idParcelle);
    }
  }
  return [...lignes.values()]
    .map(({ points, vues: _vues, ...l }) => ({ ...l, gain: nombreFigures ? points / nombreFigures : 0 }))
    .sort((a, b) => b.gain - a.gain || b.figures - a.figures || a.cle.localeCompare(b.cle));
}

/** Where a missing datum is fixed: the screen (under /home) and the row it opens there (the list screens' `id`). */
export type Correction = { ecran: string; params: Record<string, string> } | null;

const d = (path: string) => `/home/description/${path}`;

/**
 * The screen and row that fix a missing datum. `idIntervention` is the intervention an input or a harvest belongs to,
 * `idParcelle` a plot whose figure lists it; a sale price (a harvest's) is fixed on the sale prices, a supply price on
 * the supply prices, a machine's weight or wear life on the machinery fleet; a reference factor on no screen.
 */
export function correction(m: Pick<Manquant, "objet" | "id" | "champ">, where: { idParcelle?: number; idIntervention?: number | null }): Correction {
  const interventions = () => ({
    ecran: d("au_champs/interventions"),
    params: {
      ...(where.idParcelle != null ? { parcelleId: String(where.idParcelle) } : {}),
      ...(where.idIntervention != null ? { id: String(where.idIntervention) } : {}),
    },
  });
  switch (m.objet) {
    case "parcelle":
      return { ecran: d("exploitation/parcelle"), params: { id: String(m.id) } };
    case "intervention":
      return {
        ecran: d("au_champs/interventions"),
        params: { ...(where.idParcelle != null ? { parcelleId: String(where.idParcelle) } : {}), id: String(m.id) },
      };
    case "intrant":
    case "recolte":
      return interventions();
    case "operation":
      if (m.champ === "poids" || m.champ === "usure") return { ecran: d("exploitation/parc_materiel"), params: { id: String(m.id) } };
      return { ecran: d("exploitation/operations_culturales"), params: { id: String(m.id) } };
    case "prix":
      return { ecran: d(m.champ === "prixAchat" ? "prix/prix_approvisionnement" : "prix/prix_vente"), params: {} };
    case "exploitation":
      return { ecran: d(m.champ === "tauxHoraireMainOeuvre" ? "exploitation/main_oeuvre" : "exploitation/caracteristiques_economiques"), params: {} };
    default:
      return null;
  }
}

/** The address of a correction. */
export const adresseCorrection = (c: NonNullable<Correction>) => {
  const q = new URLSearchParams(c.params).toString();
  return q ? `${c.ecran}?${q}` : c.ecran;
};

// ---------------------------------------------------------------------------------------------
// What the worklist service answers the screen.

export type LigneWorklist = LigneManquant & {
  idExploitation: number;
  exploitation: string;
  idCampagne: number;
  campagne: string;
  /** Plot labels of `parcelles`. */
  libellesParcelles: string[];
  /** The address of the screen and row that fix it, or null (a reference factor). */
  adresse: string | null;
};

export type Worklist = {
  idDossier: number | null;
  /** The harvest years the folder's farms have, newest first, and the one shown. */
  annees: number[];
  annee: number | null;
  /** Per farm read: its campaign of the year, its mean completeness, and whether the user may write it. */
  exploitations: {
    id: number;
    libelle: string;
    idCampagne: number | null;
    campagne: string | null;
    completude: number | null;
    figures: number;
    peutEcrire: boolean;
  }[];
  lignes: LigneWorklist[];
  /** The context's campaign: its lines link straight to the screens; another campaign's go through `ouvrirCorrection`. */
  idCampagneContexte: number | null;
};
