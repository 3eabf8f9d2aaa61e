import { afterAll, describe, expect, test } from "vitest";
import { snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_PROTOCOLES } from "../../server/api/appels-protocoles";
import { ProblemSchema } from "../../server/http/api.server";

/**
 * The rule evaluations of the JSON API (issue 27, C-API-31) over HTTP with a bearer token, on SQLite and PostgreSQL:
 * listed by intervention, plot or rule, created, read, updated with updatedAt, deleted; refusals store nothing.
 */

const t = useTestDb();
const { api, tokenOf, answered } = apiClient(t);

/** A plot of the campaign with a driving mode, one of its interventions, and a rule of the campaign that applies to it. */
async function fixture(campagne: "tilleuls2025" | "tilleuls2024" = "tilleuls2025") {
  const db = t.db();
  const idCampagne = t.demo().campagnes[campagne];
  const action = await db("action as a")
    .join("parcelle as p", "p.id", "a.idParcelle")
    .where({ "a.idCampagne": idCampagne })
    .whereNotNull("p.idModeConduite")
    .orderBy("a.id")
    .first("a.id", "a.idParcelle", "p.idModeConduite");
  const modes = db("rdd_mode_conduite").where({ idModeConduite: action.idModeConduite }).select("idRdd");
  const rule = await db("rdd")
    .where({ idCampagne })
    .andWhere((q) => q.where({ macroRegle: true }).orWhereIn("id", modes))
    .orderBy("id")
    .first("id");
  expect(rule).toBeTruthy();
  return { idCampagne, idAction: Number(action.id), idParcelle: Number(action.idParcelle), idRdd: Number(rule.id) };
}

const fields = { ecartSolution: 1, explicationEcart: "Passage décalé", ecartResultat: 0, justification: "Pluie", aModifier: false };

