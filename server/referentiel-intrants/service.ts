import { EAU as EAU_DOMAINE } from "~/domain/intrant";
import type { Db } from "../db/knex";
import * as repo from "./repo";

/**
 * The input catalogues read by the intervention dialogs (spec 3 §3.4, §7, §9; decision 0029). Global
 * reference data: any signed-in user may read them; the folder inputs added to each list are those of the
 * folder the caller passes (the selected folder of the context; the caller checks it is readable).
 */
export type {
  AutreIntrantRef,
  CategorieRef,
  CibleRef,
  DoseReference,
  DosesReference,
  FertilisantRef,
  MatiereActive,
  PhytoRef,
  SemenceCulture,
  SemenceRef,
} from "./repo";
export { ELEMENTS, ORIGINE_DOSSIER, ORIGINE_REFERENCE, TYPE_AUTRE, TYPE_EAU, TYPE_FERTILISANT, TYPE_PHYTO, TYPE_SEMENCE } from "./repo";

/** Water (C-WATER-06): the reference input 20011 of origin 776; not a catalogue row (decision 0029). */
export const EAU = { ...EAU_DOMAINE, libelle: "Eau d'irrigation", libelleEn: "Irrigation water", unite: "mm" } as const;

export function isEau(input: { idIntrant?: number | null; dicIdOrigineIntrant?: number | null }): boolean {
  return input.idIntrant === EAU.idIntrant && input.dicIdOrigineIntrant === EAU.origine;
}

/** Plant-protection products whose name, other trade names or AMM match (spec `intrant_phytos`, `intrant_phytos/dossier/{id}`). */
export function rechercherPhytos(db: Db, opts: { q?: string; idDossier?: number | null; limit?: number; inclureRetires?: boolean }) {
  return repo.searchPhytos(db, opts);
}

/** The reference products of these AMM numbers (withdrawn included), keyed by AMM: for importers and saved inputs. */
export function phytosParAmm(db: Db, amms: string[]) {
  return repo.phytosParAmm(db, amms);
}

/** `matiere_actives/{idProduit-idSource}` (C-PHYTO-16). */
export function matiereActive(db: Db, cle: string, idDossier?: number | null) {
  return repo.getMatiereActive(db, cle, idDossier);
}

/** `reference_dose_cible_ifts` by codeAmm, idCulture, anneeRecolte, with `exists` per target (C-PHYTO-07, C-PHYTO-17). */
export function dosesReference(db: Db, opts: { codeAmm: string; idCulture: number; anneeRecolte: number; idCibles?: number[] }) {
  return repo.getDosesReference(db, opts);
}

/** `reference_fertilisants` by idTypeFertilisant and idDossier (C-FERT-10, C-FERT-19). */
export function fertilisants(db: Db, opts: { idTypeFertilisant?: number | null; idDossier?: number | null }) {
  return repo.listFertilisants(db, opts);
}

/** `reference_autre_intrants` (C-OTHER-06), with the folder's other inputs. */
export function autresIntrants(db: Db, opts: { idDossier?: number | null; dicIdTypeIntrant?: number | null } = {}) {
  return repo.listAutresIntrants(db, opts);
}

/** `reference_semences/{id}` and `reference_semence_sillon_dossiers/{id}` (decision 0141): varieties of a species, origin 776 and/or the folder's 777 (C-SEED-23, C-SEED-24). */
export function semences(db: Db, opts: { idCulture: number; idDossier?: number | null; origine?: number | null }) {
  return repo.listSemences(db, opts);
}

/** `reference_semences_{product}_dossiers`: a folder's own seed varieties of every species (origin 777). */
export function semencesDuDossier(db: Db, idDossier: number) {
  return repo.listSemencesDuDossier(db, idDossier);
}

/** culPmg and culGrainDose of a species (C-SEED-25). */
export function cultureSemence(db: Db, idCulture: number) {
  return repo.getCultureSemence(db, idCulture);
}

/** The categories of an input type (538 seed, 539 phyto, 540 fertiliser types 655–659, 542 water types, 543 other). */
export function categories(db: Db, idTypeIntrant: number) {
  return repo.listCategories(db, idTypeIntrant);
}

/** Targets (pests, diseases, weeds) of phyto inputs. */
export function cibles(db: Db, opts: { nature?: string | null; q?: string } = {}) {
  return repo.listCibles(db, opts);
}
