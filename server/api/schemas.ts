import { z } from "zod";
import { JETON_ACCES } from "~/domain/jeton-api";
import { rowId } from "~/domain/validation";

/**
 * Answer and parameter schemas shared by several call files of the API (server/api/*.ts). The answers carry an `id`
 * (`.meta`): the OpenAPI document keeps each once in `components/schemas` under that name (decision 0134).
 */

export const byId = z.object({ id: rowId() });
export const stamp = z.string().describe("ISO 8601 date and time");

export const Utilisateur = z
  .object({
    id: z.number().int(),
    username: z.string(),
    nom: z.string(),
    prenom: z.string(),
    email: z.string().nullable(),
    acceptcgu: z.boolean(),
    isVisible: z.boolean(),
    /** The token a PATCH of the profile sends back (a stale save is refused). */
    updatedAt: stamp,
  })
  .meta({ id: "Utilisateur" });
export const UtilisateurConnecte = Utilisateur.extend({ admin: z.boolean(), roles: z.array(z.string()) }).meta({ id: "UtilisateurConnecte" });

export const Groupe = z.object({ idGroupe: z.number().int(), nomGroupe: z.string() }).meta({ id: "Groupe" });
export const Oad = z.object({ id: z.number().int(), libelle: z.string(), libelleLong: z.string().nullable() }).meta({ id: "Oad" });
/** A folder's libelle is sent as apiLibelle too, with its optional suffixe (spec 1 §3, A-ENT-01). */
export const DossierListItem = z
  .object({
    id: z.number().int(),
    libelle: z.string(),
    apiLibelle: z.string(),
    suffixe: z.string().nullable(),
    idOad: z.number().int(),
  })
  .meta({ id: "DossierListItem" });
export const Dossier = z
  .object({
    id: z.number().int(),
    libelle: z.string(),
    apiLibelle: z.string(),
    suffixe: z.string().nullable(),
    idOad: z.number().int(),
    remarque: z.string(),
    updatedAt: stamp,
  })
  .meta({ id: "Dossier" });
export const Jeton = z
  .object({
    id: z.number().int(),
    nom: z.string(),
    acces: z.enum(JETON_ACCES),
    expiresAt: stamp,
    lastUsedAt: stamp.nullable(),
    createdAt: stamp,
  })
  .meta({ id: "Jeton" });
export const NouveauJeton = z
  .object({ id: z.number().int(), nom: z.string(), acces: z.enum(JETON_ACCES), expiresAt: stamp, token: z.string() })
  .meta({ id: "NouveauJeton" });
export const Parcelle = z
  .looseObject({
    id: z.number().int(),
    idCampagne: z.number().int(),
    libelle: z.string(),
    surface: z.number().nullable(),
    libelleModeConduite: z.string().nullable(),
    libelleLot: z.string().nullable(),
    parcellesHistorique: z.array(z.number().int()),
    updatedAt: stamp,
  })
  .meta({ id: "Parcelle" });

export const FarmRight = z
  .object({
    dexEcriture: z.boolean(),
    dexLecture: z.boolean(),
    dexSynthese: z.boolean(),
    dexAnimation: z.boolean(),
    dexNominatif: z.boolean(),
  })
  .meta({ id: "FarmRight" });
export const ExploitationListItem = z
  .object({
    id: z.number().int(),
    libelle: z.string(),
    apiLibelle: z.string(),
    suffixe: z.string().nullable(),
    idDossier: z.number().int(),
    dossierExploitation: FarmRight,
  })
  .meta({ id: "ExploitationListItem" });
export const Campagne = z
  .object({
    id: z.number().int(),
    idExploitation: z.number().int(),
    anneeRecolte: z.number().int(),
    prefixeCampagne: z.string(),
    apiLibelle: z.string(),
    libelle: z.string(),
    simulation: z.boolean(),
    serieValide: z.boolean(),
    indicateurPublie: z.boolean(),
    anneeDerniereAction: z.number().int().nullable(),
    idCampagneHistoParcelle: z.number().int().nullable(),
    locked: z.boolean(),
  })
  .meta({ id: "Campagne" });

export const boolQuery = z.enum(["true", "false"]).transform((v) => v === "true");
