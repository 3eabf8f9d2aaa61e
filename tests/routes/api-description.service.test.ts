import { afterAll, describe, expect, test } from "vitest";
import { snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_DESCRIPTION } from "../../server/api/appels-description";

const t = useTestDb();
const { api, tokenOf, answered } = apiClient(t);

type Row = { id: number; updatedAt: string; [k: string]: unknown };

/** The reference rows the bodies need: an operation type, a crop, a feature type. */
async function refs() {
  const db = t.db();
  const typeAction = await db("type_action").orderBy("id").first("id", "libelle", "libelleEn");
  const culture = await db("culture").orderBy("id").first("id");
  const typeAmenagement = await db("type_amenagement").orderBy("id").first("id");
  expect([typeAction, culture, typeAmenagement].every(Boolean)).toBe(true);
  return {
    idTypeAction: Number(typeAction.id),
    typeAction: typeAction as { libelle: string; libelleEn: string | null },
    idCulture: Number(culture.id),
    idTypeAmenagement: Number(typeAmenagement.id),
  };
}

/**
 * One resource of the farm description as the API writes it: its table, list and item paths, a valid body, a
 * second valid body for the update, an invalid one and the fields its 400 names.
 */
type Resource = {
  ids: string;
  table: string;
  list: string;
  post: string;
  item: string;
  /** The item has its own GET. */
  readOne: boolean;
  body: (r: Awaited<ReturnType<typeof refs>>) => Record<string, unknown>;
  update: (r: Awaited<ReturnType<typeof refs>>) => Record<string, unknown>;
  invalid: Record<string, unknown>;
  invalidFields: string[];
  /** The saved row in a POST/PATCH answer. */
  saved: (body: unknown) => Row;
};

const plain = (b: unknown) => b as Row;
const RESOURCES: Resource[] = [
  {
    ids: "[B-API-09]",
    table: "main_oeuvre",
    list: "main_oeuvres",
    post: "/api/v1/main_oeuvres",
    item: "/api/v1/main_oeuvres",
    readOne: true,
    body: () => ({ libelle: "Salarié API", uta: 0.5, idTypeUser: 951, montant: 12000 }),
    update: () => ({ libelle: "Salarié API renommé", uta: "0,75", idTypeUser: 951 }),
    invalid: { libelle: "", uta: -1, idTypeUser: 951 },
    invalidFields: ["libelle", "uta"],
    saved: plain,
  },
  {
    ids: "[B-API-12][B-API-14]",
    table: "operation_culturale",
    list: "operation_culturales",
    post: "/api/v1/operation_culturales",
    item: "/api/v1/operation_culturales",
    readOne: true,
    body: (r) => ({ idTypeAction: r.idTypeAction, libelle: "Opération API", eta: true, debitReel: 2, consoCarburantReelle: 20 }),
    update: (r) => ({ idTypeAction: r.idTypeAction, libelle: "Opération API renommée", eta: true, debitReel: 3, consoCarburantReelle: 25 }),
    invalid: { libelle: "", debitReel: "beaucoup" },
    invalidFields: ["idTypeAction", "libelle", "debitReel", "consoCarburantReelle"],
    saved: (b) => (b as { operation: Row }).operation,
  },
  {
    ids: "[B-API-15]",
    table: "mode_conduite",
    list: "mode_conduites",
    post: "/api/v1/mode_conduites",
    item: "/api/v1/mode_conduites",
    readOne: true,
    body: (r) => ({ libelle: "Mode API", cultures: [{ idCulture: r.idCulture }] }),
    update: (r) => ({ libelle: "Mode API renommé", cultures: [{ idCulture: r.idCulture }], remarque: "Deux lignes\nde remarque" }),
    invalid: { libelle: "", cultures: [{}] },
    invalidFields: ["libelle", "cultures[0].idCulture"],
    saved: plain,
  },
  {
    ids: "[B-API-17]",
    table: "lot_parcelle",
    list: "lots",
    post: "/api/v1/lots",
    item: "/api/v1/lots",
    readOne: false,
    body: () => ({ libelle: "Lot API", irrigable: true, noIlotPac: "12" }),
    update: () => ({ libelle: "Lot API renommé", drainee: true }),
    invalid: { libelle: "", noIlotPac: "x".repeat(31) },
    invalidFields: ["libelle", "noIlotPac"],
    saved: (b) => (b as { lot: Row }).lot,
  },
  {
    ids: "[B-API-18]",
    table: "amenagement",
    list: "zones",
    post: "/api/v1/zone_amenagements",
    item: "/api/v1/zone_amenagements",
    readOne: false,
    body: (r) => ({ libelle: "Haie API", idTypeAmenagement: r.idTypeAmenagement, surface: 120 }),
    update: (r) => ({ libelle: "Haie API élargie", idTypeAmenagement: r.idTypeAmenagement, surface: 240 }),
    invalid: { libelle: "", surface: -1 },
    invalidFields: ["libelle", "idTypeAmenagement", "surface"],
    saved: plain,
  },
];

