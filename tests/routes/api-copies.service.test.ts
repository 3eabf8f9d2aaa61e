import { afterAll, describe, expect, test } from "vitest";
import { snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_COPIES } from "../../server/api/appels-copies";
import { ProblemSchema } from "../../server/http/api.server";

/**
 * The copy and duplication calls of the JSON API (issue 27, C-API-32..38) over HTTP with a bearer token, on SQLite and
 * PostgreSQL: what each copies is read back from the database; refusals store nothing.
 */

const t = useTestDb();
const { api, tokenOf, answered } = apiClient(t);

/** Two plots of a campaign, the first with interventions. */
async function plots(campagne: "tilleuls2025" | "tilleuls2024" | "vallee2025" = "tilleuls2025") {
  const db = t.db();
  const idCampagne = t.demo().campagnes[campagne];
  const withActions = (await db("action").where({ idCampagne }).orderBy("idParcelle").first("idParcelle")).idParcelle;
  const other = await db("parcelle").where({ idCampagne }).whereNot({ id: withActions }).orderBy("id").first("id");
  const source = Number(withActions);
  const actions = (await db("action").where({ idParcelle: source }).orderBy("id").pluck("id")).map(Number);
  expect(actions.length).toBeGreaterThan(1);
  return { idCampagne, source, cible: Number(other.id), actions };
}

const actionsOn = async (idParcelle: number) => Number((await t.db()("action").where({ idParcelle }).count({ n: "*" }))[0].n);

