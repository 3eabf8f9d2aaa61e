import type { Db } from "../db/knex";

export type JetonPersonnelRow = { id: number; nom: string; acces: "lecture" | "ecriture"; expiresAt: string; lastUsedAt: string | null; createdAt: string };

const iso = (v: unknown): string | null => (v == null ? null : new Date(v as string).toISOString());

/** The personal access tokens of a user (never their hash), newest first. */
export async function listJetonsPersonnels(db: Db, idUser: number): Promise<JetonPersonnelRow[]> {
  const rows = await db("api_token")
    .where({ idUser, nature: "personnel" })
    .orderBy("id", "desc")
    .select("id", "label", "acces", "expiresAt", "lastUsedAt", "createdAt");
  return rows.map((r: Record<string, unknown>) => ({
    id: Number(r.id),
    nom: String(r.label),
    acces: r.acces === "lecture" ? "lecture" : "ecriture",
    expiresAt: iso(r.expiresAt)!,
    lastUsedAt: iso(r.lastUsedAt),
    createdAt: iso(r.createdAt)!,
  }));
}

export async function countJetonsPersonnels(db: Db, idUser: number): Promise<number> {
  const r = await db("api_token").where({ idUser, nature: "personnel" }).count<{ n: number | string }[]>({ n: "*" }).first();
  return Number(r?.n ?? 0);
}

/** Deletes one token of the user: false when he has none of that id. */
export async function deleteJeton(db: Db, idUser: number, id: number, nature?: string): Promise<boolean> {
  return (
    (await db("api_token")
      .where({ id, idUser, ...(nature ? { nature } : {}) })
      .delete()) > 0
  );
}
