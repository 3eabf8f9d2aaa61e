export { lireTache, listerTachesEnCours, type TacheVue } from "./service";