describe(`copies over the API (${dialect})`, () => {
  test("[C-API-32] PATCH parcelles/{id}/copie_action copies the interventions named by actionSource into the plot", async () => {
    const p = await plots();
    const token = await tokenOf("redacteur");
    const before = await actionsOn(p.cible);
    const one = await api("PATCH", `/api/v1/parcelles/${p.cible}/copie_action`, { token, body: { actionSource: p.actions[0] } });
    expect(one).toMatchObject({ status: 200, body: { copies: 1 } });
    const two = await api("PATCH", `/api/v1/parcelles/${p.cible}/copie_action`, { token, body: { actionSource: p.actions.slice(0, 2) } });
    expect(two.body).toEqual({ copies: 2 });
    expect(await actionsOn(p.cible)).toBe(before + 3);
    const copied = await t.db()("action").where({ id: p.actions[0] }).first("idOperationCulturale", "date");
    expect(
      Number((await t.db()("action").where({ idParcelle: p.cible, idOperationCulturale: copied.idOperationCulturale }).count({ n: "*" }))[0].n),
    ).toBeGreaterThan(0);
  });

  test("[C-API-33] PATCH parcelles/{id}/copie_actions with actionsSource, dossierDestination and suppressionInterventionsParcellesDst replaces the plot's interventions", async () => {
    const p = await plots();
    const token = await tokenOf("redacteur");
    const r = await api("PATCH", `/api/v1/parcelles/${p.cible}/copie_actions`, {
      token,
      body: { actionsSource: p.actions.slice(0, 2), dossierDestination: t.demo().dossiers.beauce, suppressionInterventionsParcellesDst: true },
    });
    expect(r).toMatchObject({ status: 200, body: { copies: 2 } });
    expect(await actionsOn(p.cible)).toBe(2);
    // Another farm's campaign in another folder the user may write: the copy goes there too.
    const v = await plots("vallee2025");
    const across = await api("PATCH", `/api/v1/parcelles/${v.cible}/copie_actions`, {
      token,
      body: { actionsSource: [p.actions[0]], dossierDestination: t.demo().dossiers.bocage, suppressionInterventionsParcellesDst: false },
    });
    expect(across.body).toEqual({ copies: 1 });
  });

  test("[C-API-34] PATCH parcelles/{id}/copie_series copies series with eltObserve and valeur to the plot", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const serie = await db("observation_serie").where({ idCampagne }).orderBy("id").first("id", "idParcelle");
    expect(serie).toBeTruthy();
    const cible = Number((await db("parcelle").where({ idCampagne }).whereNot({ id: serie.idParcelle }).orderBy("id").first("id")).id);
    const before = Number((await db("observation_serie").where({ idParcelle: cible }).count({ n: "*" }))[0].n);
    const token = await tokenOf("redacteur");
    const r = await api("PATCH", `/api/v1/parcelles/${cible}/copie_series`, {
      token,
      body: {
        seriesSource: [Number(serie.id)],
        dossierDestination: t.demo().dossiers.beauce,
        eltObserve: true,
        valeur: true,
        suppressionSeriesParcellesDst: false,
      },
    });
    expect(r).toMatchObject({ status: 200, body: { copies: 1 } });
    expect(Number((await db("observation_serie").where({ idParcelle: cible }).count({ n: "*" }))[0].n)).toBe(before + 1);
  });

  test("[C-API-35] PATCH parcelles/{id}/duplication_interventions duplicates the source plot's interventions to parcellesDestination", async () => {
    const p = await plots();
    const token = await tokenOf("redacteur");
    const r = await api("PATCH", `/api/v1/parcelles/${p.source}/duplication_interventions`, {
      token,
      body: { parcellesDestination: [p.cible], suppressionInterventionsParcellesDst: true },
    });
    expect(r).toMatchObject({ status: 200, body: { copies: p.actions.length } });
    expect(await actionsOn(p.cible)).toBe(p.actions.length);
    // The source plot as its own destination is refused by the dialog's schema.
    const self = await api("PATCH", `/api/v1/parcelles/${p.source}/duplication_interventions`, {
      token,
      body: { parcellesDestination: [p.source], suppressionInterventionsParcellesDst: false },
    });
    expect(self.status).toBe(400);
  });

  test("[C-API-32][C-API-33][C-API-34][C-API-35] copies refused: a reader (403), a read-only token (403), a locked destination campaign (403), bad input (400), an unknown plot (404); nothing stored", async () => {
    const p = await plots();
    const locked = await plots("tilleuls2024");
    const before = await snapshot(t.db(), "action", "observation_serie");
    const beauce = t.demo().dossiers.beauce;
    const lecteur = await tokenOf("lecteur");
    const redacteur = await tokenOf("redacteur");
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    const cases: [string, string, string, unknown, number][] = [
      ["reader", lecteur, `/api/v1/parcelles/${p.cible}/copie_action`, { actionSource: p.actions[0] }, 403],
      ["read-only token", readOnly, `/api/v1/parcelles/${p.cible}/copie_action`, { actionSource: p.actions[0] }, 403],
      ["locked", redacteur, `/api/v1/parcelles/${locked.cible}/copie_action`, { actionSource: locked.actions[0] }, 403],
      [
        "locked destination",
        redacteur,
        `/api/v1/parcelles/${locked.cible}/copie_actions`,
        { actionsSource: [p.actions[0]], dossierDestination: beauce, suppressionInterventionsParcellesDst: true },
        403,
      ],
      [
        "reader duplication",
        lecteur,
        `/api/v1/parcelles/${p.source}/duplication_interventions`,
        { parcellesDestination: [p.cible], suppressionInterventionsParcellesDst: true },
        403,
      ],
      [
        "locked duplication",
        redacteur,
        `/api/v1/parcelles/${p.source}/duplication_interventions`,
        { parcellesDestination: [locked.cible], suppressionInterventionsParcellesDst: true },
        403,
      ],
      ["bad id", redacteur, `/api/v1/parcelles/${p.cible}/copie_action`, { actionSource: "x" }, 400],
      ["unknown field", redacteur, `/api/v1/parcelles/${p.cible}/copie_action`, { actionSource: p.actions[0], autre: 1 }, 400],
      ["missing folder", redacteur, `/api/v1/parcelles/${p.cible}/copie_actions`, { actionsSource: [p.actions[0]] }, 400],
      ["no series", redacteur, `/api/v1/parcelles/${p.cible}/copie_series`, { seriesSource: [], dossierDestination: beauce }, 400],
      ["unknown plot", redacteur, `/api/v1/parcelles/999999/copie_action`, { actionSource: p.actions[0] }, 404],
      [
        "unknown source plot",
        redacteur,
        `/api/v1/parcelles/999999/duplication_interventions`,
        { parcellesDestination: [p.cible], suppressionInterventionsParcellesDst: false },
        404,
      ],
      ["unknown action", redacteur, `/api/v1/parcelles/${p.cible}/copie_actions`, { actionsSource: [999999], dossierDestination: beauce }, 404],
    ];
    for (const [why, token, path, body, status] of cases) {
      const r = await api("PATCH", path, { token, body });
      expect([why, r.status]).toEqual([why, status]);
      ProblemSchema.parse(r.body);
    }
    expect(await snapshot(t.db(), "action", "observation_serie")).toEqual(before);
  });

  test("[C-API-36] POST exploitations/duplication: a new farm in the destination folder with the chosen campaigns; a reader refused", async () => {
    const { dossiers, exploitations, campagnes, oads } = t.demo();
    const type = await t.db()("exploitation").where({ id: exploitations.tilleuls }).first("idTypeExploitation");
    const body = {
      libelle: "Tilleuls_",
      idTypeExploitation: Number(type.idTypeExploitation),
      idOad: oads.reseauDemo,
      idDossier: dossiers.beauce,
      campagnesCibles: [campagnes.tilleuls2025],
      dossierSource: dossiers.beauce,
      exploitationSource: exploitations.tilleuls,
    };
    const refused = await api("POST", "/api/v1/exploitations/duplication", { token: await tokenOf("lecteur"), body });
    expect(refused.status).toBe(403);
    expect(await t.db()("exploitation").where({ libelle: "Tilleuls_" }).first("id")).toBeUndefined();
    const bad = await api("POST", "/api/v1/exploitations/duplication", {
      token: await tokenOf("animateur"),
      body: { ...body, libelle: "", campagnesCibles: [] },
    });
    expect(bad.status).toBe(400);
    const made = await api("POST", "/api/v1/exploitations/duplication", { token: await tokenOf("animateur"), body });
    expect(made.status).toBe(201);
    const id = (made.body as { id: number }).id;
    expect(await t.db()("exploitation").where({ id }).first("libelle")).toMatchObject({ libelle: "Tilleuls_" });
    expect((await t.db()("campagne").where({ idExploitation: id }).select("anneeRecolte")).map((c) => Number(c.anneeRecolte))).toEqual([2025]);
    expect(await t.db()("dossier_exploitation").where({ idExploitation: id, idDossier: dossiers.beauce }).first("idDossier")).toBeTruthy();
  });

  test("[C-API-37] PATCH dossier/{id}/affectation_eges assigns the folder's fertilisers' categories for an animator; a folder writer and a locked campaign refused", async () => {
    const { dossiers, campagnes } = t.demo();
    const before = await snapshot(t.db(), "fertilisant_compo_dossier");
    const path = `/api/v1/dossier/${dossiers.beauce}/affectation_eges`;
    expect((await api("PATCH", path, { token: await tokenOf("redacteur"), body: { campagne: campagnes.tilleuls2025 } })).status).toBe(403);
    expect((await api("PATCH", path, { token: await tokenOf("animateur"), body: { campagne: campagnes.tilleuls2024 } })).status).toBe(403);
    expect((await api("PATCH", path, { token: await tokenOf("animateur"), body: { campagne: "x" } })).status).toBe(400);
    expect((await api("PATCH", path, { token: await tokenOf("animateur"), body: { campagne: 999999 } })).status).toBe(404);
    expect(await snapshot(t.db(), "fertilisant_compo_dossier")).toEqual(before);
    const r = await api("PATCH", path, { token: await tokenOf("animateur"), body: { campagne: campagnes.tilleuls2025 } });
    expect(r).toMatchObject({ status: 200, body: { affectees: 7, conservees: 1 } });
    const urea = await t
      .db()("intrant_dossier as i")
      .join("fertilisant_compo_dossier as c", "c.idIntrantDossier", "i.id")
      .where({ "i.idDossier": dossiers.beauce, "i.libelle": "Urée 46" })
      .first("c.categorieEges");
    expect(urea.categorieEges).toBe("UREE");
  });

  test("[C-API-38] GET parcelles/{id}/affectation_culture_cible and campagnes/{id}/parcelles/affectation_culture_cible: each plot's target crop among its mode's crops; another farm refused", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("lecteur");
    const list = await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/parcelles/affectation_culture_cible`, { token });
    expect(list.status).toBe(200);
    const rows = list.body as { idParcelle: number; idCulture: number | null; options: { id: number }[] }[];
    const plotCount = Number((await t.db()("parcelle").where({ idCampagne: campagnes.tilleuls2025 }).count({ n: "*" }))[0].n);
    expect(rows.length).toBe(plotCount);
    const withCrop = rows.find((r) => r.idCulture != null)!;
    expect(withCrop.options.map((o) => o.id)).toContain(withCrop.idCulture);
    const one = await api("GET", `/api/v1/parcelles/${withCrop.idParcelle}/affectation_culture_cible`, { token });
    expect(one.body).toEqual(withCrop);
    expect((await api("GET", `/api/v1/campagnes/${campagnes.vallee2025}/parcelles/affectation_culture_cible`, { token })).status).toBe(403);
    expect((await api("GET", `/api/v1/parcelles/999999/affectation_culture_cible`, { token })).status).toBe(404);
  });
});

afterAll(() => {
  if (answered.length) expectContract(APPELS_COPIES, answered);
});
