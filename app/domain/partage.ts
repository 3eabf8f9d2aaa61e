import { z } from "zod";
import { MAX_IDS, optionalNumber, optionalText, requiredArray, requiredNumber, requiredText, rowId } from "./validation";

/** Schemas of the sharing screens (spec 1 §2, §5): folders, farms, links, rights, campaigns, farm duplication. */

const checkbox = z.preprocess((v) => v === true || v === "on" || v === "true" || v === "1", z.boolean());
const id = () => requiredNumber({ integer: true, min: 1 });

export const DossierSchema = z.object({
  libelle: requiredText({ max: 255 }),
  remarque: optionalText({ max: 4000, multiline: true }),
  idOad: id(),
});
export type DossierInput = z.infer<typeof DossierSchema>;

export const FolderUserRightSchema = z.object({
  idUser: id(),
  udoAnimation: z.boolean(),
  udoEcriture: z.boolean(),
  udoLecture: z.boolean(),
  udoSynthese: z.boolean(),
  /** Ticked for removal from the folder. */
  removed: z.boolean().optional(),
});
/** The folder's user rights, saved together as one list (A-FOLDER-16). */
export const FolderRightsSchema = z.object({ rows: z.array(FolderUserRightSchema).max(MAX_IDS, "warning.too-many") });
export type FolderRightsInput = z.infer<typeof FolderRightsSchema>;

export const NewExploitationSchema = z.object({
  libelle: requiredText({ max: 255 }),
  idTypeExploitation: id(),
});

export const ExploitationSettingsSchema = z.object({
  libelle: requiredText({ max: 255 }),
  idTypeExploitation: optionalNumber({ integer: true, min: 1 }),
});

const farmRight = {
  dexEcriture: checkbox,
  dexLecture: checkbox,
  dexSynthese: checkbox,
  dexAnimation: checkbox,
  dexNominatif: checkbox,
};

export const FarmLinkSchema = z.object({ idDossierExploitation: id(), ...farmRight, removed: checkbox.optional() });
export const FarmLinksSchema = z.object({ links: z.array(FarmLinkSchema).max(MAX_IDS, "warning.too-many") });

/** Add-folder dialog of the farm settings: network and folder required (A-FARM-09, 10). */
export const AddFolderToFarmSchema = z.object({ idOad: id(), idDossier: id(), ...farmRight });

export const CAMPAIGN_YEAR_BOUNDS = { min: 1950, max: 2100 };

/** New campaign (spec 1 §3, §5): harvest year required and numeric; duplication options only with a source. */
export const NewCampagneSchema = z
  .object({
    anneeRecolte: requiredNumber({ integer: true, ...CAMPAIGN_YEAR_BOUNDS }),
    apiLibelle: optionalText({ max: 200 }),
    campagneSource: optionalNumber({ integer: true, min: 1 }),
    campagneHistoParcelle: optionalNumber({ integer: true, min: 1 }),
    inter: checkbox,
    majDtInter: checkbox,
    obs: checkbox,
    eltObserve: checkbox,
    valeur: checkbox,
    prix: checkbox,
  })
  .transform((c) =>
    c.campagneSource
      ? { ...c, majDtInter: c.inter && c.majDtInter, eltObserve: c.obs && c.eltObserve, valeur: c.obs && c.valeur }
      : { ...c, inter: false, majDtInter: false, obs: false, eltObserve: false, valeur: false, prix: false },
  );
export type NewCampagneInput = z.infer<typeof NewCampagneSchema>;

/** A campaign's libelle: its prefix (the harvest year) plus its label, apiLibelle (spec 1 §3, A-ENT-04). */
export function campagneLibelle(c: { prefixeCampagne: string; apiLibelle: string }): string {
  return [c.prefixeCampagne, c.apiLibelle].filter(Boolean).join(" ");
}

/** Farm duplication (spec 3 §3.11, §5): name, farm type, network and destination folder required. */
export const FarmDuplicationSchema = z.object({
  libelle: requiredText({ max: 255 }),
  idTypeExploitation: id(),
  idOad: id(),
  idDossier: id(),
  campagnesCibles: requiredArray(rowId()),
});
export type FarmDuplicationInput = z.infer<typeof FarmDuplicationSchema>;

/** The farm duplication payload (spec 3 §3.11). */
export type FarmDuplicationPayload = {
  libelle: string;
  idTypeExploitation: number;
  idDossier: number;
  dupliBaseDossier: boolean | undefined;
  dossierSource: number;
  exploitationSource: number;
  campagnesCibles: number[];
};

/**
 * Builds the farm duplication payload from the dialog's input and the context (spec 3 §3.11, §4.9):
 * dupliBaseDossier is true when the destination folder differs from the current folder, false otherwise,
 * and left undefined when the feature flag is on (C-SCEN-10, C-SCEN-11, C-SCEN-12).
 */
export function farmDuplicationPayload(
  input: Pick<FarmDuplicationInput, "libelle" | "idTypeExploitation" | "idDossier" | "campagnesCibles">,
  source: { idDossier: number; idExploitation: number },
  featureFlag: boolean,
): FarmDuplicationPayload {
  return {
    libelle: input.libelle,
    idTypeExploitation: input.idTypeExploitation,
    idDossier: input.idDossier,
    dupliBaseDossier: featureFlag ? undefined : input.idDossier !== source.idDossier,
    dossierSource: source.idDossier,
    exploitationSource: source.idExploitation,
    campagnesCibles: [...input.campagnesCibles],
  };
}

/** The farm duplication's default name: the current name followed by an underscore (C-SCEN-09). */
export const defaultDuplicateName = (libelle: string) => `${libelle}_`;

/** Scenarios of a harvest year: exactly one campaign is the base (non-simulation) one (C-SCEN-01, 02). */
export const ScenariosSchema = z
  .object({ campagnes: z.array(z.object({ id: id(), simulation: z.boolean() })).max(MAX_IDS, "warning.too-many") })
  .refine((s) => s.campagnes.filter((c) => !c.simulation).length === 1, { message: "campagne.scenario-one-base", path: ["campagnes"] });

/** The simulation flag of a new campaign: true when a campaign of that harvest year already exists (A-CAMP-05, 06). */
export function isSimulationYear(existingYears: readonly number[], anneeRecolte: number | undefined): boolean {
  return anneeRecolte !== undefined && existingYears.includes(anneeRecolte);
}

/**
 * The history reference of a new campaign (A-CAMP-08..10): a source of the previous year is the reference;
 * otherwise the user may pick among the previous year's campaigns with the same simulation flag.
 */
export function historyReferenceOptions<C extends { id: number; anneeRecolte: number; simulation: boolean }>(
  campagnes: readonly C[],
  anneeRecolte: number | undefined,
  source: C | undefined,
  simulation: boolean,
): { automatic: C | null; options: C[] } {
  if (anneeRecolte === undefined) return { automatic: null, options: [] };
  if (source && source.anneeRecolte === anneeRecolte - 1) return { automatic: source, options: [] };
  return { automatic: null, options: campagnes.filter((c) => c.anneeRecolte === anneeRecolte - 1 && c.simulation === simulation) };
}
