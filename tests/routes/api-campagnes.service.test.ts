import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_CAMPAGNES } from "../../server/api/appels-campagnes";
import { APPELS_EXPORTS } from "../../server/api/appels-exports";
import { Executeur } from "../../server/jobs/runner";

// The export files of this test file go to a folder of its own.
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-api-campagnes-"));

/**
 * The campaign, news and export calls of the JSON API (issues 26 and 27; decision 0111), over HTTP with a bearer
 * token, on SQLite and PostgreSQL: a farm's campaigns, their creation, renaming and deletion with every refusal, the
 * crop areas, the news posts, the raw-data and result exports as jobs and their files, the per-plot results.
 */

const t = useTestDb();
const { api, tokenOf, answered, attendreTache } = apiClient(t);

type Campagne = {
  id: number;
  idExploitation: number;
  anneeRecolte: number;
  apiLibelle: string;
  libelle: string;
  simulation: boolean;
  serieValide: boolean;
  indicateurPublie: boolean;
  idCampagneHistoParcelle: number | null;
  updatedAt: string;
};
type Tache = { etat: string; erreur: string | null };

const lances: Executeur[] = [];
afterEach(async () => {
  for (const e of lances.splice(0)) await e.arreter();
});
afterAll(() => fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true }));

async function demarrer() {
  const e = new Executeur(t.db(), { concurrence: 1, instance: `test-api-campagnes:${process.pid}`, intervalleMs: 50, battementMs: 200 });
  lances.push(e);
  await e.demarrer();
}

async function classeur(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(bytes) as never);
  return wb;
}

const campaignTables = () => snapshot(t.db(), "campagne", "audit");

