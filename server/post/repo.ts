import type { Db } from "../db/knex";

export async function listPosts(db: Db, limit = 20) {
  const rows = await db("post").select("id", "title", "content", "creationDate", "postCategory", "image").orderBy("creationDate", "desc").limit(limit);
  return rows.map((r) => ({ ...r, creationDate: new Date(r.creationDate).toISOString() }));
}
