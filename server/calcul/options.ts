import type { OptionsCalcul } from "~/domain/calc/indicateurs/types";
import { bool } from "../db/dialect";

/**
 * The engine's options for a campaign, the same for the live plot panel and the calculation series (decision 0085):
 * a simulation counts its planned interventions, any other campaign its done ones.
 */
export const optionsCampagne = (c: { simulation: unknown }): OptionsCalcul => ({ realisation: bool(c.simulation) ? "prevue" : "realisee" });
