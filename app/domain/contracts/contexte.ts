import type { Abilities } from "../access/abilities";
import type { CampaignPermissions } from "../access/lock";
import type { FarmRight, FolderRight } from "../access/rights";

/** What the context bar and its dialogs read of the user's selection (server/contexte/service.ts, spec 1 §3). */

export type OadOption = { id: number; libelle: string; libelleLong: string | null; international: boolean; emailAcces: string | null };

export type DossierOption = { id: number; libelle: string; idOad: number; right: FolderRight };

export type ExploitationOption = { id: number; libelle: string; suffixe: string | null; right: FarmRight };

export type CampagneOption = {
  id: number;
  idExploitation: number;
  anneeRecolte: number;
  prefixeCampagne: string;
  apiLibelle: string;
  /** The prefix plus the label (spec 1 §3). */
  libelle: string;
  simulation: boolean;
  serieValide: boolean;
  indicateurPublie: boolean;
};

/** The user's context: the lists the bar offers, what is selected, and the rights and lock of the selected campaign. */
export type ContextView = {
  oads: OadOption[];
  dossiers: DossierOption[];
  exploitations: ExploitationOption[];
  campagnes: CampagneOption[];
  selected: { idOad: number | null; idDossier: number | null; exploitations: number[]; idCampagne: number | null };
  campagne: CampagneOption | null;
  lock: CampaignPermissions | null;
  abilities: Abilities;
  hasNewPost: boolean;
};
