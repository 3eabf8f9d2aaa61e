import { describe, expect, test } from "vitest";
import { decodeInterventions } from "~/domain/contracts/interventions-codec";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { insertUser, selectTilleuls, scopeOf } from "../../tests/helpers/service";
import type { Db } from "../db/knex";
import type { Utilisateur } from "../utilisateur/repo";
import { getInterventionsPacked } from "./service";

const t = useTestDb();

/** The screen's loader as the route calls it: one request's scope, its context view loaded once (server/access/scope.ts). */
const load = (db: Db, user: Utilisateur, parcelleIds: number[]) => getInterventionsPacked(scopeOf(db, user), { parcelleIds });

/**
 * The rows are kept per campaign version for everyone (decision 0063), but the rights are decided for each request
 * and each user before any row is given (decision 0076): a user who may not read the farm never gets the kept rows.
 */
describe(`interventions screen: rights decided per request (${dialect})`, () => {
  test("[issue11-perf] the kept rows go only to a user who may read the campaign, as his rights are now", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const plots = (await db("parcelle").where({ idCampagne }).orderBy("id").pluck("id")).map(Number);
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const first = await load(db, redacteur, plots);
    expect(decodeInterventions(first.rows).length).toBeGreaterThan(0);
    expect((await load(db, redacteur, plots)).rows).toBe(first.rows); // kept

    // A user without any right, whose stored context names the same campaign (written directly, as a stale
    // selection would be): no campaign for him, so no rows.
    const stranger = { ...redacteur, id: await insertUser(db, { username: "etranger", nom: "Étranger", prenom: "Eve" }), username: "etranger" };
    const context = await db("utilisateur_contexte").where({ idUser: redacteur.id }).first();
    await db("utilisateur_contexte").insert({ ...context, idUser: stranger.id });
    await expect(load(db, stranger, plots)).rejects.toMatchObject({ init: { status: 412 } });

    // The writer loses his right on the folder: the next request is refused, although the rows are still kept.
    const rights = await db("utilisateur_dossier").where({ idUser: redacteur.id, idDossier: t.demo().dossiers.beauce }).first();
    await db("utilisateur_dossier").where({ id: rights.id }).delete();
    await expect(load(db, redacteur, plots)).rejects.toMatchObject({ init: { status: 412 } });
    await db("utilisateur_dossier").insert(rights);
    expect((await load(db, redacteur, plots)).rows).toBe(first.rows);

    // Plots of another campaign asked by their ids are not shown: only the selected campaign's (the first plot then).
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2024");
    const other = await load(db, lecteur, plots);
    expect(other.canWrite).toBe(false);
    const own = (await db("parcelle").where({ idCampagne: t.demo().campagnes.tilleuls2024 }).pluck("id")).map(Number);
    expect(other.selection.every((id) => own.includes(id))).toBe(true);
    expect(decodeInterventions(other.rows).every((r) => own.includes(r.idParcelle))).toBe(true);
  });
});
