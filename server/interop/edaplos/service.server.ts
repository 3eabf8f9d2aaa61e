// The eDaplos export job registers itself when the server loads this module (server/jobs/runner.ts).
export {
  creerExportEdaplos,
  fichierEdaplos,
  lireLogEdaplos,
  lireSessionEdaplos,
  listerSessionsEdaplos,
  logsSessionEdaplos,
  supprimerSessionEdaplos,
  EDAPLOS_CREATE_ERROR,
  EDAPLOS_LOAD_ERROR,
  EDAPLOS_MESSAGE_ERROR,
  LOGS_ERROR,
  NATURE_EDAPLOS,
  TACHE_EXPORT_EDAPLOS,
  type LigneLogVue,
  type SessionEdaplosVue,
} from "./service";
