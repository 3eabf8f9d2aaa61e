import { afterAll, describe, expect, test } from "vitest";
import { TYPE_INTRANT } from "~/domain/intrant";
import { countRows, snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_INTERVENTIONS } from "../../server/api/appels-interventions";
import { APPELS_INTRANTS } from "../../server/api/appels-intrants";

const t = useTestDb();
const { api, tokenOf, answered } = apiClient(t);

/** A plot of Tilleuls 2025, one of its operations, a phyto product, two targets, a fertiliser and a water type. */
async function fixture(campagne: "tilleuls2025" | "tilleuls2024" | "vallee2025" = "tilleuls2025") {
  const db = t.db();
  const idCampagne = t.demo().campagnes[campagne];
  const plot = await db("parcelle").where({ idCampagne }).orderBy("id").first("id");
  const op = await db("operation_culturale").where({ idCampagne }).orderBy("id").first("id");
  const phyto = await db("intrant_phyto").orderBy("idProduit").first("idProduit");
  const cibles = (await db("cible").orderBy("id").limit(2).pluck("id")).map(Number);
  const fert = await db("reference_fertilisant").whereNotNull("idTypeFertilisant").orderBy("id").first("id", "idTypeFertilisant");
  const eau = await db("categorie_intrant").where({ idTypeIntrant: TYPE_INTRANT.EAU }).orderBy("id").first("id");
  expect([plot, op, phyto, fert, eau].every(Boolean)).toBe(true);
  return {
    idCampagne,
    idParcelle: Number(plot.id),
    idOperationCulturale: Number(op.id),
    phyto: { type: "phyto", idIntrant: Number(phyto.idProduit), origine: 776, quantite: 1.5, dicLlUnite: "l/ha" },
    cibles,
    fertilisant: {
      type: "fertilisant",
      idCategorie: Number(fert.idTypeFertilisant),
      idIntrant: Number(fert.id),
      origine: 776,
      quantite: 200,
      dicLlUnite: "kg/ha",
    },
    eau: { type: "eau", idCategorie: Number(eau.id), quantite: 30, dicLlUnite: "mm" },
  };
}

const intervention = (f: { idParcelle: number; idOperationCulturale: number }, extra: Record<string, unknown> = {}) => ({
  idParcelle: f.idParcelle,
  idOperationCulturale: f.idOperationCulturale,
  date: "12/10/2024",
  frequence: 2,
  tauxSurface: 0.5,
  realisee: true,
  prevue: false,
  ...extra,
});

const writes = () => Promise.all(["action", "intrant", "intrant_cible", "caracteristique_intrant"].map((table) => snapshot(t.db(), table)));

