/** The selection panel of farms and campaigns of the resultats screens (spec 1 §2, spec 3 §2.11). */

/** Which screen the panel serves; it decides the right asked on each farm (server/resultats/selection.ts). */
export type PorteeSelection = "calcul" | "donneesBrutes" | "indicateurs" | "edaplos";

export type CampagneSelectionnable = { id: number; libelle: string; anneeRecolte: number; simulation: boolean };

export type ChoixCampagnes = {
  dossiers: { id: number; libelle: string; exploitations: { id: number; libelle: string; campagnes: CampagneSelectionnable[] }[] }[];
  /** The folder of the context: its panel is open first. */
  idDossierCourant: number | null;
};

/** The query parameter that carries the selected campaigns (repeated), so a reload or a link keeps them. */
export const PARAM_CAMPAGNE = "campagne";
