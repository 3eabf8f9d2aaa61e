import { z } from "zod";
import { apiCall, type ApiCall } from "../http/api.server";
import { getDicos, getListe, listReferentiels, NOMS_LISTES, REFERENTIELS } from "../referentiel/service";

/**
 * The reference-list calls of the JSON API (spec 1 §7, spec 2 §7, spec 3 §9; issue 26, decision 0120): the lists by
 * name and the numbered referential lists (referentiels/{n}/dicos), read by any signed-in token, through the
 * reference service (server/referentiel/service.ts).
 */

const id = z.number().int();
/** A row of a list: its table's own fields (id, libelle, libelleEn, code, ordre, ... as the table has them). */
const Ligne = z.looseObject({}).describe("A row of the list with its table's fields; libelle in English with locale=en where the row has one");
const Dico = z.looseObject({ id, libelle: z.string(), libelleEn: z.string().nullable() }).describe("An entry of the referential list");

export const APPELS_REFERENTIELS: readonly ApiCall[] = [
  // A-API-35, B-API-23, C-CONST-11
  apiCall({
    method: "GET",
    path: "/api/v1/references",
    tag: "references",
    summary: "The names of the reference lists served by name",
    answer: z.array(z.string()),
    handle: async () => NOMS_LISTES,
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/references/{nom}",
    tag: "references",
    summary: `A reference list by its name (${NOMS_LISTES.join(", ")}); communes take the query departement (numDept); another name: 404`,
    params: z.object({ nom: z.string().max(60) }),
    query: z.object({ departement: z.string().max(3).optional() }),
    answer: z.array(Ligne),
    refusals: [404],
    handle: ({ scope, params, query, locale }) => getListe(scope, params.nom, { departement: query.departement, locale }),
  }),
  // C-CONST-12, C-CONST-13, C-CONST-14
  apiCall({
    method: "GET",
    path: "/api/v1/referentiels",
    tag: "references",
    summary: "The numbered referential lists served as referentiels/{n}/dicos, with their labels",
    answer: z.array(z.object({ code: z.string(), libelle: z.string() })),
    handle: async () => listReferentiels(),
  }),
  apiCall({
    method: "GET",
    path: "/api/v1/referentiels/{n}/dicos",
    tag: "references",
    summary: `The entries of a referential list: n among ${Object.keys(REFERENTIELS).join(", ")} (entry 9297 left out); another n: 404`,
    params: z.object({ n: z.string().max(20) }),
    answer: z.array(Dico),
    refusals: [404],
    handle: ({ scope, params, locale }) => getDicos(scope, params.n, locale),
  }),
];