describe(`campaigns over the API (${dialect})`, () => {
  test("[A-API-24][B-API-08] GET campagnes filters on exploitation, serieValide and indicateurPublie; the farm's list asked with both false leaves the published campaign out", async () => {
    const { campagnes, exploitations } = t.demo();
    const token = await tokenOf("redacteur");
    const all = await api("GET", `/api/v1/campagnes?exploitation=${exploitations.tilleuls}`, { token });
    expect(all.status).toBe(200);
    const ids = (all.body as Campagne[]).map((c) => c.id);
    expect(ids).toEqual([campagnes.tilleuls2025, campagnes.tilleuls2025Simulation, campagnes.tilleuls2024]);
    expect((all.body as Campagne[]).every((c) => c.idExploitation === exploitations.tilleuls)).toBe(true);

    // B-API-08: the farm's campaign list as the description screens ask it.
    const open = await api("GET", `/api/v1/campagnes?exploitation=${exploitations.tilleuls}&serieValide=false&indicateurPublie=false`, { token });
    expect(open.status).toBe(200);
    expect((open.body as Campagne[]).map((c) => c.id)).toEqual([campagnes.tilleuls2025, campagnes.tilleuls2025Simulation]);
    const published = await api("GET", `/api/v1/campagnes?exploitation=${exploitations.tilleuls}&indicateurPublie=true`, { token });
    expect(published.body).toEqual([expect.objectContaining({ id: campagnes.tilleuls2024, indicateurPublie: true })]);
    await t.db()("campagne").where({ id: campagnes.tilleuls2025 }).update({ serieValide: true });
    try {
      const valid = await api("GET", `/api/v1/campagnes?exploitation=${exploitations.tilleuls}&serieValide=true`, { token });
      expect((valid.body as Campagne[]).map((c) => c.id)).toEqual([campagnes.tilleuls2025]);
    } finally {
      await t.db()("campagne").where({ id: campagnes.tilleuls2025 }).update({ serieValide: false });
    }

    // Refusals: a farm the user reaches through no folder, a farm that does not exist, bad filters.
    const lecteur = await tokenOf("lecteur");
    expect((await api("GET", `/api/v1/campagnes?exploitation=${exploitations.vallee}`, { token: lecteur })).status).toBe(403);
    expect((await api("GET", "/api/v1/campagnes?exploitation=99999999", { token })).status).toBe(404);
    const noFarm = await api("GET", "/api/v1/campagnes", { token });
    expect(noFarm.status).toBe(400);
    expect(noFarm.body).toMatchObject({ fieldErrors: { exploitation: expect.any(Array) } });
    const badFlag = await api("GET", `/api/v1/campagnes?exploitation=${exploitations.tilleuls}&serieValide=oui`, { token });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body).toMatchObject({ fieldErrors: { serieValide: expect.any(Array) } });
  });

  test("[A-API-25] GET exploitations/{id}/campagnes and GET campagnes/{id}; POST campagnes with the campaign form's payload, PATCH its label, DELETE (base kept while a simulation of its year exists)", async () => {
    const { campagnes, exploitations } = t.demo();
    const token = await tokenOf("redacteur");
    const list = await api("GET", `/api/v1/exploitations/${exploitations.tilleuls}/campagnes`, { token });
    expect(list.status).toBe(200);
    expect((list.body as Campagne[]).map((c) => c.anneeRecolte)).toEqual([2025, 2025, 2024]);
    expect(list.body).toContainEqual(
      expect.objectContaining({ id: campagnes.tilleuls2025Simulation, simulation: true, libelle: "2025 Simulation réduction phyto" }),
    );
    const one = await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}`, { token });
    expect(one.body).toMatchObject({ id: campagnes.tilleuls2025, anneeRecolte: 2025, locked: false });

    // A-CAMP-15: the creation payload, duplicated from 2025 (of the previous year: it becomes the history reference).
    const created = await api("POST", "/api/v1/campagnes", {
      token,
      body: { exploitation: exploitations.tilleuls, anneeRecolte: 2026, apiLibelle: "Essai", campagneSource: campagnes.tilleuls2025, inter: true, prix: true },
    });
    expect(created.status).toBe(201);
    const base = created.body as Campagne;
    expect(base).toMatchObject({
      anneeRecolte: 2026,
      apiLibelle: "Essai",
      libelle: "2026 Essai",
      simulation: false,
      idCampagneHistoParcelle: campagnes.tilleuls2025,
    });
    const stored = await t.db()("campagne").where({ id: base.id }).first();
    expect(Number(stored.idExploitation)).toBe(exploitations.tilleuls);
    expect([!!stored.inter, !!stored.prix, !!stored.obs]).toEqual([true, true, false]);
    // The duplicated interventions came with the campaign.
    const plots = (await api("GET", `/api/v1/campagnes/${base.id}/parcelles`, { token })).body as unknown[];
    expect(plots.length).toBeGreaterThan(0);
    // A second campaign of the same year is a simulation (A-CAMP-05).
    const sim = await api("POST", "/api/v1/campagnes", { token, body: { exploitation: exploitations.tilleuls, anneeRecolte: 2026 } });
    expect(sim.status).toBe(201);
    expect(sim.body).toMatchObject({ simulation: true, anneeRecolte: 2026 });

    // PATCH: the label, with the updatedAt it was read with; an old one is 409 and writes nothing.
    const renamed = await api("PATCH", `/api/v1/campagnes/${base.id}`, { token, body: { apiLibelle: "Essai bas intrants", updatedAt: base.updatedAt } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: base.id, libelle: "2026 Essai bas intrants" });
    const stale = await api("PATCH", `/api/v1/campagnes/${base.id}`, { token, body: { apiLibelle: "Autre", updatedAt: base.updatedAt } });
    expect(stale.status).toBe(409);
    expect((await t.db()("campagne").where({ id: base.id }).first("apiLibelle")).apiLibelle).toBe("Essai bas intrants");
    expect(Number((await t.db()("audit").where({ action: "campagne.update", idEntite: base.id }).count({ n: "*" }).first())!.n)).toBe(1);

    // DELETE: the base of 2026 is kept while its simulation exists (A-CAMP-17), then both go.
    const kept = await api("DELETE", `/api/v1/campagnes/${base.id}`, { token });
    expect(kept.status).toBe(409);
    expect(kept.body).toMatchObject({ key: "campagne.base-not-deletable" });
    expect((await api("DELETE", `/api/v1/campagnes/${(sim.body as Campagne).id}`, { token })).status).toBe(204);
    expect((await api("DELETE", `/api/v1/campagnes/${base.id}`, { token })).status).toBe(204);
    expect(
      await t
        .db()("campagne")
        .whereIn("id", [base.id, (sim.body as Campagne).id])
        .select("id"),
    ).toEqual([]);
    expect((await api("GET", `/api/v1/campagnes/${base.id}`, { token })).status).toBe(404);
  });

  test("[A-API-25] campaign writes refused: reader, synthesis, read-only token, another farm, locked campaign (403), unknown farm or campaign (404), bad input (400 with fieldErrors); nothing changed", async () => {
    const { campagnes, exploitations } = t.demo();
    const writer = await tokenOf("redacteur");
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    const lecteur = await tokenOf("lecteur");
    const synthese = await tokenOf("synthese");
    const open = (await api("GET", `/api/v1/exploitations/${exploitations.tilleuls}/campagnes`, { token: writer })).body as Campagne[];
    const c2025 = open.find((c) => c.id === campagnes.tilleuls2025)!;
    const c2024 = open.find((c) => c.id === campagnes.tilleuls2024)!;
    const vallee = ((await api("GET", `/api/v1/exploitations/${exploitations.vallee}/campagnes`, { token: writer })).body as Campagne[])[0];
    const before = await campaignTables();

    const creation = { exploitation: exploitations.tilleuls, anneeRecolte: 2027 };
    for (const token of [lecteur, synthese, readOnly]) expect((await api("POST", "/api/v1/campagnes", { token, body: creation })).status).toBe(403);
    expect((await api("POST", "/api/v1/campagnes", { token: lecteur, body: { ...creation, exploitation: exploitations.vallee } })).status).toBe(403);
    expect((await api("POST", "/api/v1/campagnes", { token: writer, body: { ...creation, exploitation: 99999999 } })).status).toBe(404);
    const badYear = await api("POST", "/api/v1/campagnes", { token: writer, body: { ...creation, anneeRecolte: "deux mille" } });
    expect(badYear.status).toBe(400);
    expect(badYear.body).toMatchObject({ fieldErrors: { anneeRecolte: expect.any(Array) } });
    const noYear = await api("POST", "/api/v1/campagnes", { token: writer, body: { exploitation: exploitations.tilleuls } });
    expect(noYear.status).toBe(400);
    expect(noYear.body).toMatchObject({ fieldErrors: { anneeRecolte: expect.any(Array) } });
    const unknown = await api("POST", "/api/v1/campagnes", { token: writer, body: { ...creation, simulation: true } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ fieldErrors: { simulation: expect.any(Array) } });
    // A source campaign of another farm is refused as the screen refuses it.
    expect((await api("POST", "/api/v1/campagnes", { token: writer, body: { ...creation, campagneSource: vallee.id } })).status).toBe(400);

    const rename = { apiLibelle: "Refusé", updatedAt: c2025.updatedAt };
    for (const token of [lecteur, synthese, readOnly]) expect((await api("PATCH", `/api/v1/campagnes/${c2025.id}`, { token, body: rename })).status).toBe(403);
    expect((await api("PATCH", `/api/v1/campagnes/${vallee.id}`, { token: lecteur, body: { ...rename, updatedAt: vallee.updatedAt } })).status).toBe(403);
    // The published 2024 campaign is locked (A-RIGHTS-07).
    expect((await api("PATCH", `/api/v1/campagnes/${c2024.id}`, { token: writer, body: { ...rename, updatedAt: c2024.updatedAt } })).status).toBe(403);
    expect((await api("PATCH", "/api/v1/campagnes/99999999", { token: writer, body: rename })).status).toBe(404);
    const long = await api("PATCH", `/api/v1/campagnes/${c2025.id}`, { token: writer, body: { ...rename, apiLibelle: "x".repeat(201) } });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ fieldErrors: { apiLibelle: expect.any(Array) } });
    const noToken = await api("PATCH", `/api/v1/campagnes/${c2025.id}`, { token: writer, body: { apiLibelle: "Sans jeton" } });
    expect(noToken.status).toBe(400);
    expect(noToken.body).toMatchObject({ fieldErrors: { updatedAt: expect.any(Array) } });
    const year = await api("PATCH", `/api/v1/campagnes/${c2025.id}`, { token: writer, body: { ...rename, anneeRecolte: 2030 } });
    expect(year.status).toBe(400);
    expect(year.body).toMatchObject({ fieldErrors: { anneeRecolte: expect.any(Array) } });

    for (const token of [lecteur, synthese, readOnly])
      expect((await api("DELETE", `/api/v1/campagnes/${campagnes.tilleuls2025Simulation}`, { token })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/campagnes/${vallee.id}`, { token: lecteur })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/campagnes/${c2024.id}`, { token: writer })).status).toBe(403);
    expect((await api("DELETE", "/api/v1/campagnes/99999999", { token: writer })).status).toBe(404);
    expect((await api("DELETE", "/api/v1/campagnes/abc", { token: writer })).status).toBe(400);

    expect(await campaignTables()).toEqual(before);
  });

  test("[A-API-26] GET campagnes/{id}/assolements: items with libelle and surface, their sum the total; another farm 403, unknown 404", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("lecteur");
    const r = await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/assolements`, { token });
    expect(r.status).toBe(200);
    const a = r.body as { idCampagne: number; items: { libelle: string; surface: number }[]; total: number };
    expect(a.idCampagne).toBe(campagnes.tilleuls2025);
    expect(a.items.length).toBeGreaterThan(0);
    for (const item of a.items) expect(item).toMatchObject({ libelle: expect.any(String), surface: expect.any(Number) });
    expect(a.items.some((i) => i.libelle.length > 0)).toBe(true);
    const sum = a.items.reduce((s, i) => s + i.surface, 0);
    expect(a.total).toBeCloseTo(sum, 4);
    // The plots' surfaces, summed: what the crop areas share out.
    const surfaces = await t.db()("parcelle").where({ idCampagne: campagnes.tilleuls2025 }).select("surface");
    expect(a.total).toBeCloseTo(
      surfaces.reduce((s, p) => s + Math.max(Number(p.surface ?? 0), 0), 0),
      3,
    );
    expect((await api("GET", `/api/v1/campagnes/${campagnes.vallee2025}/assolements`, { token })).status).toBe(403);
    expect((await api("GET", "/api/v1/campagnes/99999999/assolements", { token })).status).toBe(404);
  });

  test("[A-API-30] GET posts returns the news posts, newest first", async () => {
    const r = await api("GET", "/api/v1/posts", { token: await tokenOf("lecteur") });
    expect(r.status).toBe(200);
    const posts = r.body as { title: string; content: string; creationDate: string }[];
    expect(posts.map((p) => p.title)).toEqual(["Nouveaux référentiels matériel", "Campagne 2025 ouverte", "Bienvenue dans Sillon"]);
    expect(posts[0].content).toContain("parc matériel");
    expect(Date.parse(posts[0].creationDate)).toBeGreaterThan(Date.parse(posts[1].creationDate));
    expect((await api("GET", "/api/v1/posts", { token: null })).status).toBe(401);
  });
});

