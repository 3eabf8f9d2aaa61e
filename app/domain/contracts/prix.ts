/** The rows and lists of the price screens (spec 3 §2.4, §2.5), as the loaders send them (server/prix/service.ts). */

export type PrixApproRow = {
  /** The prix_appro id; FUEL_ROW_ID for the fuel row; a negative id for a product not stored yet (shown to a reader only). */
  id: number;
  updatedAt: string;
  /** The fuel row (caracteristique.prix_fioul, €/L), first in the list. */
  fioul: boolean;
  idOrigineIntrant: number | null;
  idTypeIntrant: number | null;
  idIntrant: number | null;
  idModalite: number | null;
  traitementSemence: boolean;
  libelleIntrant: string;
  libelleIntrantConcat: string;
  prixAchat: number | null;
  /** Upper-cased unit of the inputs (KG/HA); the price is € per its part before the slash. */
  unite: string | null;
  /** Some input of the campaign uses it ('delete unused products' removes the others). */
  utilise: boolean;
};

export type PrixVenteRow = {
  id: number;
  updatedAt: string;
  idModeConduite: number | null;
  idCulture: number;
  idTypeSortie: number;
  idQualifiantRecolte: number | null;
  prixVente: number | null;
  utilise: boolean;
};

export type Libelle = { id: number; libelle: string; libelleEn: string | null };

export type PrixApproData = {
  canWrite: boolean;
  rows: PrixApproRow[];
  types: Libelle[];
};

export type PrixVenteData = {
  canWrite: boolean;
  rows: PrixVenteRow[];
  modes: Libelle[];
  cultures: Libelle[];
  typesSortie: Libelle[];
  qualifiants: Libelle[];
};

/** Statistics of one set of prices (app/domain/prix.ts `statistiques`). */
export type StatistiquesPrix = { count: number; min: number | null; max: number | null; mean: number | null; median: number | null; cv: number | null };

export type PrixPropose = {
  /** Every non-simulation campaign the user may read, of any year, other than this one. */
  toutes: StatistiquesPrix;
  /** Those of them of this campaign's harvest year. */
  annee: StatistiquesPrix;
  anneeRecolte: number;
  /** The reference-source price of a product of origin 773, when the reference data has one. */
  reference: { prixPhytcom: number; unite: string | null; datePhytcom: string | null; libelle: string | null; source: string | null } | null;
  /** The reference source is asked (origin 773). */
  referenceApplicable: boolean;
  unite: string | null;
};
