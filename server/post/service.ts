import type { Db } from "../db/knex";
import { listPosts } from "./repo";

/** The news posts every signed-in user reads (the home page's, GET posts; A-API-30), newest first. */
export function getPosts(db: Db, limit = 20) {
  return listPosts(db, limit);
}