describe(`interventions over the API (${dialect})`, () => {
  test("[C-API-05][C-API-06][C-API-01][C-API-02][C-API-03][C-API-04] POST actions (date converted, nombrePassage), GET actions/{id} and parcelles/{id}/actions, PATCH with updatedAt, DELETE", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const made = await api("POST", "/api/v1/actions", { token, body: intervention(f) });
    expect(made.status).toBe(201);
    const action = made.body as { id: number; updatedAt: string };
    expect(made.body).toMatchObject({ idParcelle: f.idParcelle, date: "2024-10-12", frequence: 2, tauxSurface: 0.5, nombrePassage: 1, realisee: true });
    const stored = await t.db()("action").where({ id: action.id }).first("idCampagne", "nombrePassage");
    expect([Number(stored.idCampagne), Number(stored.nombrePassage)]).toEqual([f.idCampagne, 1]);

    const reader = await tokenOf("lecteur");
    expect((await api("GET", `/api/v1/actions/${action.id}`, { token: reader })).body).toMatchObject({ id: action.id, date: "2024-10-12" });
    const list = await api("GET", `/api/v1/parcelles/${f.idParcelle}/actions?locale=en`, { token: reader });
    expect(list.status).toBe(200);
    const rows = list.body as { id: number; idParcelle: number }[];
    expect(rows.map((r) => r.id)).toContain(action.id);
    expect(rows.every((r) => r.idParcelle === f.idParcelle)).toBe(true);

    const patched = await api("PATCH", `/api/v1/actions/${action.id}`, {
      token,
      body: { ...intervention(f, { frequence: 3, tauxSurface: 1 }), updatedAt: action.updatedAt },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ frequence: 3, nombrePassage: 3 });
    const stale = await api("PATCH", `/api/v1/actions/${action.id}`, { token, body: { ...intervention(f), updatedAt: action.updatedAt } });
    expect(stale.status).toBe(409);
    expect(Number((await t.db()("action").where({ id: action.id }).first("frequence")).frequence)).toBe(3);

    expect((await api("DELETE", `/api/v1/actions/${action.id}`, { token: reader })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/actions/${action.id}`, { token })).status).toBe(204);
    expect(await countRows(t.db(), "action", { id: action.id })).toBe(0);
    expect((await api("DELETE", `/api/v1/actions/${action.id}`, { token })).status).toBe(404);
    expect((await api("GET", `/api/v1/actions/${action.id}`, { token })).status).toBe(404);
    // locale=en on a GET: the answer's messages in English.
    expect((await api("GET", `/api/v1/actions/${action.id}?locale=en`, { token })).body).toMatchObject({ status: 404, title: "Not found" });
    expect((await api("GET", `/api/v1/actions/${action.id}`, { token })).body).toMatchObject({ title: "Introuvable" });
    expect((await api("GET", "/api/v1/parcelles/999999/actions", { token })).status).toBe(404);
  });

  test("[C-API-05] rights: a reader token, another farm's plot, a locked campaign and a validated series write nothing (403)", async () => {
    const f = await fixture();
    const locked = await fixture("tilleuls2024");
    const other = await fixture("vallee2025");
    const before = await writes();
    const cases: [string, Record<string, unknown>][] = [
      ["lecteur", intervention(f)],
      ["synthese", intervention(f)],
      ["redacteur", intervention(locked)],
      ["lecteur", intervention(other)],
    ];
    for (const [username, body] of cases) {
      const r = await api("POST", "/api/v1/actions", { token: await tokenOf(username), body });
      expect([username, r.status]).toEqual([username, 403]);
    }
    // A read-only personal token of a writer.
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    expect((await api("POST", "/api/v1/actions", { token: readOnly, body: intervention(f) })).status).toBe(403);
    // A validated calculation series locks the raw data of its campaign.
    await t.db()("campagne").where({ id: f.idCampagne }).update({ serieValide: true });
    try {
      const r = await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, {
        token: await tokenOf("redacteur"),
        body: { interventions: [intervention(f)] },
      });
      expect(r.status).toBe(403);
      expect((await api("POST", "/api/v1/actions", { token: await tokenOf("redacteur"), body: intervention(f) })).status).toBe(403);
    } finally {
      await t.db()("campagne").where({ id: f.idCampagne }).update({ serieValide: false });
    }
    expect(await writes()).toEqual(before);
  });

  test("[C-API-06] bad input: wrong types, unknown fields, a date outside the campaign, a foreign operation: 400 naming the field, nothing stored", async () => {
    const f = await fixture();
    const other = await fixture("vallee2025");
    const token = await tokenOf("redacteur");
    const before = await writes();
    const cases: [Record<string, unknown>, string][] = [
      [intervention(f, { frequence: "beaucoup" }), "frequence"],
      [intervention(f, { date: "31/02/2024" }), "date"],
      [intervention(f, { date: "2030-01-01" }), "date"],
      [intervention(f, { idOperationCulturale: other.idOperationCulturale }), "idOperationCulturale"],
      [intervention(f, { couleur: "bleu" }), "couleur"],
    ];
    for (const [body, field] of cases) {
      const r = await api("POST", "/api/v1/actions", { token, body });
      expect([field, r.status]).toEqual([field, 400]);
      expect(Object.keys((r.body as { fieldErrors: object }).fieldErrors)).toContain(field);
    }
    expect((await api("POST", "/api/v1/actions", { token, raw: "{not json" })).status).toBe(400);
    expect(await writes()).toEqual(before);
  });
});

describe(`inputs over the API (${dialect})`, () => {
  test("[C-API-07][C-API-08][C-API-09][C-API-14] POST intrants with its targets (empty ids dropped) and characteristics, GET them, PATCH, DELETE", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const action = (await api("POST", "/api/v1/actions", { token, body: intervention(f) })).body as { id: number };

    const phyto = await api("POST", "/api/v1/intrants", { token, body: { idAction: action.id, ...f.phyto, cible1: "", cible2: f.cibles[0], cible3: null } });
    expect(phyto.status).toBe(201);
    const p = phyto.body as { id: number; updatedAt: string; cibles: { id: number }[] };
    expect(phyto.body).toMatchObject({ type: TYPE_INTRANT.PHYTO, idIntrant: f.phyto.idIntrant, quantite: 1.5, unite: "l/ha" });
    // The empty target is dropped: the one given is the main target.
    expect(p.cibles.map((c) => c.id)).toEqual([f.cibles[0]]);
    const stored = await t
      .db()("intrant_cible as ic")
      .join("intrant_cible_cible as icc", "icc.idIntrantCible", "ic.id")
      .where("ic.idIntrant", p.id)
      .select("icc.idCible", "icc.rang");
    expect(stored.map((r) => [Number(r.idCible), Number(r.rang)])).toEqual([[f.cibles[0], 1]]);

    const fert = await api("POST", "/api/v1/intrants", { token, body: { idAction: action.id, ...f.fertilisant, n: 27, p2o5: 0 } });
    expect(fert.status).toBe(201);
    expect((fert.body as { caracteristique: Record<string, number | null> }).caracteristique).toMatchObject({ n: 27, p2o5: 0 });
    const car = await t
      .db()("caracteristique_intrant")
      .where({ idIntrant: (fert.body as { id: number }).id })
      .first("n");
    expect(Number(car.n)).toBe(27);

    const reader = await tokenOf("lecteur");
    const list = await api("GET", `/api/v1/actions/${action.id}/intrants`, { token: reader });
    expect((list.body as { id: number }[]).map((i) => i.id)).toEqual([p.id, (fert.body as { id: number }).id]);
    expect((await api("GET", `/api/v1/intrants/${p.id}`, { token: reader })).body).toMatchObject({ id: p.id, libelle: expect.any(String) });

    const patched = await api("PATCH", `/api/v1/intrants/${p.id}`, { token, body: { ...f.phyto, quantite: 2, cible1: f.cibles[1], updatedAt: p.updatedAt } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ quantite: 2, cibles: [{ id: f.cibles[1] }] });
    expect((await api("PATCH", `/api/v1/intrants/${p.id}`, { token, body: { ...f.phyto, updatedAt: p.updatedAt } })).status).toBe(409);
    // Another type than the stored one: not that input.
    const asWater = await api("PATCH", `/api/v1/intrants/${p.id}`, { token, body: { ...f.eau, updatedAt: (patched.body as { updatedAt: string }).updatedAt } });
    expect(asWater.status).toBe(404);

    expect((await api("DELETE", `/api/v1/intrants/${p.id}`, { token: reader })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/intrants/${p.id}`, { token })).status).toBe(204);
    expect(await countRows(t.db(), "intrant", { id: p.id })).toBe(0);
    expect(await countRows(t.db(), "intrant_cible", { idIntrant: p.id })).toBe(0);
    expect((await api("GET", `/api/v1/intrants/${p.id}`, { token })).status).toBe(404);
  });

  test("[C-API-07] bad inputs and rights: 4xx naming the field, nothing stored; another farm's intervention 403", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const action = (await api("POST", "/api/v1/actions", { token, body: intervention(f) })).body as { id: number };
    const otherAction = await t.db()("action").where({ idCampagne: t.demo().campagnes.vallee2025 }).first("id");
    expect(otherAction).toBeTruthy();
    const before = await writes();
    const cases: [Record<string, unknown>, number, string | null][] = [
      [{ idAction: action.id, ...f.phyto, quantite: -1 }, 400, "quantite"],
      [{ idAction: action.id, ...f.phyto, dicLlUnite: "parsec" }, 400, "dicLlUnite"],
      [{ idAction: action.id, ...f.phyto, idIntrant: 999999999 }, 400, "idIntrant"],
      [{ idAction: action.id, ...f.phyto, cible1: 999999 }, 400, "cible1"],
      [{ idAction: action.id, ...f.phyto, cible1: f.cibles[0], cible2: f.cibles[0] }, 400, "cible2"],
      [{ idAction: action.id, ...f.phyto, type: "potion" }, 400, "type"],
      [{ idAction: action.id, ...f.phyto, marque: "x" }, 400, "marque"],
      [{ idAction: "abc", ...f.phyto }, 400, "idAction"],
      [{ idAction: 999999, ...f.phyto }, 404, null],
    ];
    // Vallée moved to a folder the writer has no right on: another farm's intervention.
    const { exploitations, dossiers } = t.demo();
    const [{ id: hidden }] = await t
      .db()("dossier")
      .insert({ libelle: "Dossier fermé", idOad: (await t.db()("dossier").where({ id: dossiers.bocage }).first("idOad")).idOad })
      .returning("id");
    const links = await t.db()("dossier_exploitation").where({ idExploitation: exploitations.vallee }).select("id", "idDossier");
    await t
      .db()("dossier_exploitation")
      .where({ idExploitation: exploitations.vallee })
      .update({ idDossier: typeof hidden === "object" ? hidden.id : hidden });
    try {
      const r = await api("POST", "/api/v1/intrants", { token, body: { idAction: Number(otherAction.id), ...f.phyto } });
      expect(r.status).toBe(403);
      expect((await api("GET", `/api/v1/actions/${Number(otherAction.id)}/intrants`, { token })).status).toBe(403);
    } finally {
      for (const l of links) await t.db()("dossier_exploitation").where({ id: l.id }).update({ idDossier: l.idDossier });
    }
    for (const [body, status, field] of cases) {
      const r = await api("POST", "/api/v1/intrants", { token, body });
      expect([field, r.status]).toEqual([field, status]);
      if (field) expect(Object.keys((r.body as { fieldErrors: object }).fieldErrors)).toContain(field);
    }
    expect((await api("POST", "/api/v1/intrants", { token: await tokenOf("lecteur"), body: { idAction: action.id, ...f.eau } })).status).toBe(403);
    expect(await writes()).toEqual(before);
  });
});

