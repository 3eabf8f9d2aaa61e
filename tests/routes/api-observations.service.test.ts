import { afterAll, describe, expect, test } from "vitest";
import { snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_OBSERVATIONS } from "../../server/api/appels-observations";
import { ELEMENTS_HORS_TABLE } from "../../server/observation/repo";

const t = useTestDb();
const { api, tokenOf, answered } = apiClient(t);

type Row = { id: number; updatedAt: string; [k: string]: unknown };
type Obs = Row & { element: number; unite: string | null };

/** A plot of the campaign and a series of it of a plain type (diseases, 1126) with one observation row to copy. */
async function fixture(campagne: "tilleuls2025" | "tilleuls2024" | "vallee2025" = "tilleuls2025") {
  const db = t.db();
  const idCampagne = t.demo().campagnes[campagne];
  const serie = await db("observation_serie").where({ idCampagne, dicIdTypeSerie: 1126, isPlacetteSelected: false }).orderBy("id").first("id", "idParcelle");
  expect(serie).toBeTruthy();
  const obs = await db("observation")
    .where({ idObservationSerie: serie.id })
    .whereNull("idObservationParent")
    .whereNotNull("dicoIdEltObserve")
    .whereNotIn("dicoIdEltObserve", [...ELEMENTS_HORS_TABLE])
    .orderBy("id")
    .first("id");
  expect(obs).toBeTruthy();
  // An element the network offers for the type (its own rows replace the default ones), with a numeric value.
  const idOad = t.demo().oads.reseauDemo;
  const own = await db("admin_oad_observation").where({ dicIdTypeObservation: 1126, idOad }).first("id");
  const offer = await db("admin_oad_observation as a")
    .join("element_observe as e", "e.id", "a.dicoIdEltObserve")
    .where({ "a.dicIdTypeObservation": 1126 })
    .where((q) => (own ? q.where("a.idOad", idOad) : q.whereNull("a.idOad")))
    .whereNotIn("e.nature", ["densite", "efficacite"])
    .orderBy("e.id")
    .first("a.dicoIdEltObserve as element", "a.unite1 as unite");
  expect(offer).toBeTruthy();
  const year = Number((await db("campagne").where({ id: idCampagne }).first("anneeRecolte")).anneeRecolte);
  return {
    idCampagne,
    idSerie: Number(serie.id),
    idParcelle: Number(serie.idParcelle),
    idObservation: Number(obs.id),
    element: Number(offer.element),
    unite: (offer.unite as string | null) ?? null,
    year,
  };
}

const writes = () => Promise.all(["observation_serie", "observation"].map((table) => snapshot(t.db(), table)));