describe(`rule evaluations over the API (${dialect})`, () => {
  test("[C-API-31] POST rdd_evaluations on an intervention, GET by action, by rule and by id, PATCH with updatedAt (moved to the plot), DELETE; stored as answered", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const made = await api("POST", "/api/v1/rdd_evaluations", { token, body: { rdds: [f.idRdd], action: f.idAction, ...fields } });
    expect(made.status).toBe(201);
    const [e] = made.body as { id: number; updatedAt: string }[];
    expect(made.body).toEqual([expect.objectContaining({ idRdd: f.idRdd, idAction: f.idAction, idParcelle: null, ecartSolution: 1, justification: "Pluie" })]);
    expect(await t.db()("rdd_evaluation").where({ id: e.id }).first("idAction", "explicationEcart")).toMatchObject({ explicationEcart: "Passage décalé" });

    const byAction = await api("GET", `/api/v1/rdd_evaluations?action=${f.idAction}`, { token });
    expect((byAction.body as { id: number }[]).map((x) => x.id)).toContain(e.id);
    const byRule = await api("GET", `/api/v1/rdds/${f.idRdd}/rdd_evaluations`, { token });
    expect((byRule.body as { id: number; idRdd: number }[]).every((x) => x.idRdd === f.idRdd)).toBe(true);
    expect((byRule.body as { id: number }[]).map((x) => x.id)).toContain(e.id);
    expect((await api("GET", `/api/v1/rdd_evaluations/${e.id}`, { token })).body).toMatchObject({ id: e.id, ecartResultat: 0 });

    const patched = await api("PATCH", `/api/v1/rdd_evaluations/${e.id}`, {
      token,
      body: { rdds: [f.idRdd], parcelle: f.idParcelle, ...fields, ecartSolution: 2, updatedAt: e.updatedAt },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: e.id, idAction: null, idParcelle: f.idParcelle, ecartSolution: 2 });
    const byPlot = await api("GET", `/api/v1/rdd_evaluations?parcelle=${f.idParcelle}`, { token });
    expect((byPlot.body as { id: number }[]).map((x) => x.id)).toContain(e.id);
    const stale = await api("PATCH", `/api/v1/rdd_evaluations/${e.id}`, {
      token,
      body: { rdds: [f.idRdd], parcelle: f.idParcelle, ...fields, updatedAt: e.updatedAt },
    });
    expect(stale.status).toBe(409);
    expect(Number((await t.db()("rdd_evaluation").where({ id: e.id }).first("ecartSolution")).ecartSolution)).toBe(2);

    expect((await api("DELETE", `/api/v1/rdd_evaluations/${e.id}`, { token })).status).toBe(204);
    expect(await t.db()("rdd_evaluation").where({ id: e.id }).first("id")).toBeUndefined();
    expect((await api("GET", `/api/v1/rdd_evaluations/${e.id}`, { token })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/rdd_evaluations/${e.id}`, { token })).status).toBe(404);
  });

  test("[C-API-31] evaluation writes refused: a reader, a read-only token, a locked campaign (403); both or no target, a bad gap answer, an unknown field (400); an unknown intervention (404); nothing stored", async () => {
    const f = await fixture();
    const locked = await fixture("tilleuls2024");
    const before = await snapshot(t.db(), "rdd_evaluation");
    const redacteur = await tokenOf("redacteur");
    const cases: [string, string, unknown, number][] = [
      ["reader", await tokenOf("lecteur"), { rdds: [f.idRdd], action: f.idAction, ...fields }, 403],
      ["read-only token", await tokenOf("redacteur", { nature: "personnel", acces: "lecture" }), { rdds: [f.idRdd], action: f.idAction, ...fields }, 403],
      ["locked", redacteur, { rdds: [locked.idRdd], action: locked.idAction, ...fields }, 403],
      ["two targets", redacteur, { rdds: [f.idRdd], action: f.idAction, parcelle: f.idParcelle, ...fields }, 400],
      ["no target", redacteur, { rdds: [f.idRdd], ...fields }, 400],
      ["no rule", redacteur, { rdds: [], action: f.idAction, ...fields }, 400],
      ["bad gap", redacteur, { rdds: [f.idRdd], action: f.idAction, ...fields, ecartSolution: 7 }, 400],
      ["unknown field", redacteur, { rdds: [f.idRdd], action: f.idAction, ...fields, note: 1 }, 400],
      ["another campaign's rule", redacteur, { rdds: [locked.idRdd], action: f.idAction, ...fields }, 400],
      ["unknown intervention", redacteur, { rdds: [f.idRdd], action: 999999, ...fields }, 404],
    ];
    for (const [why, token, body, status] of cases) {
      const r = await api("POST", "/api/v1/rdd_evaluations", { token, body });
      expect([why, r.status]).toEqual([why, status]);
      ProblemSchema.parse(r.body);
    }
    const existing = await t.db()("rdd_evaluation as e").join("rdd as r", "r.id", "e.idRdd").where("r.idCampagne", f.idCampagne).first("e.id");
    expect((await api("DELETE", `/api/v1/rdd_evaluations/${existing.id}`, { token: await tokenOf("lecteur") })).status).toBe(403);
    expect(await snapshot(t.db(), "rdd_evaluation")).toEqual(before);
    // Reading: a reader of the farm may; a query naming no target is a 400; an unknown rule a 404.
    expect((await api("GET", `/api/v1/rdd_evaluations?action=${f.idAction}`, { token: await tokenOf("lecteur") })).status).toBe(200);
    expect((await api("GET", `/api/v1/rdd_evaluations`, { token: redacteur })).status).toBe(400);
    expect((await api("GET", `/api/v1/rdds/999999/rdd_evaluations`, { token: redacteur })).status).toBe(404);
  });
});

afterAll(() => {
  if (answered.length)
    expectContract(
      APPELS_PROTOCOLES.filter((c) => c.path.includes("rdd_evaluations")),
      answered,
    );
});
