/** What the eDaplos export screen reads (server/interop/edaplos/service.ts; spec 3 §3.12). */

export type SessionEdaplosVue = {
  id: number;
  /** The file name. */
  libelle: string;
  dtDebExport: string;
  dtFinExport: string | null;
  /** Bytes of the finished file. */
  taille: number | null;
  succes: boolean;
  /** 0 finished, 2 error; anything else, or no end date: in progress (spec 3 §4.6). */
  statut: number;
  idTache: number | null;
  campagnes: { id: number; libelle: string; prefixeCampagne: string | null; exploitation: { libelle: string } }[];
};

export type LigneLogVue = {
  id: number;
  /** 1 information, 2 error (shown in red). */
  niveau: number;
  /** Key under edaplos.logs, with its parameters. */
  logMessage: string;
  parametres: Record<string, string | number>;
  exploitation: { id: number; libelle: string | null } | null;
  campagne: { id: number; libelle: string | null } | null;
  modeConduite: { id: number; libelle: string | null } | null;
  parcelle: { id: number; libelle: string | null } | null;
  action: { id: number; dicIdTypeAction: number | null; libelle: string | null; date: string | null } | null;
  intrant: { id: number; libelle: string | null } | null;
};

/** The state a session is shown in (spec 3 §4.6: statut 0 finished, 2 error, any other or no end date in progress). */
export function etatSession(s: Pick<SessionEdaplosVue, "statut" | "dtFinExport">): "termine" | "erreur" | "en-cours" {
  if (s.statut === 2) return "erreur";
  if (s.statut === 0 && s.dtFinExport != null) return "termine";
  return "en-cours";
}
