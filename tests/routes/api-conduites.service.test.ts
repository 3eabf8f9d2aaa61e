import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_CONDUITES } from "../../server/api/appels-conduites";
import { APPELS_OBSERVATIONS_SUITE } from "../../server/api/appels-observations-suite";
import { ELEMENTS_HORS_TABLE } from "../../server/observation/repo";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-api-conduites-"));
process.env.DATA_DIR = dataDir;

const t = useTestDb();
const { api, tokenOf, answered } = apiClient(t);

type Row = { id: number; updatedAt: string; [k: string]: unknown };
const PDF = "%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";
const MB = 1024 * 1024;

/** A multipart body (ASCII contents) as the API client sends raw text. */
function multipart(fields: Record<string, string>, file?: { name: string; content: string }) {
  const boundary = "----sillon-test-boundary";
  let raw = "";
  for (const [k, v] of Object.entries(fields)) raw += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  if (file)
    raw += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n${file.content}\r\n`;
  raw += `--${boundary}--\r\n`;
  return { raw, headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` } };
}

/** A crop with an output type (for an insurance) and a crop with qualifiers. */
async function refs() {
  const db = t.db();
  const cts = await db("culture_type_sortie").orderBy(["idCulture", "idTypeSortie"]).first("idCulture", "idTypeSortie");
  const q = await db("qualifiant_culture").orderBy("id").first("id", "idCulture");
  expect(cts && q).toBeTruthy();
  return { idCulture: Number(cts.idCulture), idTypeSortie: Number(cts.idTypeSortie), qualifiant: { id: Number(q.id), idCulture: Number(q.idCulture) } };
}