describe(`harvest qualifiers and output types over the API (${dialect})`, () => {
  test("[C-API-17][C-API-20] qualifiant_recoltes of the campaign's folder: list, create (same name once), delete (in use: 409); types_sorties of a crop", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const reader = await tokenOf("lecteur");
    const list = await api("GET", `/api/v1/qualifiant_recoltes?campagne=${campagnes.tilleuls2025}`, { token: reader });
    expect(list.status).toBe(200);
    const made = await api("POST", "/api/v1/qualifiant_recoltes", { token, body: { campagne: campagnes.tilleuls2025, qrdNom: "Qualité API" } });
    expect(made.status).toBe(201);
    const q = made.body as { id: number };
    const again = await api("POST", "/api/v1/qualifiant_recoltes", { token, body: { campagne: campagnes.tilleuls2025, qrdNom: "Qualité API" } });
    expect((again.body as { id: number }).id).toBe(q.id);
    expect(await countRows(t.db(), "qualifiant_recolte", { qrdNom: "Qualité API" })).toBe(1);
    expect((await api("POST", "/api/v1/qualifiant_recoltes", { token: reader, body: { campagne: campagnes.tilleuls2025, qrdNom: "Non" } })).status).toBe(403);
    expect((await api("POST", "/api/v1/qualifiant_recoltes", { token, body: { campagne: campagnes.tilleuls2025, qrdNom: "" } })).status).toBe(400);
    expect((await api("POST", "/api/v1/qualifiant_recoltes", { token, body: { campagne: campagnes.tilleuls2024, qrdNom: "Verrouillée" } })).status).toBe(403);
    expect(await countRows(t.db(), "qualifiant_recolte", { qrdNom: "Non" })).toBe(0);
    const used = (list.body as { id: number; utilise: boolean }[]).find((x) => x.utilise);
    if (used) expect((await api("DELETE", `/api/v1/qualifiant_recoltes/${used.id}?campagne=${campagnes.tilleuls2025}`, { token })).status).toBe(409);
    expect((await api("DELETE", `/api/v1/qualifiant_recoltes/${q.id}?campagne=${campagnes.tilleuls2025}`, { token: reader })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/qualifiant_recoltes/${q.id}?campagne=${campagnes.tilleuls2025}`, { token })).status).toBe(204);
    expect(await countRows(t.db(), "qualifiant_recolte", { id: q.id })).toBe(0);
    expect((await api("DELETE", `/api/v1/qualifiant_recoltes/${q.id}?campagne=${campagnes.tilleuls2025}`, { token })).status).toBe(404);

    const crop = await t.db()("culture_type_sortie").orderBy("idCulture").first("idCulture");
    const types = await api("GET", `/api/v1/types_sorties?idCulture=${crop.idCulture}&campagne=${campagnes.tilleuls2025}`, { token: reader });
    expect(types.status).toBe(200);
    expect((types.body as unknown[]).length).toBeGreaterThan(0);
    expect((await api("GET", `/api/v1/types_sorties?idCulture=${crop.idCulture}&campagne=${campagnes.vallee2025}`, { token: reader })).status).toBe(403);
  });
});

describe(`catalogues over the API (${dialect})`, () => {
  test("[C-API-10][C-API-11][C-API-12][C-API-13] the catalogues: phyto products, fertilisers by type and folder, other inputs, varieties, active matter, reference doses", async () => {
    const db = t.db();
    const { dossiers } = t.demo();
    const token = await tokenOf("lecteur");
    const phyto = await db("intrant_phyto").whereNotNull("ammProduit").orderBy("idProduit").first("idProduit", "idSource", "nomProduit", "ammProduit");
    const found = await api("GET", `/api/v1/intrant_phytos?q=${encodeURIComponent(String(phyto.nomProduit).slice(0, 6))}`, { token });
    expect(found.status).toBe(200);
    expect((found.body as { idProduit: number }[]).map((p) => p.idProduit)).toContain(Number(phyto.idProduit));
    expect((await api("GET", `/api/v1/intrant_phytos/dossier/${dossiers.beauce}?q=a`, { token })).status).toBe(200);
    // A folder the user does not read.
    expect((await api("GET", `/api/v1/intrant_phytos/dossier/${dossiers.bocage}`, { token })).status).toBe(403);

    const fert = await db("reference_fertilisant").whereNotNull("idTypeFertilisant").orderBy("id").first("idTypeFertilisant");
    const ferts = await api("GET", `/api/v1/reference_fertilisants?idTypeFertilisant=${fert.idTypeFertilisant}&idDossier=${dossiers.beauce}`, { token });
    expect(ferts.status).toBe(200);
    const list = ferts.body as { idTypeFertilisant: number | null }[];
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((f) => f.idTypeFertilisant === Number(fert.idTypeFertilisant) || f.idTypeFertilisant === null)).toBe(true);
    expect((await api("GET", `/api/v1/reference_fertilisants?idDossier=${dossiers.bocage}`, { token })).status).toBe(403);
    expect((await api("GET", "/api/v1/reference_autre_intrants", { token })).status).toBe(200);

    const semence = await db("reference_semence").whereNotNull("idCulture").orderBy("id").first("idCulture");
    if (semence) {
      const varieties = await api("GET", `/api/v1/reference_semences/${semence.idCulture}?origine=776`, { token });
      expect(varieties.status).toBe(200);
      expect((varieties.body as unknown[]).length).toBeGreaterThan(0);
    }
    expect((await api("GET", `/api/v1/reference_semences/1?origine=775`, { token })).status).toBe(400);

    const matiere = await api("GET", `/api/v1/matiere_actives/${phyto.idProduit}-${phyto.idSource}`, { token });
    expect([200, 404]).toContain(matiere.status);
    if (matiere.status === 200) expect(matiere.body).toMatchObject({ id: expect.any(Number), composition: expect.any(Array) });
    expect((await api("GET", "/api/v1/matiere_actives/abc", { token })).status).toBe(400);
    expect((await api("GET", "/api/v1/matiere_actives/999999999-1", { token })).status).toBe(404);

    const dose = await db("reference_dose_cible_ift").whereNotNull("idCible").orderBy("id").first("codeAmm", "idCulture", "anneeRecolte", "idCible");
    expect(dose).toBeTruthy();
    const doses = await api(
      "GET",
      `/api/v1/reference_dose_cible_ifts?codeAmm=${dose.codeAmm}&anneeRecolte=${dose.anneeRecolte}&idCulture=${dose.idCulture}&idCible=${dose.idCible}&idCible=999999`,
      { token },
    );
    expect(doses.status).toBe(200);
    expect((doses.body as { exists: Record<string, boolean> }).exists).toEqual({ [String(dose.idCible)]: true, "999999": false });
    expect((await api("GET", `/api/v1/reference_dose_cible_ifts?codeAmm=${dose.codeAmm}`, { token })).status).toBe(400);
  });
});

describe(`unreferenced inputs over the API (${dialect})`, () => {
  test("[C-API-21][C-API-22] POST intrant_dossiers (a fertiliser with its percentages), GET intrant_dossiers/{id}, PATCH by the folder's animator; refusals store nothing", async () => {
    const { campagnes } = t.demo();
    const campagne = campagnes.tilleuls2025;
    const redacteur = await tokenOf("redacteur");
    const fields = { dicIdTypeIntrant: 540, libelle: "Engrais maison API", idCategorie: 655, n: 40, p2o5: 30, k2o: 30 };
    const before = await Promise.all(["intrant_dossier", "fertilisant_compo_dossier"].map((table) => snapshot(t.db(), table)));
    const refused: [string, Record<string, unknown>, number][] = [
      ["lecteur", { campagne, ...fields }, 403],
      ["redacteur", { campagne: campagnes.tilleuls2024, ...fields }, 403],
      ["redacteur", { campagne, ...fields, k2o: 10 }, 400],
      ["redacteur", { campagne, ...fields, idCategorie: 999999 }, 400],
      ["redacteur", { campagne, ...fields, saveur: "x" }, 400],
      ["redacteur", { ...fields }, 400],
    ];
    for (const [username, body, status] of refused) {
      const r = await api("POST", "/api/v1/intrant_dossiers", { token: await tokenOf(username), body });
      expect([username, body.k2o, r.status]).toEqual([username, body.k2o, status]);
    }
    expect(await Promise.all(["intrant_dossier", "fertilisant_compo_dossier"].map((table) => snapshot(t.db(), table)))).toEqual(before);

    const made = await api("POST", "/api/v1/intrant_dossiers", { token: redacteur, body: { campagne, ...fields } });
    expect(made.status).toBe(201);
    const d = made.body as { id: number; updatedAt: string };
    expect(made.body).toMatchObject({ libelle: "Engrais maison API", composition: { n: 40, p2o5: 30, k2o: 30 } });
    expect((await api("GET", `/api/v1/intrant_dossiers/${d.id}?campagne=${campagne}`, { token: await tokenOf("lecteur") })).body).toMatchObject({ id: d.id });
    // The percentages of a folder's fertiliser are the animator's to change.
    const changed = { campagne, ...fields, n: 50, p2o5: 25, k2o: 25, updatedAt: d.updatedAt };
    expect((await api("PATCH", `/api/v1/intrant_dossiers/${d.id}`, { token: redacteur, body: changed })).status).toBe(403);
    const patched = await api("PATCH", `/api/v1/intrant_dossiers/${d.id}`, { token: await tokenOf("animateur"), body: changed });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ composition: { n: 50, p2o5: 25, k2o: 25 }, relabelled: 0 });
    expect((await api("PATCH", `/api/v1/intrant_dossiers/${d.id}`, { token: await tokenOf("animateur"), body: changed })).status).toBe(409);
    expect(Number((await t.db()("fertilisant_compo_dossier").where({ idIntrantDossier: d.id }).first("n")).n)).toBe(50);
  });
});

describe(`harvests over the API (${dialect})`, () => {
  test("[C-API-15][C-API-16] GET actions/{id}/recoltes and recoltes/{id} with their characteristics, POST recoltes, PATCH with updatedAt, DELETE; refusals store nothing", async () => {
    const { campagnes } = t.demo();
    const db = t.db();
    const seeded = await db("recolte as r")
      .join("action as a", "a.id", "r.idAction")
      .where("a.idCampagne", campagnes.tilleuls2025)
      .orderBy("r.id")
      .first("r.idAction", "r.idCulture", "r.dicIdTypeSortie");
    expect(seeded).toBeTruthy();
    const idAction = Number(seeded.idAction);
    const token = await tokenOf("redacteur");
    const reader = await tokenOf("lecteur");
    const fields = { idCulture: Number(seeded.idCulture), dicIdTypeSortie: Number(seeded.dicIdTypeSortie), rendement: 72.5, humiditeReference: 15 };
    const made = await api("POST", "/api/v1/recoltes", { token, body: { idAction, ...fields } });
    expect(made.status).toBe(201);
    const h = made.body as { id: number; updatedAt: string };
    expect(made.body).toMatchObject({ idAction, rendement: 72.5, humiditeReference: 15 });
    const list = await api("GET", `/api/v1/actions/${idAction}/recoltes`, { token: reader });
    expect((list.body as { id: number }[]).map((r) => r.id)).toContain(h.id);
    expect((await api("GET", `/api/v1/recoltes/${h.id}`, { token: reader })).body).toMatchObject({ id: h.id, rendement: 72.5 });

    const patched = await api("PATCH", `/api/v1/recoltes/${h.id}`, { token, body: { ...fields, rendement: 80, updatedAt: h.updatedAt } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ rendement: 80 });
    expect((await api("PATCH", `/api/v1/recoltes/${h.id}`, { token, body: { ...fields, updatedAt: h.updatedAt } })).status).toBe(409);

    const before = await Promise.all(["recolte", "caracteristique_recolte"].map((table) => snapshot(db, table)));
    const refused: [string, Record<string, unknown>, number][] = [
      ["lecteur", { idAction, ...fields }, 403],
      ["redacteur", { idAction, ...fields, rendement: -1 }, 400],
      ["redacteur", { idAction, ...fields, idCulture: 999999 }, 400],
      ["redacteur", { idAction, ...fields, gout: "sucré" }, 400],
      ["redacteur", { idAction: 999999, ...fields }, 404],
    ];
    for (const [username, body, status] of refused) {
      const r = await api("POST", "/api/v1/recoltes", { token: await tokenOf(username), body });
      expect([username, body.rendement, r.status]).toEqual([username, body.rendement, status]);
    }
    expect((await api("DELETE", `/api/v1/recoltes/${h.id}`, { token: reader })).status).toBe(403);
    expect(await Promise.all(["recolte", "caracteristique_recolte"].map((table) => snapshot(db, table)))).toEqual(before);
    expect((await api("DELETE", `/api/v1/recoltes/${h.id}`, { token })).status).toBe(204);
    expect(await countRows(db, "recolte", { id: h.id })).toBe(0);
    expect((await api("GET", `/api/v1/recoltes/${h.id}`, { token })).status).toBe(404);
  });
});

describe(`a season in one call (${dialect})`, () => {
  const season = (f: Awaited<ReturnType<typeof fixture>>, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      date: `2024-${String(1 + (i % 12)).padStart(2, "0")}-15`,
      idOperationCulturale: f.idOperationCulturale,
      frequence: 1,
      tauxSurface: 1,
      realisee: true,
      intrants: [{ ...f.phyto, cible1: f.cibles[0] }, f.fertilisant, f.eau] as Record<string, unknown>[],
    }));

  test("[issue27-bulk] POST parcelles/{id}/saison: 30 interventions with 90 inputs stored in one call", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const before = await countRows(t.db(), "action", { idParcelle: f.idParcelle });
    const r = await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, { token, body: { interventions: season(f, 30) } });
    expect(r.status).toBe(201);
    const out = r.body as { interventions: { index: number; id: number; intrants: number[] }[] };
    expect(out.interventions).toHaveLength(30);
    expect(out.interventions.every((x, i) => x.index === i && x.intrants.length === 3)).toBe(true);
    expect(await countRows(t.db(), "action", { idParcelle: f.idParcelle })).toBe(before + 30);
    const ids = out.interventions.map((x) => x.id);
    expect(Number((await t.db()("intrant").whereIn("idAction", ids).count({ n: "*" }))[0].n)).toBe(90);
    expect(
      Number(
        (
          await t
            .db()("intrant_cible")
            .whereIn(
              "idIntrant",
              out.interventions.map((x) => x.intrants[0]),
            )
            .count({ n: "*" })
        )[0].n,
      ),
    ).toBe(30);
  });

  test("[issue27-bulk] one bad row, or one bad input, stores nothing and names the row as the grid does", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const before = await writes();
    const rows = season(f, 10);
    rows[3] = { ...rows[3], date: "2031-01-01" };
    rows[7] = { ...rows[7], intrants: [rows[7].intrants[0], { ...f.fertilisant, quantite: "beaucoup" as never }, { ...f.phyto, idIntrant: 999999999 }] };
    const r = await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, { token, body: { interventions: rows } });
    expect(r.status).toBe(400);
    const errors = (r.body as { fieldErrors: Record<string, string[]> }).fieldErrors;
    expect(errors).toMatchObject({ "interventions.3.date": expect.any(Array), "interventions.7.intrants.1.quantite": expect.any(Array) });
    expect(Object.keys(errors).every((k) => /^interventions\.(3|7)\./.test(k))).toBe(true);
    // A catalogue refusal is named too (the row's input is checked by the dialog's service).
    const one = await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, {
      token,
      body: { interventions: [season(f, 1)[0], { ...season(f, 1)[0], intrants: [{ ...f.phyto, idIntrant: 999999999 }] }] },
    });
    expect(one.status).toBe(400);
    expect((one.body as { fieldErrors: object }).fieldErrors).toEqual({ "interventions.1.intrants.0.idIntrant": ["warning.invalid"] });
    const empty = await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, { token, body: { interventions: [] } });
    expect(empty.status).toBe(400);
    const unknown = await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, {
      token,
      body: { interventions: [{ ...season(f, 1)[0], idParcelle: f.idParcelle }] },
    });
    expect(unknown.status).toBe(400);
    expect((unknown.body as { fieldErrors: object }).fieldErrors).toEqual({ "interventions.0.idParcelle": ["warning.invalid"] });
    expect((await api("POST", "/api/v1/parcelles/999999/saison", { token, body: { interventions: season(f, 1) } })).status).toBe(404);
    expect(
      (await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, { token: await tokenOf("lecteur"), body: { interventions: season(f, 1) } })).status,
    ).toBe(403);
    expect(await writes()).toEqual(before);
  });

  test("[issue27-idempotency] a POST retried with its Idempotency-Key creates once and is answered the same; the key with another body is 422", async () => {
    const f = await fixture();
    const token = await tokenOf("redacteur");
    const headers = { "Idempotency-Key": "7d5f2c1e-saison-2025" };
    const body = { interventions: season(f, 2) };
    const first = await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, { token, body, headers });
    expect(first.status).toBe(201);
    const count = await countRows(t.db(), "action", { idParcelle: f.idParcelle });
    const again = await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, { token, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await countRows(t.db(), "action", { idParcelle: f.idParcelle })).toBe(count);
    // Another token of the same user: the same answer.
    const other = await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, { token: await tokenOf("redacteur"), body, headers });
    expect(other.body).toEqual(first.body);
    const reused = await api("POST", `/api/v1/parcelles/${f.idParcelle}/saison`, { token, body: { interventions: season(f, 3) }, headers });
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ key: "api-terrain.idempotence.reutilisee" });
    expect((await api("POST", "/api/v1/actions", { token, body: intervention(f), headers: { "Idempotency-Key": "" } })).status).toBe(400);
    expect(await countRows(t.db(), "action", { idParcelle: f.idParcelle })).toBe(count);
    // A refused request keeps nothing: sent again corrected with the same key, it creates.
    const bad = await api("POST", "/api/v1/actions", { token, body: intervention(f, { frequence: -1 }), headers: { "Idempotency-Key": "action-1" } });
    expect(bad.status).toBe(400);
    const good = await api("POST", "/api/v1/actions", { token, body: intervention(f), headers: { "Idempotency-Key": "action-1" } });
    expect(good.status).toBe(201);
    expect(await countRows(t.db(), "action", { idParcelle: f.idParcelle })).toBe(count + 1);
    // Two at once with one key: one creation.
    const key = { "Idempotency-Key": "en-meme-temps" };
    const both = await Promise.all([0, 1].map(() => api("POST", "/api/v1/actions", { token, body: intervention(f), headers: key })));
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(both[0].body).toEqual(both[1].body);
    expect(await countRows(t.db(), "action", { idParcelle: f.idParcelle })).toBe(count + 2);
  });
});

afterAll(() => expectContract([...APPELS_INTERVENTIONS, ...APPELS_INTRANTS], answered));
