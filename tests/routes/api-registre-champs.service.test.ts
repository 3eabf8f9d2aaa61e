import { afterAll, describe, expect, test } from "vitest";
import { snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract, inlineRefs } from "../helpers/api-client";
import { APPELS_INTERVENTIONS } from "../../server/api/appels-interventions";
import { openApiDocument } from "../../server/http/api.server";

/** The register's fields over the JSON API (issue 28, decision 0125): the intervention calls read and write them through the form's schema and service. */
const t = useTestDb();
const { api, tokenOf, answered } = apiClient(t);

const REGISTRE = ["heureDebut", "heureFin", "idStadeCulture", "precisionStade", "siretPrestataire", "rentreeAnticipee", "lotSemences"];

async function fixture() {
  const db = t.db();
  const idCampagne = t.demo().campagnes.tilleuls2025;
  const plot = await db("parcelle").where({ idCampagne }).orderBy("id").first("id");
  const op = await db("operation_culturale").where({ idCampagne }).orderBy("id").first("id");
  const stage = await db("stade_culture").where({ code: "32", idEchelleStadeAee: 1 }).first("id");
  return { idParcelle: Number(plot.id), idOperationCulturale: Number(op.id), idStade: Number(stage.id) };
}

const intervention = (f: { idParcelle: number; idOperationCulturale: number }, extra: Record<string, unknown> = {}) => ({
  idParcelle: f.idParcelle,
  idOperationCulturale: f.idOperationCulturale,
  date: "2025-04-10",
  frequence: 1,
  tauxSurface: 1,
  realisee: true,
  prevue: false,
  ...extra,
});

describe(`the register's fields over the API (${dialect})`, () => {
  test("[issue28-champs] POST, GET, PATCH and the season call carry the stage, times, contractor's SIRET, re-entry and seed lot", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const made = await api("POST", "/api/v1/actions", {
      token,
      body: intervention(f, {
        idStadeCulture: f.idStade,
        precisionStade: "2 nœuds",
        heureDebut: "6h30",
        heureFin: "08:15",
        siretPrestataire: "732 829 320 00074",
        rentreeAnticipee: true,
        lotSemences: "LOT-42",
      }),
    });
    expect(made.status).toBe(201);
    const created = made.body as { id: number; updatedAt: string };
    const expected = {
      idStadeCulture: f.idStade,
      precisionStade: "2 nœuds",
      heureDebut: "06:30",
      heureFin: "08:15",
      siretPrestataire: "73282932000074",
      rentreeAnticipee: true,
      lotSemences: "LOT-42",
    };
    expect(made.body).toMatchObject(expected);
    const reader = await tokenOf("lecteur");
    expect((await api("GET", `/api/v1/actions/${created.id}`, { token: reader })).body).toMatchObject(expected);
    const list = (await api("GET", `/api/v1/parcelles/${f.idParcelle}/actions`, { token: reader })).body as { id: number }[];
    expect(list.find((r) => r.id === created.id)).toMatchObject(expected);

    // PATCH sends all the form's fields: the ones left out are stored empty, as the form stores an emptied field.
    const patched = await api("PATCH", `/api/v1/actions/${created.id}`, {
      token,
      body: { ...intervention(f, { idStadeCulture: f.idStade, heureDebut: "14:00" }), updatedAt: created.updatedAt },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ idStadeCulture: f.idStade, heureDebut: "14:00" });
    for (const k of ["siretPrestataire", "lotSemences", "heureFin", "precisionStade", "rentreeAnticipee"]) expect(patched.body).not.toHaveProperty(k);

    const saison = await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, {
      token,
      body: { interventions: [{ ...intervention(f, { siretPrestataire: "73282932000074", idStadeCulture: f.idStade }), idParcelle: undefined, intrants: [] }] },
    });
    expect(saison.status).toBe(201);
    const [{ id }] = (saison.body as { interventions: { id: number }[] }).interventions;
    expect((await api("GET", `/api/v1/actions/${id}`, { token })).body).toMatchObject({ siretPrestataire: "73282932000074", idStadeCulture: f.idStade });
  });

  test("[issue28-champs] bad register fields: 400 naming the field, nothing stored; a reader is refused", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const before = await snapshot(t.db(), "action");
    const cases: [Record<string, unknown>, string][] = [
      [intervention(f, { siretPrestataire: "12345678901234" }), "siretPrestataire"],
      [intervention(f, { siretPrestataire: "7328293200007" }), "siretPrestataire"],
      [intervention(f, { heureDebut: "8h" }), "heureDebut"],
      [intervention(f, { heureDebut: "10:00", heureFin: "09:00" }), "heureFin"],
      [intervention(f, { idStadeCulture: 999999 }), "idStadeCulture"],
    ];
    for (const [body, field] of cases) {
      const r = await api("POST", "/api/v1/actions", { token, body });
      expect([field, r.status]).toEqual([field, 400]);
      expect(Object.keys((r.body as { fieldErrors: object }).fieldErrors)).toContain(field);
    }
    const bad = await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, {
      token,
      body: { interventions: [{ ...intervention(f, { heureDebut: "10:00", heureFin: "09:00" }), idParcelle: undefined }] },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { fieldErrors: object }).fieldErrors)).toContain("interventions.0.heureFin");
    const reader = await tokenOf("lecteur");
    expect((await api("POST", "/api/v1/actions", { token: reader, body: intervention(f, { siretPrestataire: "73282932000074" }) })).status).toBe(403);
    expect(await snapshot(t.db(), "action")).toEqual(before);
  });

  test("[issue28-champs] the OpenAPI document shows the register's fields in the intervention's answer and bodies", () => {
    const doc = openApiDocument(APPELS_INTERVENTIONS.filter((c) => c.path.startsWith("/api/v1/actions")));
    const parsed = inlineRefs(doc, doc) as { paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>> };
    const post = JSON.stringify(parsed.paths["/api/v1/actions"].post.requestBody);
    const answer = JSON.stringify(parsed.paths["/api/v1/actions/{id}"].get.responses);
    const patch = JSON.stringify(parsed.paths["/api/v1/actions/{id}"].patch.requestBody);
    for (const k of REGISTRE) {
      expect(post, k).toContain(`"${k}"`);
      expect(answer, k).toContain(`"${k}"`);
      expect(patch, k).toContain(`"${k}"`);
    }
  });

  afterAll(() =>
    expectContract(
      APPELS_INTERVENTIONS.filter((c) => /actions|saison/.test(c.path) && !c.path.includes("recoltes") && c.method !== "DELETE"),
      answered,
    ),
  );
});
