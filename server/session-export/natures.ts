import { TACHE_EXPORT_DONNEES_BRUTES } from "./donnees-brutes";
import { NATURE_CALCUL } from "./service";

/** The job of the result export (nature 1): its handler registers this type (definirTache) with ecrireSessionExport. */
export const TACHE_EXPORT_CALCUL = "export-calcul";

/** The job type that writes a session of this nature (POST session_exports). */
export function typeTacheExport(nature: number): string {
  return nature === NATURE_CALCUL ? TACHE_EXPORT_CALCUL : TACHE_EXPORT_DONNEES_BRUTES;
}
