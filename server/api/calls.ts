import type { ApiCall } from "../http/api.server";
import { APPELS_CADRE } from "./appels-cadre";
import { APPELS_EXPLOITATION } from "./appels-exploitation";
import { APPELS_CAMPAGNES } from "./appels-campagnes";
import { APPELS_FERMES } from "./appels-fermes";
import { APPELS_INTERVENTIONS } from "./appels-interventions";
import { APPELS_INTRANTS, APPELS_INTRANTS_SUITE } from "./appels-intrants";
import { APPELS_RECOLTES_SUITE } from "./appels-recoltes-suite";
import { APPELS_PRIX } from "./appels-prix";
import { APPELS_PROTOCOLES } from "./appels-protocoles";
import { APPELS_CALCUL } from "./appels-calcul";
import { APPELS_EXPORTS } from "./appels-exports";
import { APPELS_COPIES } from "./appels-copies";
import { APPELS_INTEROP } from "./appels-interop";
import { APPELS_DESCRIPTION } from "./appels-description";
import { APPELS_OBSERVATIONS } from "./appels-observations";
import { APPELS_CONDUITES } from "./appels-conduites";
import { APPELS_OBSERVATIONS_SUITE } from "./appels-observations-suite";
import { APPELS_REFERENTIELS } from "./appels-referentiels";
import { APPELS_CARACTERISTIQUES } from "./appels-caracteristiques";
import { APPELS_MATERIEL } from "./appels-materiel";

/**
 * The calls of the JSON API (spec 1 §7, spec 2 §7; issue 26), each a few lines: its path, its schemas (the screens'
 * own, from app/domain) and the service that answers it. No SQL and no rights check here: the services do both, as
 * for the screens. The adapter and the OpenAPI document are in server/http/api.server.ts.
 *
 * Each file of server/api declares the calls of one part of the product; this list gathers them in the order the
 * OpenAPI document shows them. Schemas shared by several files are in ./schemas.ts.
 */
export const API_CALLS: readonly ApiCall[] = [
  ...APPELS_CADRE,
  ...APPELS_FERMES,
  ...APPELS_EXPLOITATION,
  ...APPELS_CAMPAGNES,
  ...APPELS_CARACTERISTIQUES,
  ...APPELS_DESCRIPTION,
  ...APPELS_MATERIEL,
  ...APPELS_CONDUITES,
  ...APPELS_OBSERVATIONS,
  ...APPELS_OBSERVATIONS_SUITE,
  ...APPELS_INTERVENTIONS,
  ...APPELS_INTRANTS,
  ...APPELS_INTRANTS_SUITE,
  ...APPELS_RECOLTES_SUITE,
  ...APPELS_PRIX,
  ...APPELS_PROTOCOLES,
  ...APPELS_CALCUL,
  ...APPELS_EXPORTS,
  ...APPELS_COPIES,
  ...APPELS_INTEROP,
  ...APPELS_REFERENTIELS,
];
