/** What the copy and duplication dialogs offer (server/copie/service.ts, spec 3 §3.11). */

export type CopieParcelle = { id: number; libelle: string };
export type CopieCampagne = { id: number; libelle: string; parcelles: CopieParcelle[] };
export type CopieChoices = {
  /** The current folder: the folder of the duplication's sources. */
  idDossier: number | null;
  /** Folders › farms › campaigns › plots the user may write (C-RIGHTS-21): destinations of an export or a duplication. */
  destinations: { id: number; libelle: string; exploitations: { id: number; libelle: string; campagnes: CopieCampagne[] }[] }[];
  /** The current folder's readable farms › campaigns › plots: sources of a duplication. */
  sources: { id: number; libelle: string; campagnes: CopieCampagne[] }[];
  /** The current farm's campaigns › plots › interventions: the import's sources (C-COPY-06). */
  imports: (CopieCampagne & { interventions: { id: number; idParcelle: number; date: string; operation: string | null }[] })[];
};
