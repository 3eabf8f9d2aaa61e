import type { Db } from "../db/knex";
import { parseJson, toIso } from "../db/dialect";

export type AuditAction =
  | "dossier.create"
  | "dossier.update"
  | "dossier.delete"
  | "dossier.droits"
  | "exploitation.create"
  | "exploitation.update"
  | "exploitation.delete"
  | "exploitation.duplicate"
  | "exploitation.dossier-add"
  | "exploitation.dossier-remove"
  | "exploitation.droits"
  | "campagne.create"
  | "campagne.update"
  | "campagne.delete"
  | "campagne.unlock"
  | "campagne.scenario"
  | "utilisateur.create"
  | "utilisateur.update"
  | "utilisateur.disable"
  | "utilisateur.enable"
  | "utilisateur.password"
  | "groupe.create"
  | "groupe.update"
  | "groupe.delete"
  | "oad.create"
  | "oad.update"
  | "oad.delete"
  | "calcul-serie.lancer"
  | "calcul-serie.publication"
  | "calcul-serie.remarque"
  | "calcul-serie.visa"
  | "calcul-serie.retrait-visa";

export type AuditEntry = {
  idUser: number | null;
  userLabel: string;
  action: AuditAction;
  entite: string;
  idEntite?: number | null;
  idDossier?: number | null;
  idExploitation?: number | null;
  details?: Record<string, unknown>;
};

export async function recordAudit(db: Db, e: AuditEntry): Promise<void> {
  await db("audit").insert({
    idUser: e.idUser,
    userLabel: e.userLabel,
    action: e.action,
    entite: e.entite,
    idEntite: e.idEntite ?? null,
    idDossier: e.idDossier ?? null,
    idExploitation: e.idExploitation ?? null,
    details: JSON.stringify(e.details ?? {}),
  });
}

export type AuditRow = {
  id: number;
  userLabel: string;
  action: AuditAction;
  entite: string;
  idEntite: number | null;
  details: Record<string, unknown>;
  createdAt: string;
};

export async function listAudit(db: Db, where: { idDossier?: number; idExploitation?: number }, limit = 50): Promise<AuditRow[]> {
  const q = db("audit").select("id", "userLabel", "action", "entite", "idEntite", "details", "createdAt").orderBy("id", "desc").limit(limit);
  if (where.idDossier) q.where({ idDossier: where.idDossier });
  if (where.idExploitation) q.where({ idExploitation: where.idExploitation });
  const rows = await q;
  return rows.map((r) => ({ ...r, details: parseJson(r.details, {}), createdAt: toIso(r.createdAt) }));
}