/** A new management mode of the campaign, made through the API. */
async function newMode(token: string, idCampagne: number, idCulture: number) {
  const made = await api("POST", "/api/v1/mode_conduites", { token, body: { idCampagne, libelle: "Mode conduites API", cultures: [{ idCulture }] } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body as Row & { modeConduiteCultureList: Row[] };
}

const fieldsOf = (body: unknown) => Object.keys((body as { fieldErrors?: Record<string, string[]> }).fieldErrors ?? {}).sort();

describe(`crop management over the API (${dialect})`, () => {
  test("[B-API-15][issue26-conduites] mode_conduite_cultures: GET a mode's rows, POST (last), PATCH with updatedAt (stale: 409), DELETE (again: 404)", async () => {
    const r = await refs();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const token = await tokenOf("redacteur");
    const mode = await newMode(token, idCampagne, r.idCulture);

    const list = await api("GET", `/api/v1/mode_conduites/${mode.id}/mode_conduite_cultures`, { token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ idModeConduite: mode.id, idCulture: r.idCulture, idCatCulture: null, idQualifiant: null, ordre: 0 })]);

    const made = await api("POST", "/api/v1/mode_conduite_cultures", {
      token,
      body: { idModeConduite: mode.id, idCulture: r.qualifiant.idCulture, idQualifiant: r.qualifiant.id, idCatCulture: 9017 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const row = made.body as Row;
    expect(row).toMatchObject({ idModeConduite: mode.id, idCulture: r.qualifiant.idCulture, idQualifiant: r.qualifiant.id, idCatCulture: 9017, ordre: 1 });
    expect(await t.db()("mode_conduite_culture").where({ idModeConduite: mode.id }).orderBy("ordre").pluck("id")).toEqual([
      mode.modeConduiteCultureList[0].id,
      row.id,
    ]);
    // The mode's own form loaded before is now stale: its save would drop the new row unseen.
    const staleMode = await api("PATCH", `/api/v1/mode_conduites/${mode.id}`, {
      token,
      body: { libelle: "Écrasé", cultures: [{ id: mode.modeConduiteCultureList[0].id, idCulture: r.idCulture }], updatedAt: mode.updatedAt },
    });
    expect(staleMode.status).toBe(409);

    const patched = await api("PATCH", `/api/v1/mode_conduite_cultures/${row.id}`, { token, body: { idCulture: r.idCulture, updatedAt: row.updatedAt } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ id: row.id, idCulture: r.idCulture, idQualifiant: null, idCatCulture: null, ordre: 1 });
    const stale = await api("PATCH", `/api/v1/mode_conduite_cultures/${row.id}`, {
      token,
      body: { idCulture: r.qualifiant.idCulture, updatedAt: row.updatedAt },
    });
    expect(stale.status).toBe(409);
    expect(stale.headers.get("content-type")).toContain("application/problem+json");
    expect(Number((await t.db()("mode_conduite_culture").where({ id: row.id }).first("idCulture")).idCulture)).toBe(r.idCulture);

    const gone = await api("DELETE", `/api/v1/mode_conduite_cultures/${row.id}`, { token });
    expect(gone.status).toBe(204);
    expect(gone.text).toBe("");
    expect(await t.db()("mode_conduite_culture").where({ id: row.id }).first("id")).toBeUndefined();
    expect((await api("DELETE", `/api/v1/mode_conduite_cultures/${row.id}`, { token })).status).toBe(404);
    expect((await api("PATCH", `/api/v1/mode_conduite_cultures/${row.id}`, { token, body: { idCulture: r.idCulture, updatedAt: row.updatedAt } })).status).toBe(
      404,
    );
    expect((await api("GET", "/api/v1/mode_conduites/999999/mode_conduite_cultures", { token })).status).toBe(404);
    expect((await api("POST", "/api/v1/mode_conduite_cultures", { token, body: { idModeConduite: 999999, idCulture: r.idCulture } })).status).toBe(404);
  });

  test("[issue26-conduites] mode_conduite_assurances: POST stores the estimate the screen computes (a second: 409), PATCH (stale: 409), DELETE; POST estimate", async () => {
    const r = await refs();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const token = await tokenOf("redacteur");
    const mode = await newMode(token, idCampagne, r.idCulture);
    const values = { idCulture: r.idCulture, idTypeSortie: r.idTypeSortie, rendementAssure: 8, txFranchise: 20, mtPrixAssure: 150, mtCotisationAssurance: 30 };

    const estimate = await api("POST", "/api/v1/mode_conduite_assurances/estimate", {
      token: await tokenOf("lecteur"),
      body: { idModeConduite: mode.id, idCulture: r.idCulture, idTypeSortie: r.idTypeSortie, rendementAssure: 8, txFranchise: 20, mtPrixAssure: 150 },
    });
    expect(estimate.status, JSON.stringify(estimate.body)).toBe(200);
    const e = estimate.body as {
      rendementReelMoyen: number | null;
      rendementNonIndemnisable: number | null;
      mtIndemniteCalculee: number | null;
      annees: unknown[];
    };
    expect(Array.isArray(e.annees)).toBe(true);

    const made = await api("POST", "/api/v1/mode_conduite_assurances", { token, body: { idModeConduite: mode.id, ...values } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const a = made.body as Row;
    expect(a).toMatchObject({
      idModeConduite: mode.id,
      ...values,
      rendementReelMoyen: e.rendementReelMoyen,
      rendementNonIndemnisable: e.rendementNonIndemnisable,
      mtIndemniteCalculee: e.mtIndemniteCalculee,
    });
    expect((await api("GET", `/api/v1/mode_conduites/${mode.id}`, { token })).body).toMatchObject({ modeConduiteAssurance: { id: a.id, rendementAssure: 8 } });
    const second = await api("POST", "/api/v1/mode_conduite_assurances", { token, body: { idModeConduite: mode.id, ...values } });
    expect(second.status).toBe(409);

    const patched = await api("PATCH", `/api/v1/mode_conduite_assurances/${a.id}`, { token, body: { ...values, rendementAssure: 9, updatedAt: a.updatedAt } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ id: a.id, rendementAssure: 9 });
    const stale = await api("PATCH", `/api/v1/mode_conduite_assurances/${a.id}`, { token, body: { ...values, rendementAssure: 1, updatedAt: a.updatedAt } });
    expect(stale.status).toBe(409);
    expect(Number((await t.db()("mode_conduite_assurance").where({ id: a.id }).first("rendementAssure")).rendementAssure)).toBe(9);

    const gone = await api("DELETE", `/api/v1/mode_conduite_assurances/${a.id}`, { token });
    expect(gone.status).toBe(204);
    expect(await t.db()("mode_conduite_assurance").where({ id: a.id }).first("id")).toBeUndefined();
    expect((await api("DELETE", `/api/v1/mode_conduite_assurances/${a.id}`, { token })).status).toBe(404);
    expect((await api("PATCH", `/api/v1/mode_conduite_assurances/${a.id}`, { token, body: { ...values, updatedAt: a.updatedAt } })).status).toBe(404);
    const unknownMode = { idModeConduite: 999999, idCulture: r.idCulture, idTypeSortie: r.idTypeSortie };
    expect((await api("POST", "/api/v1/mode_conduite_assurances/estimate", { token, body: unknownMode })).status).toBe(404);
  });

  test("[B-API-15][issue26-conduites] crop-management writes refused: reader, synthesis, read-only token, other farm, locked campaign (403), anonymous (401), bad input (400); nothing stored", async () => {
    const r = await refs();
    const { campagnes } = t.demo();
    const redacteur = await tokenOf("redacteur");
    const mode = await newMode(redacteur, campagnes.tilleuls2025, r.idCulture);
    const row = mode.modeConduiteCultureList[0];
    const rowStamp = ((await api("GET", `/api/v1/mode_conduites/${mode.id}/mode_conduite_cultures`, { token: redacteur })).body as Row[])[0].updatedAt;
    const assurance = (
      await api("POST", "/api/v1/mode_conduite_assurances", {
        token: redacteur,
        body: { idModeConduite: mode.id, idCulture: r.idCulture, idTypeSortie: r.idTypeSortie, rendementAssure: 5 },
      })
    ).body as Row;
    const locked = await t.db()("mode_conduite").where({ idCampagne: campagnes.tilleuls2024 }).orderBy("id").first("id");
    const lockedRow = await t.db()("mode_conduite_culture").where({ idModeConduite: locked.id }).first("id");
    const vallee = await t.db()("mode_conduite").where({ idCampagne: campagnes.vallee2025 }).orderBy("id").first("id");
    const tables = ["mode_conduite", "mode_conduite_culture", "mode_conduite_assurance"];
    const before = await Promise.all(tables.map((x) => snapshot(t.db(), x)));

    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    const lecteur = await tokenOf("lecteur");
    const synthese = await tokenOf("synthese");
    const rowBody = { idModeConduite: mode.id, idCulture: r.idCulture };
    const assuranceBody = { idModeConduite: mode.id, idCulture: r.idCulture, idTypeSortie: r.idTypeSortie };
    const cases: [string, string, string | null, unknown, number, string?][] = [
      ["POST", "/api/v1/mode_conduite_cultures", lecteur, rowBody, 403],
      ["POST", "/api/v1/mode_conduite_cultures", synthese, rowBody, 403],
      ["POST", "/api/v1/mode_conduite_cultures", readOnly, rowBody, 403, "errors.api.read-only-token"],
      ["POST", "/api/v1/mode_conduite_cultures", null, rowBody, 401],
      ["POST", "/api/v1/mode_conduite_cultures", redacteur, { idModeConduite: locked.id, idCulture: r.idCulture }, 403],
      ["POST", "/api/v1/mode_conduite_cultures", lecteur, { idModeConduite: vallee.id, idCulture: r.idCulture }, 403],
      ["POST", "/api/v1/mode_conduite_cultures", redacteur, { idModeConduite: mode.id, idCulture: "blé" }, 400],
      ["POST", "/api/v1/mode_conduite_cultures", redacteur, { idModeConduite: mode.id, idCulture: 999999 }, 400],
      [
        "POST",
        "/api/v1/mode_conduite_cultures",
        redacteur,
        { ...rowBody, idQualifiant: r.qualifiant.idCulture === r.idCulture ? 999999 : r.qualifiant.id },
        400,
      ],
      ["POST", "/api/v1/mode_conduite_cultures", redacteur, { ...rowBody, champInconnu: 1 }, 400],
      ["PATCH", `/api/v1/mode_conduite_cultures/${row.id}`, lecteur, { idCulture: r.idCulture, updatedAt: rowStamp }, 403],
      ["PATCH", `/api/v1/mode_conduite_cultures/${row.id}`, redacteur, { idCulture: r.idCulture }, 400],
      ["DELETE", `/api/v1/mode_conduite_cultures/${row.id}`, lecteur, undefined, 403],
      ["DELETE", `/api/v1/mode_conduite_cultures/${row.id}`, readOnly, undefined, 403],
      ["DELETE", `/api/v1/mode_conduite_cultures/${lockedRow.id}`, redacteur, undefined, 403],
      ["POST", "/api/v1/mode_conduite_assurances", lecteur, assuranceBody, 403],
      ["POST", "/api/v1/mode_conduite_assurances", redacteur, { idModeConduite: locked.id, idCulture: r.idCulture, idTypeSortie: r.idTypeSortie }, 403],
      ["POST", "/api/v1/mode_conduite_assurances", redacteur, { idModeConduite: mode.id, mtPrixAssure: 10 }, 400],
      ["POST", "/api/v1/mode_conduite_assurances", redacteur, { ...assuranceBody, txFranchise: 150 }, 400],
      [
        "PATCH",
        `/api/v1/mode_conduite_assurances/${assurance.id}`,
        lecteur,
        { ...assuranceBody, idModeConduite: undefined, updatedAt: assurance.updatedAt },
        403,
      ],
      ["PATCH", `/api/v1/mode_conduite_assurances/${assurance.id}`, redacteur, { idCulture: r.idCulture, updatedAt: assurance.updatedAt }, 400],
      ["DELETE", `/api/v1/mode_conduite_assurances/${assurance.id}`, lecteur, undefined, 403],
      ["DELETE", `/api/v1/mode_conduite_assurances/${assurance.id}`, null, undefined, 401],
      ["POST", "/api/v1/mode_conduite_assurances/estimate", readOnly, { idModeConduite: mode.id, idCulture: r.idCulture, idTypeSortie: r.idTypeSortie }, 403],
      ["POST", "/api/v1/mode_conduite_assurances/estimate", lecteur, { idModeConduite: vallee.id, idCulture: r.idCulture, idTypeSortie: r.idTypeSortie }, 403],
      ["POST", "/api/v1/mode_conduite_assurances/estimate", lecteur, { idModeConduite: mode.id, idCulture: r.idCulture }, 400],
    ];
    for (const [method, url, token, body, status, key] of cases) {
      const answer = await api(method, url, { token, body });
      expect(answer.status, `${method} ${url} ${JSON.stringify(body)} ${JSON.stringify(answer.body)}`).toBe(status);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      if (key) expect(answer.body).toMatchObject({ key });
    }
    const broken = await api("POST", "/api/v1/mode_conduite_cultures", { token: redacteur, raw: '{"idModeConduite":' });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ key: "errors.api.invalid-json" });
    const typed = await api("POST", "/api/v1/mode_conduite_cultures", {
      token: redacteur,
      body: { idModeConduite: mode.id, idCulture: "blé", champInconnu: 1 },
    });
    expect(fieldsOf(typed.body)).toEqual(["champInconnu", "idCulture"]);
    const noStamp = await api("PATCH", `/api/v1/mode_conduite_assurances/${assurance.id}`, { token: redacteur, body: { mtPrixAssure: 3 } });
    expect(fieldsOf(noStamp.body)).toContain("updatedAt");
    expect(await Promise.all(tables.map((x) => snapshot(t.db(), x)))).toEqual(before);
    // A reader reads the rows (and the other farm's are refused).
    expect((await api("GET", `/api/v1/mode_conduites/${mode.id}/mode_conduite_cultures`, { token: lecteur })).status).toBe(200);
    expect((await api("GET", `/api/v1/mode_conduites/${vallee.id}/mode_conduite_cultures`, { token: lecteur })).status).toBe(403);
  });

  test("[issue26-conduites] GET cultures/{id}/qualifiants: the crop's qualifiers in order, English with locale=en; unknown crop 404", async () => {
    const r = await refs();
    const token = await tokenOf("lecteur");
    const stored = await t
      .db()("qualifiant_culture")
      .where({ idCulture: r.qualifiant.idCulture })
      .orderBy(["ordre", "id"])
      .select("id", "libelle", "libelleEn");
    const fr = await api("GET", `/api/v1/cultures/${r.qualifiant.idCulture}/qualifiants`, { token });
    expect(fr.status).toBe(200);
    expect(fr.body).toEqual(stored.map((q) => ({ id: Number(q.id), libelle: q.libelle })));
    const en = await api("GET", `/api/v1/cultures/${r.qualifiant.idCulture}/qualifiants?locale=en`, { token });
    expect(en.body).toEqual(stored.map((q) => ({ id: Number(q.id), libelle: q.libelleEn ?? q.libelle })));
    expect((await api("GET", "/api/v1/cultures/999999/qualifiants", { token })).status).toBe(404);
    expect((await api("GET", "/api/v1/cultures/abc/qualifiants", { token })).status).toBe(400);
    expect((await api("GET", `/api/v1/cultures/${r.qualifiant.idCulture}/qualifiants`, { token: null })).status).toBe(401);
  });
});

describe(`placettes, horizons, observation references and attached files over the API (${dialect})`, () => {
  test("[issue26-conduites] placettes: POST, GET one and parcelles/{id}/placettes, PATCH with updatedAt (stale: 409), DELETE (again: 404); refusals with nothing stored", async () => {
    const { campagnes } = t.demo();
    const db = t.db();
    const idParcelle = Number((await db("parcelle").where({ idCampagne: campagnes.tilleuls2025 }).orderBy("id").first("id")).id);
    const token = await tokenOf("redacteur");
    const polygon = JSON.stringify({
      type: "Polygon",
      coordinates: [
        [
          [1.5, 48.1],
          [1.51, 48.1],
          [1.51, 48.11],
          [1.5, 48.1],
        ],
      ],
    });
    const made = await api("POST", "/api/v1/placettes", { token, body: { idParcelle, libelle: "Placette API", geometrie: polygon } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const p = made.body as Row;
    expect(p).toMatchObject({ idParcelle, libelle: "Placette API", geometrie: polygon });
    const list = await api("GET", `/api/v1/parcelles/${idParcelle}/placettes`, { token });
    expect((list.body as Row[]).map((x) => x.id).sort((a, b) => a - b)).toEqual(
      (await db("placette").where({ idParcelle }).pluck("id")).map(Number).sort((a, b) => a - b),
    );
    expect((await api("GET", `/api/v1/placettes/${p.id}`, { token })).body).toEqual(p);

    const patched = await api("PATCH", `/api/v1/placettes/${p.id}`, { token, body: { libelle: "Placette API renommée", updatedAt: p.updatedAt } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ id: p.id, libelle: "Placette API renommée", geometrie: null });
    expect((await api("PATCH", `/api/v1/placettes/${p.id}`, { token, body: { libelle: "Écrasée", updatedAt: p.updatedAt } })).status).toBe(409);
    expect((await db("placette").where({ id: p.id }).first("libelle")).libelle).toBe("Placette API renommée");

    const before = await snapshot(db, "placette");
    const lecteur = await tokenOf("lecteur");
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    const lockedParcelle = Number((await db("parcelle").where({ idCampagne: campagnes.tilleuls2024 }).orderBy("id").first("id")).id);
    const lockedPlacette = await db("placette").where({ idCampagne: campagnes.tilleuls2024 }).first("id");
    const valleeParcelle = Number((await db("parcelle").where({ idCampagne: campagnes.vallee2025 }).orderBy("id").first("id")).id);
    const cases: [string, string, string | null, unknown, number][] = [
      ["POST", "/api/v1/placettes", lecteur, { idParcelle, libelle: "Non" }, 403],
      ["POST", "/api/v1/placettes", readOnly, { idParcelle, libelle: "Non" }, 403],
      ["POST", "/api/v1/placettes", null, { idParcelle, libelle: "Non" }, 401],
      ["POST", "/api/v1/placettes", token, { idParcelle: lockedParcelle, libelle: "Non" }, 403],
      ["POST", "/api/v1/placettes", lecteur, { idParcelle: valleeParcelle, libelle: "Non" }, 403],
      ["POST", "/api/v1/placettes", token, { idParcelle: 999999, libelle: "Non" }, 404],
      ["POST", "/api/v1/placettes", token, { idParcelle, libelle: "" }, 400],
      ["POST", "/api/v1/placettes", token, { idParcelle, libelle: "Non", geometrie: '{"type":"Point"}' }, 400],
      ["POST", "/api/v1/placettes", token, { idParcelle, libelle: 12, surface: 3 }, 400],
      ["PATCH", `/api/v1/placettes/${p.id}`, lecteur, { libelle: "Non", updatedAt: patched.body && (patched.body as Row).updatedAt }, 403],
      ["DELETE", `/api/v1/placettes/${p.id}`, lecteur, undefined, 403],
      ["DELETE", `/api/v1/placettes/${p.id}`, readOnly, undefined, 403],
      ["DELETE", `/api/v1/placettes/${lockedPlacette.id}`, token, undefined, 403],
    ];
    for (const [method, url, tk, body, status] of cases) {
      const answer = await api(method, url, { token: tk, body });
      expect(answer.status, `${method} ${url} ${JSON.stringify(body)} ${JSON.stringify(answer.body)}`).toBe(status);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
    }
    expect((await api("POST", "/api/v1/placettes", { token, raw: "{libelle" })).status).toBe(400);
    expect(await snapshot(db, "placette")).toEqual(before);
    expect((await api("GET", `/api/v1/parcelles/${valleeParcelle}/placettes`, { token: lecteur })).status).toBe(403);
    expect((await api("GET", "/api/v1/parcelles/999999/placettes", { token })).status).toBe(404);

    const gone = await api("DELETE", `/api/v1/placettes/${p.id}`, { token });
    expect(gone.status).toBe(204);
    expect(await db("placette").where({ id: p.id }).first("id")).toBeUndefined();
    expect((await api("DELETE", `/api/v1/placettes/${p.id}`, { token })).status).toBe(404);
    expect((await api("GET", `/api/v1/placettes/${p.id}`, { token })).status).toBe(404);
  });

  test("[issue26-conduites] GET observations_series/{id}/horizons and /horizons/observations: the series' layers with their limits, and its observations on them", async () => {
    const db = t.db();
    const token = await tokenOf("lecteur");
    const serie = await db("horizon")
      .join("observation_serie as s", "s.id", "horizon.idParent")
      .where("s.idCampagne", t.demo().campagnes.tilleuls2025)
      .first("s.id");
    const idSerie = Number((serie ?? (await db("horizon").first("idParent as id"))).id);
    const horizons = await api("GET", `/api/v1/observations_series/${idSerie}/horizons`, { token });
    expect(horizons.status).toBe(200);
    const stored = await db("horizon").where({ idParent: idSerie }).orderBy(["ordre", "id"]).pluck("id");
    expect(stored.length).toBeGreaterThan(0);
    expect((horizons.body as Row[]).map((h) => h.id)).toEqual(stored.map(Number));
    expect((horizons.body as Row[]).every((h) => "limiteSup" in h && "limiteInf" in h)).toBe(true);

    const obs = await api("GET", `/api/v1/observations_series/${idSerie}/horizons/observations`, { token });
    expect(obs.status).toBe(200);
    const expected = await db("observation")
      .where({ idObservationSerie: idSerie })
      .whereNull("idObservationParent")
      .whereNotNull("idHorizon")
      .where((q) => q.whereNull("dicoIdEltObserve").orWhereNotIn("dicoIdEltObserve", [...ELEMENTS_HORS_TABLE]))
      .pluck("id");
    expect((obs.body as Row[]).map((o) => o.id).sort((a, b) => a - b)).toEqual(expected.map(Number).sort((a, b) => a - b));
    expect((obs.body as { horizon: number }[]).every((o) => stored.map(Number).includes(o.horizon))).toBe(true);

    const vallee = await db("observation_serie").where({ idCampagne: t.demo().campagnes.vallee2025 }).first("id");
    expect((await api("GET", `/api/v1/observations_series/${vallee.id}/horizons`, { token })).status).toBe(403);
    expect((await api("GET", `/api/v1/observations_series/${vallee.id}/horizons/observations`, { token })).status).toBe(403);
    expect((await api("GET", "/api/v1/observations_series/999999/horizons", { token })).status).toBe(404);
    expect((await api("GET", "/api/v1/observations_series/999999/horizons/observations", { token })).status).toBe(404);
  });

  test("[issue26-conduites] reference lists: admin_oad_observations by element label (elementObserve, unite1..3), adventices with stades and densites, stade_cultures by scale", async () => {
    const db = t.db();
    const token = await tokenOf("lecteur");
    const idOad = t.demo().oads.reseauDemo;
    const offers = await api("GET", `/api/v1/admin_oad_observations?dicIdOad=${idOad}&dicIdTypeObservation=1124`, { token });
    expect(offers.status).toBe(200);
    const rows = offers.body as { elementObserve: { id: number; libelle: string; noOrdre: number }; unite1: string | null; dicIdTypeObservation: number }[];
    const own = await db("admin_oad_observation").where({ idOad, dicIdTypeObservation: 1124 }).first("id");
    const expected = await db("admin_oad_observation")
      .where({ dicIdTypeObservation: 1124 })
      .where((q) => (own ? q.where({ idOad }) : q.whereNull("idOad")))
      .select("dicoIdEltObserve");
    expect(rows.map((x) => x.elementObserve.id).sort((a, b) => a - b)).toEqual(expected.map((x) => Number(x.dicoIdEltObserve)).sort((a, b) => a - b));
    expect(rows.map((x) => x.elementObserve.libelle)).toEqual([...rows.map((x) => x.elementObserve.libelle)].sort((a, b) => a.localeCompare(b, "fr")));
    expect(rows.every((x) => x.dicIdTypeObservation === 1124 && "unite2" in x && "unite3" in x && typeof x.elementObserve.noOrdre === "number")).toBe(true);
    const missing = await api("GET", `/api/v1/admin_oad_observations?dicIdOad=${idOad}`, { token });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual(["dicIdTypeObservation"]);
    expect((await api("GET", `/api/v1/admin_oad_observations?dicIdOad=x&dicIdTypeObservation=1124`, { token })).status).toBe(400);

    const adventices = await api("GET", "/api/v1/adventices", { token });
    expect((adventices.body as Row[]).map((a) => a.id)).toEqual((await db("adventice").orderBy("ordre").pluck("id")).map(Number));
    const idAdventice = Number((await db("adventice_stade").first("idAdventice")).idAdventice);
    const stades = await api("GET", `/api/v1/adventices/${idAdventice}/stades`, { token });
    expect((stades.body as Row[]).map((s) => s.id)).toEqual((await db("adventice_stade").where({ idAdventice }).orderBy("ordre").pluck("id")).map(Number));
    const withDensites = Number((await db("adventice_densite").first("idAdventice")).idAdventice);
    const densites = await api("GET", `/api/v1/adventices/${withDensites}/densites?locale=en`, { token });
    expect((densites.body as { ordre: number }[]).map((d) => d.ordre)).toEqual(
      (await db("adventice_densite").where({ idAdventice: withDensites }).orderBy("ordre").pluck("ordre")).map(Number),
    );
    expect((await api("GET", "/api/v1/adventices/999999/stades", { token })).status).toBe(404);
    expect((await api("GET", "/api/v1/adventices/999999/densites", { token })).status).toBe(404);

    const echelle = Number((await db("stade_culture").first("idEchelleStadeAee")).idEchelleStadeAee);
    const ofScale = await api("GET", `/api/v1/stade_cultures?idEchelleStadeAee=${echelle}`, { token });
    expect((ofScale.body as Row[]).map((s) => s.id)).toEqual(
      (await db("stade_culture").where({ idEchelleStadeAee: echelle }).orderBy("ordre").pluck("id")).map(Number),
    );
    expect(((await api("GET", "/api/v1/stade_cultures", { token })).body as Row[]).length).toBe(
      Number((await db("stade_culture").count({ n: "*" }).first())!.n),
    );
    expect((await api("GET", "/api/v1/stade_cultures?idEchelleStadeAee=abc", { token })).status).toBe(400);
    expect((await api("GET", "/api/v1/adventices", { token: null })).status).toBe(401);
  });

  test("[issue26-conduites] fichier_attache_series: POST multipart, GET by series (without one: 400), download under its name, DELETE by its author only; refusals with nothing stored", async () => {
    const db = t.db();
    const { campagnes } = t.demo();
    const idSerie = Number((await db("observation_serie").where({ idCampagne: campagnes.tilleuls2025 }).orderBy("id").first("id")).id);
    const lockedSerie = Number((await db("observation_serie").where({ idCampagne: campagnes.tilleuls2024 }).orderBy("id").first("id")).id);
    const valleeSerie = Number((await db("observation_serie").where({ idCampagne: campagnes.vallee2025 }).orderBy("id").first("id")).id);
    const token = await tokenOf("redacteur");
    const store = path.join(dataDir, "fichiers/series");
    const stored = () => (fs.existsSync(store) ? fs.readdirSync(store).length : 0);

    const made = await api("POST", "/api/v1/fichier_attache_series", {
      token,
      ...multipart({ idObservationSerie: String(idSerie) }, { name: "compte-rendu.pdf", content: PDF }),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const f = made.body as { id: number; nom: string; taille: number; creePar: { id: number } };
    expect(f).toMatchObject({ nom: "compte-rendu.pdf", taille: PDF.length, creePar: { id: t.demo().users.redacteur } });
    expect(stored()).toBe(1);

    const list = await api("GET", `/api/v1/fichier_attache_series?observationsSerie=${idSerie}`, { token: await tokenOf("lecteur") });
    expect(list.status).toBe(200);
    expect((list.body as { id: number }[]).map((x) => x.id)).toEqual([f.id]);
    const without = await api("GET", "/api/v1/fichier_attache_series", { token });
    expect(without.status).toBe(400);
    expect(without.headers.get("content-type")).toContain("application/problem+json");
    expect(fieldsOf(without.body)).toEqual(["observationsSerie"]);

    const download = await api("GET", `/api/v1/fichier_attache_series/${f.id}/download`, { token: await tokenOf("lecteur") });
    expect(download.status).toBe(200);
    expect(download.text).toBe(PDF);
    expect(download.headers.get("content-disposition")).toContain("compte-rendu.pdf");

    // Refusals: nothing stored, no file left in the store.
    const rowsBefore = await snapshot(db, "fichier_attache_serie");
    const valleeFile = await api("GET", `/api/v1/fichier_attache_series?observationsSerie=${valleeSerie}`, { token: await tokenOf("lecteur") });
    expect(valleeFile.status).toBe(403);
    const lecteur = await tokenOf("lecteur");
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    const pdf = { name: "a.pdf", content: PDF };
    const cases: [string | null, Record<string, string>, { name: string; content: string } | undefined, number, string?][] = [
      [lecteur, { idObservationSerie: String(idSerie) }, pdf, 403],
      [readOnly, { idObservationSerie: String(idSerie) }, pdf, 403, "errors.api.read-only-token"],
      [null, { idObservationSerie: String(idSerie) }, pdf, 401],
      [token, { idObservationSerie: String(lockedSerie) }, pdf, 403],
      [lecteur, { idObservationSerie: String(valleeSerie) }, pdf, 403],
      [token, { idObservationSerie: "999999" }, pdf, 404],
      [token, { idObservationSerie: "abc" }, pdf, 400],
      [token, { idObservationSerie: String(idSerie) }, undefined, 400],
      [token, { idObservationSerie: String(idSerie), autre: "1" }, pdf, 400],
      [token, { idObservationSerie: String(idSerie) }, { name: "outil.exe", content: "MZ\0\0" }, 400, "observations.fichiers.type-refuse"],
      [token, { idObservationSerie: String(idSerie) }, { name: "faux.pdf", content: "MZ\0\0" }, 400, "observations.fichiers.type-refuse"],
      // Over ATTACHMENT_MAX_MB (10) but within the body's margin: the service's limit; far over: the adapter's.
      [token, { idObservationSerie: String(idSerie) }, { name: "gros.pdf", content: "%PDF-" + "%".repeat(10 * MB) }, 413, "observations.fichiers.trop-gros"],
      [token, { idObservationSerie: String(idSerie) }, { name: "enorme.pdf", content: "%PDF-" + "%".repeat(11 * MB) }, 413, "errors.api.body-too-large"],
    ];
    for (const [tk, fields, file, status, key] of cases) {
      const answer = await api("POST", "/api/v1/fichier_attache_series", { token: tk, ...multipart(fields, file) });
      expect(answer.status, `${JSON.stringify(fields)} ${file?.name} ${JSON.stringify(answer.body)}`).toBe(status);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      if (key) expect(answer.body).toMatchObject({ key });
    }
    const json = await api("POST", "/api/v1/fichier_attache_series", { token, body: { idObservationSerie: idSerie } });
    expect(json.status).toBe(415);
    expect(await snapshot(db, "fichier_attache_serie")).toEqual(rowsBefore);
    expect(stored()).toBe(1);

    // Only the author deletes: another writer of the farm is refused.
    expect((await api("DELETE", `/api/v1/fichier_attache_series/${f.id}`, { token: await tokenOf("animateur") })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/fichier_attache_series/${f.id}`, { token: lecteur })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/fichier_attache_series/${f.id}`, { token: readOnly })).status).toBe(403);
    expect(await snapshot(db, "fichier_attache_serie")).toEqual(rowsBefore);
    const gone = await api("DELETE", `/api/v1/fichier_attache_series/${f.id}`, { token });
    expect(gone.status).toBe(204);
    expect(stored()).toBe(0);
    expect((await api("DELETE", `/api/v1/fichier_attache_series/${f.id}`, { token })).status).toBe(404);
    expect((await api("GET", `/api/v1/fichier_attache_series/${f.id}/download`, { token })).status).toBe(404);
  });
});

afterAll(() => expectContract([...APPELS_CONDUITES, ...APPELS_OBSERVATIONS_SUITE], answered));
