// The job kinds of the exports register themselves when the server loads this module (server/jobs/runner.ts).
import "./donnees-brutes";

export {
  creerSessionExport,
  fichierSessionExport,
  listerDonneesExportables,
  listerSessionsExport,
  supprimerSessionExport,
  NATURE_CALCUL,
  NATURE_DONNEES_BRUTES,
  type SessionExportVue,
} from "./service";
export { creerExportDonneesBrutes, TACHE_EXPORT_DONNEES_BRUTES } from "./donnees-brutes";
export { TACHE_EXPORT_CALCUL, typeTacheExport } from "./natures";
