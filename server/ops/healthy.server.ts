import { db } from "../db/index";
import { databaseAnswers } from "./health";

/** The server's /healthz answer (server/start.js): whether the application's database answers. */
export const healthy = () => databaseAnswers(db());
