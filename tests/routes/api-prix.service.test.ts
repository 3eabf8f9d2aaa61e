import { afterAll, describe, expect, test } from "vitest";
import { FUEL_ROW_ID } from "~/domain/prix";
import { countRows, snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_PRIX } from "../../server/api/appels-prix";

const t = useTestDb();
const { api, tokenOf, answered } = apiClient(t);

type Appro = {
  id: number;
  updatedAt: string;
  fioul: boolean;
  prixAchat: number | null;
  utilise: boolean;
  idIntrant: number | null;
  idOrigineIntrant: number | null;
  libelleIntrant: string;
  unite: string | null;
  traitementSemence: boolean;
};
type Vente = { id: number; updatedAt: string; prixVente: number | null; utilise: boolean };

const prices = () => Promise.all(["prix_appro", "prix_vente", "caracteristique"].map((table) => snapshot(t.db(), table)));

describe(`prices over the API (${dialect})`, () => {
  test("[issue27] a read-only token reads the prices as a reader: canWrite off, no price row created on the way", async () => {
    const { campagnes } = t.demo();
    const db = t.db();
    // A product used by the campaign but without its price row yet: the writer's screen creates it on load.
    const [one] = await db("prix_appro").where({ idCampagne: campagnes.tilleuls2025 }).orderBy("id").limit(1).pluck("id");
    await db("prix_appro").where({ id: one }).delete();
    const before = await countRows(db, "prix_appro", { idCampagne: campagnes.tilleuls2025 });
    const lecture = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    const read = await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix_appros`, { token: lecture });
    expect(read.status).toBe(200);
    expect(await countRows(db, "prix_appro", { idCampagne: campagnes.tilleuls2025 })).toBe(before);
    expect((await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix_ventes`, { token: lecture })).status).toBe(200);
    // The same user's read-write token reads as the screen does: the missing row is created.
    expect((await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix_appros`, { token: await tokenOf("redacteur") })).status).toBe(200);
    expect(await countRows(db, "prix_appro", { idCampagne: campagnes.tilleuls2025 })).toBe(before + 1);
  });

  test("[C-API-23][C-API-24][C-API-25] GET campagnes/{id}/prix_appros, PATCH prix_appros/{id} with prixAchat as a number, stale 409, DELETE of the unused", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const list = await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix_appros`, { token });
    expect(list.status).toBe(200);
    const rows = list.body as Appro[];
    expect(rows[0]).toMatchObject({ id: FUEL_ROW_ID, fioul: true });
    const row = rows.find((r) => !r.fioul && r.id > 0)!;
    const patched = await api("PATCH", `/api/v1/prix_appros/${row.id}`, { token, body: { prixAchat: 12.345678, updatedAt: row.updatedAt } });
    expect(patched.status).toBe(204);
    expect(Number((await t.db()("prix_appro").where({ id: row.id }).first("prixAchat")).prixAchat)).toBe(12.3457);
    expect((await api("PATCH", `/api/v1/prix_appros/${row.id}`, { token, body: { prixAchat: 1, updatedAt: row.updatedAt } })).status).toBe(409);
    // traitementSemence is not a field of the call; a price as text is refused.
    const bad = await api("PATCH", `/api/v1/prix_appros/${row.id}`, { token, body: { prixAchat: 1, traitementSemence: true, updatedAt: row.updatedAt } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ fieldErrors: { traitementSemence: expect.any(Array) } });
    expect((await api("PATCH", `/api/v1/prix_appros/${row.id}`, { token, body: { prixAchat: -3, updatedAt: row.updatedAt } })).status).toBe(400);
    expect((await api("PATCH", "/api/v1/prix_appros/999999", { token, body: { prixAchat: 1, updatedAt: row.updatedAt } })).status).toBe(404);
    expect(Number((await t.db()("prix_appro").where({ id: row.id }).first("prixAchat")).prixAchat)).toBe(12.3457);

    // An unused product row goes with DELETE campagnes/{id}/prix_appros; the used ones stay.
    const { id: _id, updatedAt: _u, ...copy } = await t.db()("prix_appro").where({ id: row.id }).first();
    void _id;
    void _u;
    const [unused] = await t
      .db()("prix_appro")
      .insert({ ...copy, cle: "test|inutilise" })
      .returning("id");
    const idUnused = typeof unused === "object" ? unused.id : unused;
    expect((await api("DELETE", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix_appros`, { token: await tokenOf("lecteur") })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix_appros`, { token })).status).toBe(204);
    expect(await countRows(t.db(), "prix_appro", { id: idUnused })).toBe(0);
    expect(await countRows(t.db(), "prix_appro", { id: row.id })).toBe(1);
  });

  test("[C-API-26] GET prix_proposes: the statistics of the product named by its fields; an unknown product 404", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const rows = (await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix_appros`, { token })).body as Appro[];
    const row = rows.find((r) => !r.fioul && r.id > 0 && r.idIntrant != null)!;
    const q = new URLSearchParams({
      campagne: String(campagnes.tilleuls2025),
      idIntrant: String(row.idIntrant),
      libelle: row.libelleIntrant,
      traitementSemence: String(row.traitementSemence),
    });
    if (row.idOrigineIntrant != null) q.set("idOrigineIntrant", String(row.idOrigineIntrant));
    if (row.unite) q.set("unite", row.unite);
    const r = await api("GET", `/api/v1/prix_proposes?${q}`, { token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: row.id, anneeRecolte: 2025, toutes: { count: expect.any(Number) }, annee: { count: expect.any(Number) } });
    expect((await api("GET", `/api/v1/prix_proposes?campagne=${campagnes.tilleuls2025}&idIntrant=999999999`, { token })).status).toBe(404);
    expect((await api("GET", `/api/v1/prix_proposes?campagne=${campagnes.vallee2025}&idIntrant=1`, { token: await tokenOf("lecteur") })).status).toBe(403);
    expect((await api("GET", "/api/v1/prix_proposes?idIntrant=1", { token })).status).toBe(400);
  });

  test("[C-API-27] GET campagnes/{id}/prix_ventes, PATCH prix_ventes/{id} with prixVente, DELETE of the unused", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const list = await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix_ventes`, { token });
    expect(list.status).toBe(200);
    const row = (list.body as Vente[]).find((r) => r.id > 0)!;
    expect(row).toBeTruthy();
    expect((await api("PATCH", `/api/v1/prix_ventes/${row.id}`, { token, body: { prixVente: 185.5, updatedAt: row.updatedAt } })).status).toBe(204);
    expect(Number((await t.db()("prix_vente").where({ id: row.id }).first("prixVente")).prixVente)).toBe(185.5);
    expect((await api("PATCH", `/api/v1/prix_ventes/${row.id}`, { token, body: { prixVente: 1, updatedAt: row.updatedAt } })).status).toBe(409);
    expect((await api("PATCH", `/api/v1/prix_ventes/${row.id}`, { token, body: { prixVente: "cher", updatedAt: row.updatedAt } })).status).toBe(400);
    expect((await api("DELETE", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix_ventes`, { token })).status).toBe(204);
    expect(await countRows(t.db(), "prix_vente", { id: row.id })).toBe(row.utilise ? 1 : 0);
  });

  test("[C-API-23][C-API-27] rights: reader, other farm, locked campaign and a validated series: 403, nothing stored", async () => {
    const { campagnes } = t.demo();
    const writer = await tokenOf("redacteur");
    const open = (await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix_appros`, { token: writer })).body as Appro[];
    const row = open.find((r) => !r.fioul && r.id > 0)!;
    const locked = (await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2024}/prix_appros`, { token: writer })).body as Appro[];
    const lockedRow = locked.find((r) => !r.fioul && r.id > 0);
    const before = await prices();
    const body = { prixAchat: 99, updatedAt: row.updatedAt };
    expect((await api("PATCH", `/api/v1/prix_appros/${row.id}`, { token: await tokenOf("lecteur"), body })).status).toBe(403);
    expect((await api("PATCH", `/api/v1/prix_appros/${row.id}`, { token: await tokenOf("synthese"), body })).status).toBe(403);
    if (lockedRow)
      expect(
        (await api("PATCH", `/api/v1/prix_appros/${lockedRow.id}`, { token: writer, body: { prixAchat: 99, updatedAt: lockedRow.updatedAt } })).status,
      ).toBe(403);
    expect((await api("DELETE", `/api/v1/campagnes/${campagnes.tilleuls2024}/prix_ventes`, { token: writer })).status).toBe(403);
    expect((await api("GET", `/api/v1/campagnes/${campagnes.vallee2025}/prix_ventes`, { token: await tokenOf("lecteur") })).status).toBe(403);
    await t.db()("campagne").where({ id: campagnes.tilleuls2025 }).update({ serieValide: true });
    try {
      expect((await api("PATCH", `/api/v1/prix_appros/${row.id}`, { token: writer, body })).status).toBe(403);
      expect(
        (
          await api("PATCH", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix`, {
            token: writer,
            body: { appros: [{ id: row.id, updatedAt: row.updatedAt, values: { prixAchat: 5 } }] },
          })
        ).status,
      ).toBe(403);
    } finally {
      await t.db()("campagne").where({ id: campagnes.tilleuls2025 }).update({ serieValide: false });
    }
    expect(await prices()).toEqual(before);
  });

  test("[issue27-bulk] PATCH campagnes/{id}/prix: a campaign's supply and sale prices in one call; one bad row stores nothing and is named", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const appros = ((await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix_appros`, { token })).body as Appro[]).filter((r) => r.id > 0);
    const ventes = ((await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix_ventes`, { token })).body as Vente[]).filter((r) => r.id > 0);
    const before = await prices();
    const bad = await api("PATCH", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix`, {
      token,
      body: {
        appros: appros.map((r, i) => ({ id: r.id, updatedAt: r.updatedAt, values: { prixAchat: i + 1 } })),
        ventes: ventes.map((r, i) => ({ id: r.id, updatedAt: r.updatedAt, values: { prixVente: i === 1 ? "gratuit" : 100 + i } })),
      },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { fieldErrors: object }).fieldErrors)).toEqual(["ventes.1.prixVente"]);
    expect(await prices()).toEqual(before);

    const ok = await api("PATCH", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix`, {
      token,
      body: {
        appros: appros.map((r, i) => ({ id: r.id, updatedAt: r.updatedAt, values: { prixAchat: i + 1 } })),
        ventes: ventes.map((r, i) => ({ id: r.id, updatedAt: r.updatedAt, values: { prixVente: 100 + i } })),
      },
    });
    expect(ok.status).toBe(200);
    const answer = ok.body as { appros: { saved: unknown[]; conflicts: unknown[] }; ventes: { saved: unknown[]; conflicts: unknown[] } };
    expect([answer.appros.saved.length, answer.ventes.saved.length]).toEqual([appros.length, ventes.length]);
    const last = appros.filter((r) => !r.fioul).at(-1)!;
    expect(Number((await t.db()("prix_appro").where({ id: last.id }).first("prixAchat")).prixAchat)).toBe(appros.indexOf(last) + 1);
    expect(Number((await t.db()("prix_vente").where({ id: ventes[0].id }).first("prixVente")).prixVente)).toBe(100);
    // Sent again with the old tokens: every row a conflict, nothing written.
    const stale = await api("PATCH", `/api/v1/campagnes/${campagnes.tilleuls2025}/prix`, {
      token,
      body: { ventes: [{ id: ventes[0].id, updatedAt: ventes[0].updatedAt, values: { prixVente: 1 } }] },
    });
    expect(stale.status).toBe(200);
    expect((stale.body as { ventes: { conflicts: unknown[] } }).ventes.conflicts).toHaveLength(1);
    expect(Number((await t.db()("prix_vente").where({ id: ventes[0].id }).first("prixVente")).prixVente)).toBe(100);
  });
});

afterAll(() => expectContract(APPELS_PRIX, answered));
