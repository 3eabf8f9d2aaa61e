import { z } from "zod";
import { numericInput, optionalNumber } from "./validation";

/**
 * The farm's soil characteristics (spec 2 §2 "Soil characteristics", §3 Farm soil fields) and the
 * replication choice of its dialog (§2, §9): 0 farm only, 1 current campaign, 2 all campaigns.
 * Replicating copies the farm's soil values onto the plots, plot groups and landscape features of
 * those campaigns.
 */
export const REPLICATION = { EXPLOITATION: 0, CAMPAGNE_COURANTE: 1, TOUTES_CAMPAGNES: 2 } as const;
export type Replication = (typeof REPLICATION)[keyof typeof REPLICATION];
export const REPLICATIONS: readonly Replication[] = [REPLICATION.EXPLOITATION, REPLICATION.CAMPAGNE_COURANTE, REPLICATION.TOUTES_CAMPAGNES];

/** Soil columns shared by the farm, plots, plot groups and landscape features (docs/data-model.md "Soil columns"). */
export const SOIL_FIELDS = [
  "idTypeSolArvalis",
  "idAeeTypeSol",
  "profondeurSolCm",
  "reserveUtileMm",
  "idTypeSousSol",
  "idAciditeSol",
  "idProfondeurSol",
] as const;
export type SoilField = (typeof SOIL_FIELDS)[number];

/** Which reference list each soil id belongs to. */
export const SOIL_LISTS = {
  idTypeSolArvalis: "type_sol_arvalis",
  idAeeTypeSol: "type_sol_aee",
  idTypeSousSol: "type_sous_sol",
  idAciditeSol: "acidite_sol",
  idProfondeurSol: "profondeur_sol",
} as const satisfies Partial<Record<SoilField, string>>;

/** Soil depth, cm, and available water capacity, mm: not negative, within their columns. */
export const PROFONDEUR_SOL_MAX_CM = 10_000;
export const RESERVE_UTILE_MAX_MM = 999_999.99;

const id = () => optionalNumber({ integer: true });

export const SoilSchema = z.object({
  idTypeSolArvalis: id(),
  idAeeTypeSol: id(),
  profondeurSolCm: optionalNumber({ integer: true, min: 0, max: PROFONDEUR_SOL_MAX_CM }),
  reserveUtileMm: optionalNumber({ min: 0, max: RESERVE_UTILE_MAX_MM }),
  idTypeSousSol: id(),
  idAciditeSol: id(),
  idProfondeurSol: id(),
  /** The replication dialog's choice; farm only when absent. */
  replication: z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? REPLICATION.EXPLOITATION : numericInput(v)),
    z.number({ error: "warning.invalid" }).refine((n): n is Replication => (REPLICATIONS as readonly number[]).includes(n), "warning.invalid"),
  ),
});
export type SoilInput = z.infer<typeof SoilSchema>;
export type SoilValues = Omit<SoilInput, "replication">;