describe(`observations over the API (${dialect})`, () => {
  test("[B-API-19][B-API-20][C-API-18] POST observations_series, GET it and parcelles/{id}/observations_series, PATCH with updatedAt (stale: 409), DELETE", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const made = await api("POST", "/api/v1/observations_series", {
      token,
      body: { idParcelle: f.idParcelle, nom: "Maladies API", date: `${f.year}-04-15`, dicIdTypeSerie: 1126, remarque: "Par l'API" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const serie = made.body as Row;
    expect(serie).toMatchObject({
      name: "Maladies API",
      nom: "Maladies API",
      date: `${f.year}-04-15`,
      dicIdTypeSerie: 1126,
      idParcelle: f.idParcelle,
      idExploitation: expect.any(Number),
      idUser: t.demo().users.redacteur,
      remarque: "Par l'API",
      isPlacetteSelected: false,
      observations: [],
      horizons: [],
    });
    const list = await api("GET", `/api/v1/parcelles/${f.idParcelle}/observations_series`, { token });
    expect(list.status).toBe(200);
    expect((list.body as Row[]).map((s) => s.id).sort((a, b) => a - b)).toEqual(
      (await t.db()("observation_serie").where({ idParcelle: f.idParcelle }).pluck("id")).map(Number).sort((a, b) => a - b),
    );
    expect((list.body as Row[]).map((s) => s.id)).toContain(serie.id);

    const patched = await api("PATCH", `/api/v1/observations_series/${serie.id}`, {
      token,
      body: { idParcelle: f.idParcelle, nom: "Maladies API (revue)", date: `${f.year}-04-20`, dicIdTypeSerie: 1126, updatedAt: serie.updatedAt },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ id: serie.id, nom: "Maladies API (revue)", date: `${f.year}-04-20` });
    const stale = await api("PATCH", `/api/v1/observations_series/${serie.id}`, {
      token,
      body: { idParcelle: f.idParcelle, nom: "Écrasée", date: `${f.year}-04-20`, dicIdTypeSerie: 1126, updatedAt: serie.updatedAt },
    });
    expect(stale.status).toBe(409);
    expect((await t.db()("observation_serie").where({ id: serie.id }).first("nom")).nom).toBe("Maladies API (revue)");

    const gone = await api("DELETE", `/api/v1/observations_series/${serie.id}`, { token });
    expect(gone.status).toBe(204);
    expect(await t.db()("observation_serie").where({ id: serie.id }).first("id")).toBeUndefined();
    expect((await api("GET", `/api/v1/observations_series/${serie.id}`, { token })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/observations_series/${serie.id}`, { token })).status).toBe(404);
  });

  test("[B-API-19][B-API-21][C-API-19] POST observations_parcelles, GET it and observations_series/{id}/observations, PATCH with updatedAt (stale: 409), DELETE", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const made = await api("POST", "/api/v1/observations_parcelles", {
      token,
      body: { idObservationSerie: f.idSerie, element: f.element, valeur: "12,5", ...(f.unite ? { unite: f.unite } : {}), remarque: "Relevé API" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const obs = made.body as Obs;
    expect(obs).toMatchObject({
      serieId: f.idSerie,
      observedElemId: f.element,
      element: f.element,
      parcelleId: f.idParcelle,
      value: 12.5,
      valeur: 12.5,
      remarque: "Relevé API",
    });
    expect(await t.db()("observation").where({ id: obs.id }).first("idObservationSerie", "obsValNum")).toMatchObject({ idObservationSerie: f.idSerie });

    const one = await api("GET", `/api/v1/observations_parcelles/${obs.id}`, { token });
    expect(one.body).toMatchObject({ id: obs.id, value: 12.5, updatedAt: obs.updatedAt });
    const ofSerie = await api("GET", `/api/v1/observations_series/${f.idSerie}/observations`, { token });
    const ids = (ofSerie.body as Row[]).map((o) => o.id);
    expect(ids).toContain(obs.id);
    expect(ids).toContain(f.idObservation);
    const detail = await api("GET", `/api/v1/observations_series/${f.idSerie}`, { token });
    expect((detail.body as { observations: Row[] }).observations.map((o) => o.id)).toEqual(ids);

    const patched = await api("PATCH", `/api/v1/observations_parcelles/${obs.id}`, {
      token,
      body: { element: f.element, valeur: 14, ...(f.unite ? { unite: f.unite } : {}), updatedAt: obs.updatedAt },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ id: obs.id, value: 14 });
    const stale = await api("PATCH", `/api/v1/observations_parcelles/${obs.id}`, { token, body: { element: f.element, valeur: 99, updatedAt: obs.updatedAt } });
    expect(stale.status).toBe(409);
    expect(Number((await t.db()("observation").where({ id: obs.id }).first("obsValNum")).obsValNum)).toBe(14);

    expect((await api("DELETE", `/api/v1/observations_parcelles/${obs.id}`, { token })).status).toBe(204);
    expect(await t.db()("observation").where({ id: obs.id }).first("id")).toBeUndefined();
    expect((await api("GET", `/api/v1/observations_parcelles/${obs.id}`, { token })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/observations_parcelles/${obs.id}`, { token })).status).toBe(404);
  });

  test("[B-API-19][C-API-19] writes refused: reader, synthesis, read-only token, other farm, locked campaign (403), anonymous (401), field errors (400); nothing written", async () => {
    const f = await fixture();
    const locked = await fixture("tilleuls2024");
    const other = await fixture("vallee2025");
    const before = await writes();
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    const serie = (p: number, year: number, extra: Record<string, unknown> = {}) => ({
      idParcelle: p,
      nom: "Refusée",
      date: `${year}-04-15`,
      dicIdTypeSerie: 1126,
      ...extra,
    });
    const cases: [string | null, string, Record<string, unknown>, number][] = [
      ["lecteur", "/api/v1/observations_series", serie(f.idParcelle, f.year), 403],
      ["synthese", "/api/v1/observations_series", serie(f.idParcelle, f.year), 403],
      ["lecteur", "/api/v1/observations_series", serie(other.idParcelle, other.year), 403],
      ["redacteur", "/api/v1/observations_series", serie(locked.idParcelle, locked.year), 403],
      [null, "/api/v1/observations_series", serie(f.idParcelle, f.year), 401],
      ["redacteur", "/api/v1/observations_series", serie(f.idParcelle, f.year, { nom: "", date: "32/13/2025" }), 400],
      ["redacteur", "/api/v1/observations_series", serie(f.idParcelle, f.year, { date: "1990-01-01" }), 400],
      ["redacteur", "/api/v1/observations_series", serie(999999, f.year), 404],
      ["lecteur", "/api/v1/observations_parcelles", { idObservationSerie: f.idSerie, element: f.element, valeur: 1 }, 403],
      ["redacteur", "/api/v1/observations_parcelles", { idObservationSerie: locked.idSerie, element: locked.element, valeur: 1 }, 403],
      ["redacteur", "/api/v1/observations_parcelles", { idObservationSerie: f.idSerie, element: f.element, valeur: "beaucoup" }, 400],
      ["redacteur", "/api/v1/observations_parcelles", { idObservationSerie: f.idSerie, element: 999999, valeur: 1 }, 400],
      ["redacteur", "/api/v1/observations_parcelles", { idObservationSerie: 999999, element: f.element, valeur: 1 }, 404],
    ];
    for (const [username, path, body, status] of cases) {
      const r = await api("POST", path, { token: username ? await tokenOf(username) : null, body });
      expect(r.status, `${username} ${path} ${JSON.stringify(body)} ${JSON.stringify(r.body)}`).toBe(status);
    }
    const fields = async (body: Record<string, unknown>, path = "/api/v1/observations_series") =>
      Object.keys(
        ((await api("POST", path, { token: await tokenOf("redacteur"), body })).body as { fieldErrors: Record<string, string[]> }).fieldErrors,
      ).sort();
    expect(await fields(serie(f.idParcelle, f.year, { nom: "", date: "32/13/2025" }))).toEqual(["date", "nom"]);
    expect(await fields(serie(f.idParcelle, f.year, { date: "1990-01-01" }))).toEqual(["date"]);
    expect(await fields({ idObservationSerie: f.idSerie, element: 999999, valeur: 1 }, "/api/v1/observations_parcelles")).toEqual(["element"]);
    expect((await api("POST", "/api/v1/observations_series", { token: readOnly, body: serie(f.idParcelle, f.year) })).body).toMatchObject({
      status: 403,
      key: "errors.api.read-only-token",
    });

    // Existing rows: the reader reads them but neither changes nor deletes them; the locked campaign's stay.
    const lecteur = await tokenOf("lecteur");
    const s = (await api("GET", `/api/v1/observations_series/${f.idSerie}`, { token: lecteur })).body as Row & { observations: Obs[] };
    expect(s.id).toBe(f.idSerie);
    expect((await api("GET", `/api/v1/observations_series/${other.idSerie}`, { token: lecteur })).status).toBe(403);
    expect((await api("GET", `/api/v1/parcelles/${other.idParcelle}/observations_series`, { token: lecteur })).status).toBe(403);
    expect((await api("GET", `/api/v1/observations_parcelles/${other.idObservation}`, { token: lecteur })).status).toBe(403);
    expect(
      (await api("PATCH", `/api/v1/observations_series/${f.idSerie}`, { token: lecteur, body: { ...serie(f.idParcelle, f.year), updatedAt: s.updatedAt } }))
        .status,
    ).toBe(403);
    expect((await api("DELETE", `/api/v1/observations_series/${f.idSerie}`, { token: lecteur })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/observations_series/${f.idSerie}`, { token: readOnly })).status).toBe(403);
    const o = s.observations.find((x) => x.id === f.idObservation)!;
    expect(
      (await api("PATCH", `/api/v1/observations_parcelles/${o.id}`, { token: lecteur, body: { element: o.element, valeur: 1, updatedAt: o.updatedAt } }))
        .status,
    ).toBe(403);
    expect((await api("DELETE", `/api/v1/observations_parcelles/${o.id}`, { token: lecteur })).status).toBe(403);
    const redacteur = await tokenOf("redacteur");
    expect((await api("DELETE", `/api/v1/observations_series/${locked.idSerie}`, { token: redacteur })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/observations_parcelles/${locked.idObservation}`, { token: redacteur })).status).toBe(403);
    expect((await api("GET", "/api/v1/parcelles/999999/observations_series", { token: redacteur })).status).toBe(404);
    expect((await api("GET", "/api/v1/observations_series/999999/observations", { token: redacteur })).status).toBe(404);
    expect(
      (await api("PATCH", "/api/v1/observations_parcelles/999999", { token: redacteur, body: { element: f.element, valeur: 1, updatedAt: o.updatedAt } }))
        .status,
    ).toBe(404);
    expect(await writes()).toEqual(before);
  });

  test("[B-API-22] complement_observations: POST with dicoIdEltObserve, obsValNum, observationsParcelle, GET it, PATCH with updatedAt (stale: 409); refusals store nothing", async () => {
    const f = await fixture();
    const locked = await fixture("tilleuls2024");
    const other = await fixture("vallee2025");
    const token = await tokenOf("redacteur");
    const made = await api("POST", "/api/v1/complement_observations", {
      token,
      body: { dicoIdEltObserve: f.element, obsValNum: "3,25", observationsParcelle: f.idObservation },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const c = made.body as Row & { obsValNum: number };
    expect(c).toMatchObject({ dicoIdEltObserve: f.element, obsValNum: 3.25, observationsParcelle: f.idObservation });
    const stored = await t.db()("complement_observation").where({ id: c.id }).first("idObservation", "dicoIdEltObserve", "obsValNum");
    expect([Number(stored.idObservation), Number(stored.dicoIdEltObserve), Number(stored.obsValNum)]).toEqual([f.idObservation, f.element, 3.25]);

    const read = await api("GET", `/api/v1/complement_observations/${c.id}`, { token: await tokenOf("lecteur") });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: c.id, obsValNum: 3.25, updatedAt: c.updatedAt });

    const patched = await api("PATCH", `/api/v1/complement_observations/${c.id}`, {
      token,
      body: { dicoIdEltObserve: f.element, obsValNum: 4, observationsParcelle: f.idObservation, updatedAt: c.updatedAt },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ id: c.id, obsValNum: 4 });
    const stale = await api("PATCH", `/api/v1/complement_observations/${c.id}`, {
      token,
      body: { dicoIdEltObserve: f.element, obsValNum: 99, observationsParcelle: f.idObservation, updatedAt: c.updatedAt },
    });
    expect(stale.status).toBe(409);
    expect(Number((await t.db()("complement_observation").where({ id: c.id }).first("obsValNum")).obsValNum)).toBe(4);

    // Refusals: nothing written.
    const current = (patched.body as Row).updatedAt;
    const before = await Promise.all(["complement_observation", "observation"].map((table) => snapshot(t.db(), table)));
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    const body = (o: number, extra: Record<string, unknown> = {}) => ({ dicoIdEltObserve: f.element, obsValNum: 1, observationsParcelle: o, ...extra });
    const posts: [string | null, Record<string, unknown>, number][] = [
      ["lecteur", body(f.idObservation), 403],
      ["synthese", body(f.idObservation), 403],
      ["lecteur", body(other.idObservation), 403],
      ["redacteur", body(locked.idObservation), 403],
      [null, body(f.idObservation), 401],
      ["redacteur", body(f.idObservation, { obsValNum: "beaucoup" }), 400],
      ["redacteur", body(f.idObservation, { dicoIdEltObserve: 999999 }), 400],
      ["redacteur", body(f.idObservation, { inconnu: 1 }), 400],
      ["redacteur", body(999999), 404],
    ];
    for (const [username, b, status] of posts) {
      const r = await api("POST", "/api/v1/complement_observations", { token: username ? await tokenOf(username) : null, body: b });
      expect(r.status, `${username} ${JSON.stringify(b)} ${JSON.stringify(r.body)}`).toBe(status);
    }
    expect((await api("POST", "/api/v1/complement_observations", { token: readOnly, body: body(f.idObservation) })).body).toMatchObject({
      status: 403,
      key: "errors.api.read-only-token",
    });
    const fields = async (b: Record<string, unknown>, path = "/api/v1/complement_observations", method = "POST") =>
      Object.keys(((await api(method, path, { token, body: b })).body as { fieldErrors: Record<string, string[]> }).fieldErrors).sort();
    expect(await fields(body(f.idObservation, { obsValNum: "beaucoup" }))).toEqual(["obsValNum"]);
    expect(await fields(body(f.idObservation, { dicoIdEltObserve: 999999 }))).toEqual(["dicoIdEltObserve"]);
    // Moved to an observation of another farm's campaign: a field error, the row stays.
    expect(await fields({ ...body(other.idObservation), updatedAt: current }, `/api/v1/complement_observations/${c.id}`, "PATCH")).toEqual([
      "observationsParcelle",
    ]);
    const patch = { ...body(f.idObservation), updatedAt: current };
    expect((await api("PATCH", `/api/v1/complement_observations/${c.id}`, { token: await tokenOf("lecteur"), body: patch })).status).toBe(403);
    expect((await api("PATCH", `/api/v1/complement_observations/${c.id}`, { token: readOnly, body: patch })).status).toBe(403);
    expect((await api("PATCH", "/api/v1/complement_observations/999999", { token, body: patch })).status).toBe(404);
    expect((await api("GET", "/api/v1/complement_observations/999999", { token })).status).toBe(404);
    expect(await Promise.all(["complement_observation", "observation"].map((table) => snapshot(t.db(), table)))).toEqual(before);

    // Another farm's complement: not read by the reader (403).
    const [theirs] = await t
      .db()("complement_observation")
      .insert({ idObservation: other.idObservation, dicoIdEltObserve: other.element, obsValNum: 1 })
      .returning("id");
    const idTheirs = typeof theirs === "object" ? theirs.id : theirs;
    expect((await api("GET", `/api/v1/complement_observations/${idTheirs}`, { token: await tokenOf("lecteur") })).status).toBe(403);
  });
});

afterAll(() => expectContract(APPELS_OBSERVATIONS, answered));