describe(`exports over the API (${dialect})`, () => {
  test("[A-API-28][C-API-54][A-API-31][A-API-32][A-API-34][C-API-51] POST campagnes/export with campagneId: the raw-data export as a job; listed with nature 0, its xlsx downloaded, deleted", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const started = await api("POST", "/api/v1/campagnes/export", { token, body: { campagneId: [campagnes.tilleuls2025] } });
    expect(started.status).toBe(202);
    const { id, href, fichier } = started.body as { id: number; href: string; fichier: string };
    expect(fichier).toBe(`/api/v1/session_exports/${id}`);
    // While the job has not run, the file is not there yet.
    const early = await api("GET", fichier, { token });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ key: "exports.pas-termine" });

    await demarrer();
    expect(await attendreTache<Tache>(token, href)).toMatchObject({ etat: "terminee" });
    // A-API-31: the raw-data sessions (nature 0) of the campaign; none among the calculation ones.
    const raw = await api("GET", `/api/v1/session_exports?campagnes=${campagnes.tilleuls2025}&nature=0`, { token });
    expect(raw.body).toEqual([expect.objectContaining({ id, nature: 0, statut: 0, campagnes: [campagnes.tilleuls2025] })]);
    const calc = await api("GET", `/api/v1/session_exports?campagnes=${campagnes.tilleuls2025}&nature=1`, { token });
    expect((calc.body as { id: number }[]).map((s) => s.id)).not.toContain(id);

    // A-API-32: the xlsx file, every data group one sheet, the plots of the campaign in it.
    const file = await api("GET", fichier, { token });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("spreadsheetml.sheet");
    expect(file.headers.get("content-disposition")).toMatch(/attachment; .*\.xlsx/);
    const wb = await classeur(file.bytes);
    const groups = await t.db()("donnee_exportable").select("libelle");
    expect(wb.worksheets.map((w) => w.name).sort()).toEqual(groups.map((g) => String(g.libelle).slice(0, 31)).sort());
    const plots = await t.db()("parcelle").where({ idCampagne: campagnes.tilleuls2025 }).select("libelle");
    const sheetText = JSON.stringify(wb.worksheets.map((w) => w.getSheetValues()));
    for (const p of plots) expect(sheetText).toContain(p.libelle);

    // Another user neither downloads nor deletes it; A-API-34: its owner deletes it, and it is gone.
    const other = await tokenOf("animateur");
    expect((await api("GET", fichier, { token: other })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/session_exports/${id}`, { token: other })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/session_exports/${id}`, { token })).status).toBe(204);
    expect((await api("GET", fichier, { token })).status).toBe(404);
    expect(await t.db()("session_export").where({ id }).first()).toBeUndefined();
  });

  test("[A-API-28][C-API-54] POST campagnes/export refused: read-only token, another farm (403), unknown campaign (404), no campaign or an unknown group (400 with fieldErrors); no session created", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const before = await snapshot(t.db(), "session_export", "tache");
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    expect((await api("POST", "/api/v1/campagnes/export", { token: readOnly, body: { campagneId: [campagnes.tilleuls2025] } })).status).toBe(403);
    expect((await api("POST", "/api/v1/campagnes/export", { token: await tokenOf("lecteur"), body: { campagneId: [campagnes.vallee2025] } })).status).toBe(403);
    expect(
      (await api("POST", "/api/v1/campagnes/export", { token: await tokenOf("lecteur"), body: { campagneId: [campagnes.tilleuls2025, campagnes.vallee2025] } }))
        .status,
    ).toBe(403);
    expect((await api("POST", "/api/v1/campagnes/export", { token, body: { campagneId: [99999999] } })).status).toBe(404);
    const none = await api("POST", "/api/v1/campagnes/export", { token, body: { campagneId: [] } });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ fieldErrors: { campagneId: expect.any(Array) } });
    const group = await api("POST", "/api/v1/campagnes/export", { token, body: { campagneId: [campagnes.tilleuls2025], groupes: [99999] } });
    expect(group.status).toBe(400);
    expect(group.body).toMatchObject({ fieldErrors: { groupes: expect.any(Array) } });
    expect(await snapshot(t.db(), "session_export", "tache")).toEqual(before);
  });

  test("[A-API-33][A-API-31][A-API-32] POST session_exports with libelle, nature 0, version, campagnes and groupes (anglais set by locale=en): the raw-data session, listed, its chosen sheets downloaded; refusals store nothing", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const groupes = await t.db()("donnee_exportable").orderBy("ordre").select("id", "libelle", "libelleEn");
    const chosen = groupes.slice(0, 2);
    const body = { libelle: "Données Tilleuls", nature: 0, version: 2, campagnes: [campagnes.tilleuls2025], groupes: chosen.map((g) => Number(g.id)) };

    const before = await snapshot(t.db(), "session_export", "session_export_campagne", "tache");
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    expect((await api("POST", "/api/v1/session_exports", { token: readOnly, body })).status).toBe(403);
    expect(
      (await api("POST", "/api/v1/session_exports", { token: await tokenOf("lecteur"), body: { ...body, campagnes: [campagnes.vallee2025] } })).status,
    ).toBe(403);
    const noGroup = await api("POST", "/api/v1/session_exports", { token, body: { ...body, groupes: [] } });
    expect(noGroup.status).toBe(400);
    expect(noGroup.body).toMatchObject({ fieldErrors: { groupes: expect.any(Array) } });
    const noCampaign = await api("POST", "/api/v1/session_exports", { token, body: { ...body, campagnes: [] } });
    expect(noCampaign.status).toBe(400);
    expect(noCampaign.body).toMatchObject({ fieldErrors: { campagnes: expect.any(Array) } });
    expect((await api("POST", "/api/v1/session_exports", { token, body: { ...body, version: 7 } })).status).toBe(400);
    expect((await api("POST", "/api/v1/session_exports", { token, body: { ...body, campagnes: [99999999] } })).status).toBe(404);
    // An unknown field is refused in either nature (a typo is never silently ignored).
    expect((await api("POST", "/api/v1/session_exports", { token, body: { ...body, serie: [1] } })).status).toBe(400);
    expect(
      (await api("POST", "/api/v1/session_exports", { token, body: { calculsSeries: [1], groupes: ["ift"], realise: true, exploitation: true, serie: 1 } }))
        .status,
    ).toBe(400);
    expect(await snapshot(t.db(), "session_export", "session_export_campagne", "tache")).toEqual(before);

    const started = await api("POST", "/api/v1/session_exports?locale=en", { token, body });
    expect(started.status).toBe(202);
    const { id, href } = started.body as { id: number; href: string };
    await demarrer();
    expect(await attendreTache<Tache>(token, href)).toMatchObject({ etat: "terminee" });
    const listed = await api("GET", `/api/v1/session_exports?campagnes=${campagnes.tilleuls2025}&nature=0`, { token });
    expect(listed.body).toEqual([expect.objectContaining({ id, libelle: "Données Tilleuls", nature: 0, version: 2, anglais: true, statut: 0 })]);
    const file = await api("GET", `/api/v1/session_exports/${id}`, { token });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain("Donn");
    // The chosen groups only, under their English names.
    const wb = await classeur(file.bytes);
    expect(wb.worksheets.map((w) => w.name)).toEqual(chosen.map((g) => String(g.libelleEn || g.libelle).slice(0, 31)));
    expect((await api("DELETE", `/api/v1/session_exports/${id}`, { token })).status).toBe(204);
  });

  test("[C-API-49] POST calculs_series/export: the result workbook of a series as a job (an .xlsx without macros, decision 0057), English with locale=en; refusals store nothing", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const [serie] = await t.db()("calcul_serie").where({ idCampagne: campagnes.tilleuls2025, statut: "termine" }).orderBy("id").pluck("id");
    const body = { calculsSeries: [Number(serie)], groupes: ["ift", "economie"], realise: true, exploitation: true, parcelle: true };

    const before = await snapshot(t.db(), "session_export", "tache");
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    expect((await api("POST", "/api/v1/calculs_series/export", { token: readOnly, body })).status).toBe(403);
    const noGroup = await api("POST", "/api/v1/calculs_series/export", { token, body: { ...body, groupes: [] } });
    expect(noGroup.status).toBe(400);
    expect(noGroup.body).toMatchObject({ fieldErrors: { groupes: expect.any(Array) } });
    expect((await api("POST", "/api/v1/calculs_series/export", { token, body: { ...body, calculsSeries: [99999999] } })).status).toBe(404);
    // The unpublished series is not the reader's to export.
    expect((await api("POST", "/api/v1/calculs_series/export", { token: await tokenOf("lecteur"), body })).status).toBe(404);
    expect(await snapshot(t.db(), "session_export", "tache")).toEqual(before);

    const started = await api("POST", "/api/v1/calculs_series/export?locale=en", { token, body });
    expect(started.status).toBe(202);
    const { id, href, fichier } = started.body as { id: number; href: string; fichier: string };
    await demarrer();
    expect(await attendreTache<Tache>(token, href)).toMatchObject({ etat: "terminee" });
    const sessions = await api("GET", `/api/v1/session_exports?campagnes=${campagnes.tilleuls2025}&nature=1`, { token });
    expect(sessions.body).toEqual(expect.arrayContaining([expect.objectContaining({ id, nature: 1, statut: 0, anglais: true })]));
    const file = await api("GET", fichier, { token });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain("indicators_export");
    // A zip without a VBA project: no macros in it.
    expect([file.bytes[0], file.bytes[1]]).toEqual([0x50, 0x4b]);
    expect(Buffer.from(file.bytes).includes("vbaProject")).toBe(false);
    const wb = await classeur(file.bytes);
    expect(wb.worksheets.length).toBeGreaterThan(0);
    expect((await api("DELETE", `/api/v1/session_exports/${id}`, { token })).status).toBe(204);
  });

  test("[C-API-50] GET calculs_resultats_plots with idCalculSerie[]: the per-plot figures of the series the user sees; a reader refused (403), an unknown series 404", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const [serie] = await t.db()("calcul_serie").where({ idCampagne: campagnes.tilleuls2025, statut: "termine" }).orderBy("id").pluck("id");
    const [publiee] = await t.db()("calcul_serie").where({ idCampagne: campagnes.tilleuls2024, publication: true }).orderBy("id").pluck("id");
    const r = await api("GET", `/api/v1/calculs_resultats_plots?idCalculSerie[]=${serie}&idCalculSerie[]=${publiee}`, { token });
    expect(r.status).toBe(200);
    const rows = r.body as { idCalculSerie: number; idCampagne: number; idParcelle: number; libelleParcelle: string | null; code: string }[];
    expect(new Set(rows.map((x) => x.idCalculSerie))).toEqual(new Set([Number(serie), Number(publiee)]));
    const plots2025 = await t.db()("parcelle").where({ idCampagne: campagnes.tilleuls2025 }).select("id", "libelle");
    const of2025 = rows.filter((x) => x.idCalculSerie === Number(serie));
    expect(new Set(of2025.map((x) => x.idParcelle))).toEqual(new Set(plots2025.map((p) => Number(p.id))));
    expect(of2025.every((x) => x.idCampagne === campagnes.tilleuls2025 && plots2025.some((p) => p.libelle === x.libelleParcelle))).toBe(true);
    expect(of2025.map((x) => x.code)).toContain("ift.cible.total");

    // A series' figures are its detail's, which needs the write right on the farm (C-RIGHTS-14): a reader is refused.
    const lecteur = await tokenOf("lecteur");
    expect((await api("GET", `/api/v1/calculs_resultats_plots?idCalculSerie[]=${publiee}`, { token: lecteur })).status).toBe(403);
    expect((await api("GET", `/api/v1/calculs_resultats_plots?idCalculSerie[]=${serie}`, { token: lecteur })).status).toBe(403);
    // The plain name works too (idCalculSerie=…), as a client that drops the brackets sends it.
    const plain = await api("GET", `/api/v1/calculs_resultats_plots?idCalculSerie=${publiee}`, { token });
    expect((plain.body as { idCalculSerie: number }[]).every((x) => x.idCalculSerie === Number(publiee))).toBe(true);
    expect((await api("GET", "/api/v1/calculs_resultats_plots?idCalculSerie[]=99999999", { token })).status).toBe(404);
    expect((await api("GET", "/api/v1/calculs_resultats_plots?idCalculSerie[]=abc", { token })).status).toBe(400);
  });
});

afterAll(() => expectContract([...APPELS_CAMPAGNES, ...APPELS_EXPORTS], answered));