describe(`farm description over the API (${dialect})`, () => {
  for (const res of RESOURCES) {
    test(`${res.ids}[B-API-01] POST ${res.post}, GET campagnes/{id}/${res.list}, PATCH with updatedAt (stale: 409), DELETE (again: 404)`, async () => {
      const r = await refs();
      const idCampagne = t.demo().campagnes.tilleuls2025;
      const token = await tokenOf("redacteur");

      const made = await api("POST", res.post, { token, body: { idCampagne, ...res.body(r) } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const row = res.saved(made.body);
      expect(row).toMatchObject({ idCampagne, libelle: res.body(r).libelle });
      const stored = await t.db()(res.table).where({ id: row.id }).first("idCampagne", "libelle");
      expect(stored).toMatchObject({ idCampagne, libelle: res.body(r).libelle });

      const list = await api("GET", `/api/v1/campagnes/${idCampagne}/${res.list}`, { token });
      expect(list.status).toBe(200);
      const rows = list.body as Row[];
      expect(rows.map((x) => x.id)).toContain(row.id);
      expect(rows.every((x) => x.idCampagne === idCampagne)).toBe(true);
      expect(rows).toHaveLength((await t.db()(res.table).where({ idCampagne }).pluck("id")).length);
      if (res.readOne) {
        const one = await api("GET", `${res.item}/${row.id}`, { token });
        expect(one.status).toBe(200);
        expect(one.body).toMatchObject({ id: row.id, libelle: res.body(r).libelle, updatedAt: row.updatedAt });
      }

      const patched = await api("PATCH", `${res.item}/${row.id}`, { token, body: { ...res.update(r), updatedAt: row.updatedAt } });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(res.saved(patched.body)).toMatchObject({ id: row.id, libelle: res.update(r).libelle });
      expect((await t.db()(res.table).where({ id: row.id }).first("libelle")).libelle).toBe(res.update(r).libelle);

      const stale = await api("PATCH", `${res.item}/${row.id}`, { token, body: { ...res.update(r), libelle: "Écrasé", updatedAt: row.updatedAt } });
      expect(stale.status).toBe(409);
      expect(stale.headers.get("content-type")).toContain("application/problem+json");
      expect((await t.db()(res.table).where({ id: row.id }).first("libelle")).libelle).toBe(res.update(r).libelle);

      const gone = await api("DELETE", `${res.item}/${row.id}`, { token });
      expect(gone.status).toBe(204);
      expect(gone.text).toBe("");
      expect(await t.db()(res.table).where({ id: row.id }).first("id")).toBeUndefined();
      expect((await api("DELETE", `${res.item}/${row.id}`, { token })).status).toBe(404);
      expect((await api("PATCH", `${res.item}/${row.id}`, { token, body: { ...res.update(r), updatedAt: row.updatedAt } })).status).toBe(404);
      if (res.readOne) expect((await api("GET", `${res.item}/${row.id}`, { token })).status).toBe(404);
    });

    test(`${res.ids} writes refused: reader, synthesis, read-only token, other farm, locked campaign (403), anonymous (401), field errors (400); nothing written`, async () => {
      const r = await refs();
      const { campagnes } = t.demo();
      const before = await snapshot(t.db(), res.table);
      const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
      const cases: [string | null, number, Record<string, unknown>, number, string?][] = [
        ["lecteur", campagnes.tilleuls2025, res.body(r), 403],
        ["synthese", campagnes.tilleuls2025, res.body(r), 403],
        ["lecteur", campagnes.vallee2025, res.body(r), 403],
        ["redacteur", campagnes.tilleuls2024, res.body(r), 403],
        [null, campagnes.tilleuls2025, res.body(r), 401],
        ["redacteur", campagnes.tilleuls2025, res.invalid, 400],
        ["redacteur", campagnes.tilleuls2025, { ...res.body(r), champInconnu: 1 }, 400],
        ["redacteur", 999999, res.body(r), 404],
      ];
      for (const [username, idCampagne, body, status] of cases) {
        const answer = await api("POST", res.post, { token: username ? await tokenOf(username) : null, body: { idCampagne, ...body } });
        expect(answer.status, `${username} ${idCampagne} ${JSON.stringify(answer.body)}`).toBe(status);
        expect(answer.headers.get("content-type")).toContain("application/problem+json");
      }
      const bad = await api("POST", res.post, { token: await tokenOf("redacteur"), body: { idCampagne: campagnes.tilleuls2025, ...res.invalid } });
      expect(Object.keys((bad.body as { fieldErrors: Record<string, string[]> }).fieldErrors).sort()).toEqual([...res.invalidFields].sort());
      const unknown = await api("POST", res.post, {
        token: await tokenOf("redacteur"),
        body: { idCampagne: campagnes.tilleuls2025, ...res.body(r), champInconnu: 1 },
      });
      expect((unknown.body as { fieldErrors: Record<string, string[]> }).fieldErrors).toHaveProperty("champInconnu");
      const ro = await api("POST", res.post, { token: readOnly, body: { idCampagne: campagnes.tilleuls2025, ...res.body(r) } });
      expect(ro.status).toBe(403);
      expect(ro.body).toMatchObject({ key: "errors.api.read-only-token" });

      // An existing row: the reader may read the list but neither change nor delete the row; the locked campaign's rows stay as they are.
      const existing = await t.db()(res.table).where({ idCampagne: campagnes.tilleuls2025 }).orderBy("id").first("id", "updatedAt");
      const locked = await t.db()(res.table).where({ idCampagne: campagnes.tilleuls2024 }).orderBy("id").first("id");
      const lecteur = await tokenOf("lecteur");
      expect((await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/${res.list}`, { token: lecteur })).status).toBe(200);
      expect((await api("GET", `/api/v1/campagnes/${campagnes.vallee2025}/${res.list}`, { token: lecteur })).status).toBe(403);
      expect((await api("GET", `/api/v1/campagnes/999999/${res.list}`, { token: lecteur })).status).toBe(404);
      if (existing) {
        const list = (await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/${res.list}`, { token: lecteur })).body as Row[];
        const updatedAt = list.find((x) => x.id === Number(existing.id))!.updatedAt;
        expect((await api("PATCH", `${res.item}/${existing.id}`, { token: lecteur, body: { ...res.update(r), updatedAt } })).status).toBe(403);
        expect((await api("DELETE", `${res.item}/${existing.id}`, { token: lecteur })).status).toBe(403);
        expect((await api("DELETE", `${res.item}/${existing.id}`, { token: readOnly })).status).toBe(403);
        expect(
          (await api("PATCH", `${res.item}/${existing.id}`, { token: await tokenOf("redacteur"), body: { ...res.update(r), libelle: "", updatedAt } })).status,
        ).toBe(400);
        if (res.readOne) expect((await api("GET", `${res.item}/${existing.id}`, { token: lecteur })).status).toBe(200);
      }
      if (locked) expect((await api("DELETE", `${res.item}/${locked.id}`, { token: await tokenOf("redacteur") })).status).toBe(403);
      expect(await snapshot(t.db(), res.table)).toEqual(before);
    });
  }

  test("[B-API-09][B-API-12] GET operation_culturales/{id}/main_oeuvres: the labour items the operation is done with; /actions: its interventions", async () => {
    const r = await refs();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const token = await tokenOf("redacteur");
    const mo = (await api("POST", "/api/v1/main_oeuvres", { token, body: { idCampagne, libelle: "Exploitant API", uta: 1, idTypeUser: 953 } })).body as Row;
    expect(mo).toMatchObject({ campagne: `/api/v1/campagnes/${idCampagne}` });
    const op = await api("POST", "/api/v1/operation_culturales", {
      token,
      body: { idCampagne, idTypeAction: r.idTypeAction, libelle: "Semis API", mainOeuvre: [mo.id], debitReel: 2, consoCarburantReelle: 10 },
    });
    expect(op.status, JSON.stringify(op.body)).toBe(201);
    const idOp = (op.body as { id: number }).id;
    const labour = await api("GET", `/api/v1/operation_culturales/${idOp}/main_oeuvres`, { token });
    expect(labour.status).toBe(200);
    expect((labour.body as Row[]).map((x) => x.id)).toEqual([mo.id]);
    expect((await api("GET", `/api/v1/operation_culturales/${idOp}/actions`, { token })).body).toEqual([]);

    // An operation with interventions: the interventions of every plot made with it.
    const used = await t
      .db()("action")
      .whereNotNull("idOperationCulturale")
      .join("parcelle", "parcelle.id", "action.idParcelle")
      .where("parcelle.idCampagne", idCampagne)
      .first("action.idOperationCulturale as op");
    if (used) {
      const expected = await t.db()("action").where({ idOperationCulturale: used.op }).pluck("id");
      const actions = await api("GET", `/api/v1/operation_culturales/${used.op}/actions`, { token });
      expect(actions.status).toBe(200);
      expect((actions.body as Row[]).map((x) => x.id).sort((a, b) => a - b)).toEqual(expected.map(Number).sort((a, b) => a - b));
      expect((actions.body as { idOperationCulturale: number }[]).every((a) => a.idOperationCulturale === Number(used.op))).toBe(true);
    }
    const vallee = await t.db()("operation_culturale").where({ idCampagne: t.demo().campagnes.vallee2025 }).first("id");
    const lecteur = await tokenOf("lecteur");
    if (vallee) {
      expect((await api("GET", `/api/v1/operation_culturales/${vallee.id}/main_oeuvres`, { token: lecteur })).status).toBe(403);
      expect((await api("GET", `/api/v1/operation_culturales/${vallee.id}/actions`, { token: lecteur })).status).toBe(403);
      expect((await api("GET", `/api/v1/operation_culturales/${vallee.id}`, { token: lecteur })).status).toBe(403);
    }
    expect((await api("GET", "/api/v1/operation_culturales/999999/main_oeuvres", { token })).status).toBe(404);
    expect((await api("GET", "/api/v1/operation_culturales/999999/actions", { token })).status).toBe(404);
    expect((await api("GET", "/api/v1/main_oeuvres/999999", { token })).status).toBe(404);
    expect((await api("GET", "/api/v1/main_oeuvres/abc", { token })).status).toBe(400);
  });

  test("[B-API-14][B-API-02] an operation carries its type's flags, parcMateriel, surfaceTravaillee and nombrePassage; locale=en gives the type's English label", async () => {
    const r = await refs();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const token = await tokenOf("redacteur");
    const op = (
      await api("POST", "/api/v1/operation_culturales", {
        token,
        body: { idCampagne, idTypeAction: r.idTypeAction, libelle: "Type API", eta: true, debitReel: 1, consoCarburantReelle: 5 },
      })
    ).body as {
      operation: Row;
    };
    expect(op.operation).toMatchObject({
      typeOperation: {
        id: r.idTypeAction,
        libelle: r.typeAction.libelle,
        profondeurTravail: expect.any(Boolean),
        debitIrrigation: expect.any(Boolean),
        volumeBouillie: expect.any(Boolean),
      },
      parcMateriel: [],
      surfaceTravaillee: null,
      nombrePassage: null,
    });
    const fr = await api("GET", `/api/v1/operation_culturales/${op.operation.id}`, { token });
    expect((fr.body as { typeOperation: { libelle: string } }).typeOperation.libelle).toBe(r.typeAction.libelle);
    const en = await api("GET", `/api/v1/operation_culturales/${op.operation.id}?locale=en`, { token });
    expect(en.status).toBe(200);
    expect((en.body as { typeOperation: { libelle: string } }).typeOperation.libelle).toBe(r.typeAction.libelleEn ?? r.typeAction.libelle);
    const list = await api("GET", `/api/v1/campagnes/${idCampagne}/operation_culturales?locale=en`, { token });
    expect((list.body as { id: number; typeOperation: { libelle: string } }[]).find((o) => o.id === op.operation.id)!.typeOperation.libelle).toBe(
      r.typeAction.libelleEn ?? r.typeAction.libelle,
    );
    // A refusal in English.
    const refused = await api("GET", `/api/v1/campagnes/${t.demo().campagnes.vallee2025}/operation_culturales?locale=en`, { token: await tokenOf("lecteur") });
    expect(refused.body).toMatchObject({ status: 403, title: "Forbidden" });
  });

  test("[B-API-15] a management mode answers its crop rows (modeConduiteCultureList: idCulture, idCatCulture, idQualifiant)", async () => {
    const r = await refs();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const token = await tokenOf("redacteur");
    const made = (await api("POST", "/api/v1/mode_conduites", { token, body: { idCampagne, libelle: "Cultures API", cultures: [{ idCulture: r.idCulture }] } }))
      .body as Row;
    const one = await api("GET", `/api/v1/mode_conduites/${made.id}`, { token });
    expect(one.body).toMatchObject({
      id: made.id,
      modeConduiteCultureList: [{ idCulture: r.idCulture, idCatCulture: null, idQualifiant: null }],
      modeConduiteAssurance: null,
    });
  });
  test("[B-API-13][B-API-02] GET indicateurs (filtered on indCode, idGroupeIndicateur) and GET indicateurs/{id}, in English with locale=en", async () => {
    const token = await tokenOf("lecteur");
    const stored = await t.db()("indicateur").orderBy("id").select("id", "indNom", "indNomEn", "indCode", "idGroupeIndicateur");
    expect(stored.length).toBeGreaterThan(0);
    const all = await api("GET", "/api/v1/indicateurs", { token });
    expect(all.status).toBe(200);
    expect((all.body as { idIndicateur: number }[]).map((i) => i.idIndicateur).sort((a, b) => a - b)).toEqual(stored.map((i) => Number(i.id)));
    const ges = stored.find((i) => i.indCode === "GES")!;
    const byCode = await api("GET", "/api/v1/indicateurs?indCode=GES", { token });
    expect(byCode.body).toEqual([expect.objectContaining({ idIndicateur: Number(ges.id), indCode: "GES", indNom: ges.indNom })]);
    const grouped = stored.find((i) => i.idGroupeIndicateur != null);
    if (grouped) {
      const g = await api("GET", `/api/v1/indicateurs?idGroupeIndicateur=${grouped.idGroupeIndicateur}`, { token });
      expect((g.body as { idIndicateur: number }[]).map((i) => i.idIndicateur)).toEqual(
        expect.arrayContaining(stored.filter((i) => i.idGroupeIndicateur === grouped.idGroupeIndicateur).map((i) => Number(i.id))),
      );
      expect((g.body as { idGroupeIndicateur: number }[]).every((i) => i.idGroupeIndicateur === Number(grouped.idGroupeIndicateur))).toBe(true);
    }
    const one = await api("GET", `/api/v1/indicateurs/${ges.id}`, { token });
    expect(one.body).toMatchObject({ idIndicateur: Number(ges.id), indNom: ges.indNom, pDtCrea: expect.any(String) });
    const en = await api("GET", `/api/v1/indicateurs/${ges.id}?locale=en`, { token });
    expect(en.body).toMatchObject({ indNom: ges.indNomEn ?? ges.indNom });
    expect((await api("GET", "/api/v1/indicateurs/999999", { token })).status).toBe(404);
    const bad = await api("GET", "/api/v1/indicateurs?idGroupeIndicateur=abc", { token });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ fieldErrors: { idGroupeIndicateur: expect.any(Array) } });
    expect((await api("GET", "/api/v1/indicateurs", { token: null })).status).toBe(401);
  });
});

afterAll(() => expectContract(APPELS_DESCRIPTION, answered));
