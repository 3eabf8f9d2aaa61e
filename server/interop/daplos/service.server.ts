// Loading this module registers the Daplos import's job (definirTache in ./service): the import screen's route imports it.
export {
  apercuImportDaplos,
  destinationsImportDaplos,
  EXTENSIONS_DAPLOS,
  historiqueImportsDaplos,
  lancerImportDaplos,
  rapportImportDaplos,
  type DemandeImport,
  type LigneHistorique,
  type RapportImport,
} from "./service";
export { TAILLE_MAX_DAPLOS } from "./lecteur";
