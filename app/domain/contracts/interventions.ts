import type { IntrantDetail } from "~/domain/intrant";
import type { RecolteDetail } from "~/domain/recolte";

/** What the interventions screen's loader gives its components (server/intervention/service.ts). */
export type ParcelleChoix = { id: number; libelle: string; irrigable: boolean; surface: number | null; idModeConduite: number | null };
export type OperationChoix = {
  id: number;
  libelle: string;
  idTypeAction: number;
  debitReel: number | null;
  debitCalcule: number | null;
  volumeBouillie: number | null;
  materiels: { id: number; libelle: string }[];
  mainOeuvres: { id: number; libelle: string }[];
};
export type CultureChoix = { id: number; libelle: string; libelleEn: string | null; interculture: boolean };
export type InterventionRow = {
  id: number;
  updatedAt: string;
  idParcelle: number;
  date: string;
  idOperationCulturale: number | null;
  idCultureConcernee: number | null;
  debit: number | null;
  frequence: number;
  tauxSurface: number;
  nombrePassage: number | null;
  realisee: boolean;
  prevue: boolean;
  intrants: IntrantDetail[];
  /** The harvest products of the intervention (decision 0031), shown with the inputs. */
  recoltes: RecolteDetail[];
  rdd: boolean;
} & RegistreChamps;
/** The register's fields of an intervention (issue 28, decision 0105), absent when empty. */
export type RegistreChamps = {
  heureDebut?: string;
  heureFin?: string;
  idStadeCulture?: number;
  precisionStade?: string;
  siretPrestataire?: string;
  rentreeAnticipee?: boolean;
  lotSemences?: string;
};
/** A BBCH stage of a crop scale (stade_culture), for the register's stage column. */
export type StadeChoix = { id: number; libelle: string; libelleEn: string | null; code: string | null };
export type InterventionsData = {
  canWrite: boolean;
  /** May edit the folder's unreferenced inputs: an animator of the selected folder (decision 0032). */
  canEditFolderInputs?: boolean;
  parcelles: ParcelleChoix[];
  selection: number[];
  rows: InterventionRow[];
  operations: OperationChoix[];
  cultures: CultureChoix[];
  /** The stages of the campaign's crops' scales (issue 28). */
  stades?: StadeChoix[];
  anneeRecolte: number;
};
