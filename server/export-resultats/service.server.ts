// Loading this module registers the result export's job (definirTache in ./service).
export { ecranIndicateursPublies, lancerExportResultats, type SeriePubliee } from "./service";
