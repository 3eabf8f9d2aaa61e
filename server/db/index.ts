import { env } from "../env";
import { createDb, type Db } from "./knex";

let instance: Db | undefined;

/** The application's database, from DATABASE_URL (SQLite file by default). */
export function db(): Db {
  instance ??= createDb(env().DATABASE_URL, env().DATA_DIR);
  return instance;
}
