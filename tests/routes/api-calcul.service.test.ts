import { afterAll, afterEach, describe, expect, test } from "vitest";
import { snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { ProblemSchema } from "../../server/http/api.server";
import { APPELS_PROTOCOLES } from "../../server/api/appels-protocoles";
import { APPELS_CALCUL } from "../../server/api/appels-calcul";
import { APPELS_EXPORTS } from "../../server/api/appels-exports";
import { Executeur } from "../../server/jobs/runner";
import type { DemoIds } from "../../server/demo/seed-demo";
import { apiClient, attendre, expectContract } from "../helpers/api-client";

/**
 * The system and calculation calls of the JSON API (issue 27): protocols, objective indicators, calculation series,
 * the pre-check and the calculation job, over HTTP with a bearer token, on SQLite and PostgreSQL.
 */

const t = useTestDb();
const { api, tokenOf, answered, attendreTache } = apiClient(t, { ip: "203.0.113.28" });

const lances: Executeur[] = [];
afterEach(async () => {
  for (const e of lances.splice(0)) await e.arreter();
});

async function chapitre(): Promise<number> {
  // The first chapter shown (every chapter but the last, spec 3 §2.6).
  const rows = await t.db()("chapitre_protocole").orderBy("id").select("id");
  return Number(rows[0].id);
}

describe(`protocols and objectives (${dialect})`, () => {
  test("[C-API-28] protocoles_exploitations: create, read, list by chapter, update with updatedAt, delete; stored as answered", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const dic = await chapitre();
    const made = await api("POST", "/api/v1/protocoles_exploitations", {
      token,
      body: { campagne: campagnes.tilleuls2025, dicIdChapitreProtocole: dic, pexLibelle: "Rotation longue", pexValTexte: "Blé, colza, orge" },
    });
    expect(made.status).toBe(201);
    const p = made.body as { id: number; updatedAt: string };
    expect(made.body).toMatchObject({ campagne: campagnes.tilleuls2025, dicIdChapitreProtocole: dic, pexLibelle: "Rotation longue" });
    expect(await t.db()("protocole_exploitation").where({ id: p.id }).first("pexLibelle", "idCampagne")).toMatchObject({ pexLibelle: "Rotation longue" });

    expect((await api("GET", `/api/v1/protocoles_exploitations/${p.id}`, { token })).body).toMatchObject({ id: p.id, pexValTexte: "Blé, colza, orge" });
    const list = await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/protocoles_exploitations?dicIdChapitreProtocole=${dic}`, { token });
    expect(list.status).toBe(200);
    expect((list.body as { id: number; dicIdChapitreProtocole: number }[]).every((r) => r.dicIdChapitreProtocole === dic)).toBe(true);
    expect((list.body as { id: number }[]).map((r) => r.id)).toContain(p.id);

    const patched = await api("PATCH", `/api/v1/protocoles_exploitations/${p.id}`, {
      token,
      body: { dicIdChapitreProtocole: dic, pexLibelle: "Rotation courte", updatedAt: p.updatedAt },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ pexLibelle: "Rotation courte", pexValTexte: null });
    const stale = await api("PATCH", `/api/v1/protocoles_exploitations/${p.id}`, {
      token,
      body: { dicIdChapitreProtocole: dic, pexLibelle: "Trop tard", updatedAt: p.updatedAt },
    });
    expect(stale.status).toBe(409);
    expect((await t.db()("protocole_exploitation").where({ id: p.id }).first("pexLibelle")).pexLibelle).toBe("Rotation courte");

    expect((await api("DELETE", `/api/v1/protocoles_exploitations/${p.id}`, { token })).status).toBe(204);
    expect(await t.db()("protocole_exploitation").where({ id: p.id }).first()).toBeUndefined();
    expect((await api("GET", `/api/v1/protocoles_exploitations/${p.id}`, { token })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/protocoles_exploitations/${p.id}`, { token })).status).toBe(404);
  });

  test("[C-API-28] protocol writes: reader token, read-only token, another farm, locked campaign refused; bad input 400; nothing stored", async () => {
    const { campagnes } = t.demo();
    const dic = await chapitre();
    const body = (campagne: number) => ({ campagne, dicIdChapitreProtocole: dic, pexLibelle: "Refusé" });
    const before = await snapshot(t.db(), "protocole_exploitation");
    const refused: [string, string, number, number][] = [
      ["lecteur", "reader", campagnes.tilleuls2025, 403],
      ["lecteur", "another farm", campagnes.vallee2025, 403],
      ["redacteur", "locked", campagnes.tilleuls2024, 403],
    ];
    for (const [user, why, id, status] of refused) {
      const r = await api("POST", "/api/v1/protocoles_exploitations", { token: await tokenOf(user as keyof DemoIds["users"]), body: body(id) });
      expect([why, r.status]).toEqual([why, status]);
      ProblemSchema.parse(r.body);
    }
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    expect((await api("POST", "/api/v1/protocoles_exploitations", { token: readOnly, body: body(campagnes.tilleuls2025) })).body).toMatchObject({
      key: "errors.api.read-only-token",
    });
    const token = await tokenOf("redacteur");
    const bad = await api("POST", "/api/v1/protocoles_exploitations", {
      token,
      body: { campagne: campagnes.tilleuls2025, dicIdChapitreProtocole: "x", pexLibelle: "", inconnu: 1 },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { fieldErrors: object }).fieldErrors).sort()).toEqual(["dicIdChapitreProtocole", "inconnu", "pexLibelle"]);
    const noChapter = await api("POST", "/api/v1/protocoles_exploitations", {
      token,
      body: { ...body(campagnes.tilleuls2025), dicIdChapitreProtocole: 999999 },
    });
    expect(noChapter.status).toBe(400);
    expect((await api("POST", "/api/v1/protocoles_exploitations", { token, body: body(999999) })).status).toBe(404);
    expect(await snapshot(t.db(), "protocole_exploitation")).toEqual(before);
  });

  test("[C-API-29] indicateur_objectifs: indicateur, value, campagne; list, read, update, delete; rights and bad input", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const indicateur = Number((await t.db()("indicateur").orderBy("id").first("id")).id);
    const made = await api("POST", "/api/v1/indicateur_objectifs", { token, body: { indicateur, value: 2.5, campagne: campagnes.tilleuls2025 } });
    expect(made.status).toBe(201);
    const o = made.body as { id: number; updatedAt: string };
    expect(made.body).toMatchObject({ indicateur, value: 2.5, campagne: campagnes.tilleuls2025 });
    expect(Number((await t.db()("indicateur_objectif").where({ id: o.id }).first("value")).value)).toBe(2.5);
    const list = await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/indicateur_objectifs`, { token });
    expect((list.body as { id: number }[]).map((r) => r.id)).toContain(o.id);
    expect((await api("GET", `/api/v1/indicateur_objectifs/${o.id}`, { token })).body).toMatchObject({ id: o.id, value: 2.5 });
    const patched = await api("PATCH", `/api/v1/indicateur_objectifs/${o.id}`, { token, body: { indicateur, value: null, updatedAt: o.updatedAt } });
    expect(patched.body).toMatchObject({ value: null });

    const before = await snapshot(t.db(), "indicateur_objectif");
    const bad = await api("POST", "/api/v1/indicateur_objectifs", { token, body: { indicateur, value: "beaucoup", campagne: campagnes.tilleuls2025 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ fieldErrors: { value: expect.any(Array) } });
    const unknown = await api("POST", "/api/v1/indicateur_objectifs", { token, body: { indicateur: 99999999, value: 1, campagne: campagnes.tilleuls2025 } });
    expect(unknown.status).toBe(400);
    const reader = await api("DELETE", `/api/v1/indicateur_objectifs/${o.id}`, { token: await tokenOf("lecteur") });
    expect(reader.status).toBe(403);
    const locked = await api("POST", "/api/v1/indicateur_objectifs", { token, body: { indicateur, value: 1, campagne: campagnes.tilleuls2024 } });
    expect(locked.status).toBe(403);
    expect((await api("GET", `/api/v1/campagnes/${campagnes.vallee2025}/indicateur_objectifs`, { token: await tokenOf("lecteur") })).status).toBe(403);
    expect(await snapshot(t.db(), "indicateur_objectif")).toEqual(before);

    expect((await api("DELETE", `/api/v1/indicateur_objectifs/${o.id}`, { token })).status).toBe(204);
    expect(await t.db()("indicateur_objectif").where({ id: o.id }).first()).toBeUndefined();
  });
});

describe(`decision rules (${dialect})`, () => {
  test("[C-API-30] rdds: create with the campaign, read, list by driving mode, update, delete; refusals and bad input store nothing", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const mode = Number((await t.db()("mode_conduite").where({ idCampagne: campagnes.tilleuls2025 }).orderBy("id").first("id")).id);
    const type = Number((await t.db()("type_rdd").orderBy("id").first("id")).id);
    const fields = { libelle: "Pas de désherbage avant le 15 mars", dicIdTypeRdd: type, modeConduite: [mode], aModifier: false, objectif: "Réduire l'IFT" };
    const made = await api("POST", "/api/v1/rdds", { token, body: { ...fields, campagne: campagnes.tilleuls2025 } });
    expect(made.status).toBe(201);
    const r = made.body as { id: number; updatedAt: string };
    expect(made.body).toMatchObject({ idCampagne: campagnes.tilleuls2025, libelle: fields.libelle, modeConduite: [mode], objectif: "Réduire l'IFT" });
    expect(await t.db()("rdd_mode_conduite").where({ idRdd: r.id }).select("idModeConduite")).toHaveLength(1);
    expect((await api("GET", `/api/v1/rdds/${r.id}`, { token })).body).toMatchObject({ id: r.id });
    const list = await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/rdds?modeConduite=${mode}`, { token });
    expect((list.body as { id: number }[]).map((x) => x.id)).toContain(r.id);
    const patched = await api("PATCH", `/api/v1/rdds/${r.id}`, { token, body: { ...fields, libelle: "Règle revue", updatedAt: r.updatedAt } });
    expect(patched.status).toBe(200);
    expect((await t.db()("rdd").where({ id: r.id }).first("libelle")).libelle).toBe("Règle revue");

    const before = await snapshot(t.db(), "rdd");
    const bad = await api("POST", "/api/v1/rdds", { token, body: { campagne: campagnes.tilleuls2025, libelle: "", dicIdTypeRdd: type, modeConduite: [] } });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { fieldErrors: object }).fieldErrors)).toEqual(expect.arrayContaining(["libelle", "modeConduite"]));
    const otherMode = await api("POST", "/api/v1/rdds", { token, body: { ...fields, modeConduite: [99999999], campagne: campagnes.tilleuls2025 } });
    expect(otherMode.status).toBe(400);
    expect((await api("PATCH", `/api/v1/rdds/${r.id}`, { token: await tokenOf("lecteur"), body: { ...fields, updatedAt: r.updatedAt } })).status).toBe(403);
    expect((await api("POST", "/api/v1/rdds", { token, body: { ...fields, campagne: campagnes.tilleuls2024 } })).status).toBe(403);
    expect(await snapshot(t.db(), "rdd")).toEqual(before);

    expect((await api("DELETE", `/api/v1/rdds/${r.id}`, { token })).status).toBe(204);
    expect(await t.db()("rdd").where({ id: r.id }).first()).toBeUndefined();
    expect((await api("GET", `/api/v1/rdds/${r.id}`, { token })).status).toBe(404);
  });
});

type Tache = { id: number; etat: string; progression: number; total: number; resultat: unknown; series?: { id: number; idCampagne: number }[] };

async function demarrer() {
  const e = new Executeur(t.db(), { concurrence: 1, instance: `test-api-calcul:${process.pid}`, intervalleMs: 50, battementMs: 200 });
  lances.push(e);
  await e.demarrer();
}

describe(`calculation series (${dialect})`, () => {
  test("[C-API-47][C-API-48][C-API-45][C-API-46] check, then calc as a job (202 and its address), polled to its end; the series listed and read with its IFT and margin", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("redacteur");
    const check = await api("GET", `/api/v1/calculs_series/check?campagne=${campagnes.tilleuls2025}&force=true`, { token });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ codeRetour: expect.stringMatching(/^(OK|Avertissement|Erreur)$/), details: expect.any(Array) });

    const started = await api("POST", "/api/v1/calculs_series/calc", { token, body: { campagne: [campagnes.tilleuls2025], force: true } });
    expect(started.status).toBe(202);
    const { idTache, href } = started.body as { idTache: number; href: string };
    expect(href).toBe(`/api/v1/taches/${idTache}`);
    expect(await t.db()("tache").where({ id: idTache }).first("etat")).toMatchObject({ etat: "en_attente" });
    await demarrer();
    const done = await attendreTache<Tache>(token, href);
    expect(done).toMatchObject({ etat: "terminee", series: [{ idCampagne: campagnes.tilleuls2025 }] });
    expect(done.progression).toBe(done.total);
    const idSerie = done.series![0].id;

    // The series runs its plots in its own job: poll the list until it ended.
    const serie = await attendre(
      async () =>
        ((await api("GET", `/api/v1/calculs_series?campagne=${campagnes.tilleuls2025}`, { token })).body as { id: number; statut: string }[]).find(
          (s) => s.id === idSerie,
        ),
      (s) => !!s && s.statut !== "en_cours",
      { quoi: "the series" },
    );
    expect(serie).toMatchObject({ statut: "termine", publication: false });
    const read = await api("GET", `/api/v1/calculs_series/${idSerie}`, { token });
    expect(read.status).toBe(200);
    const codes = new Set(
      (read.body as { resultats: { code: string; niveau: string }[] }).resultats.filter((r) => r.niveau === "exploitation").map((r) => r.code),
    );
    expect(codes).toContain("ift.cible.total");
    expect(codes).toContain("economie.reel.margeBrute");

    // Publication (all groups), the remark, then the visa by the animator; then a validated series refuses changes.
    const pub = await api("PATCH", `/api/v1/calculs_series/${idSerie}`, { token, body: { tous: true } });
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ publication: true, visaAnimateur: false });

    // [C-API-52][C-API-53][C-API-51] The result export as a job: 202 and its address, polled; the session listed, then deleted.
    const exportBody = { calculsSeries: [idSerie], groupes: ["ift", "economie"], realise: true, exploitation: true };
    const badExport = await api("POST", "/api/v1/session_exports", { token, body: { ...exportBody, groupes: [] } });
    expect(badExport.status).toBe(400);
    const readOnlyExport = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    expect((await api("POST", "/api/v1/session_exports", { token: readOnlyExport, body: exportBody })).status).toBe(403);
    expect((await api("POST", "/api/v1/session_exports", { token, body: { ...exportBody, calculsSeries: [99999999] } })).status).toBe(404);
    // The animator exports (a session is its owner's: another user neither lists nor deletes it).
    const exporter = await tokenOf("animateur");
    const exp = await api("POST", "/api/v1/session_exports?locale=en", { token: exporter, body: exportBody });
    expect(exp.status).toBe(202);
    const { id: idSession, href: exportHref } = exp.body as { id: number; href: string };
    expect(await attendreTache(exporter, exportHref)).toMatchObject({ etat: "terminee" });
    const sessions = await api("GET", `/api/v1/session_exports?campagnes=${campagnes.tilleuls2025}&nature=1`, { token: exporter });
    expect(sessions.body).toEqual(expect.arrayContaining([expect.objectContaining({ id: idSession, statut: 0, anglais: true, nature: 1 })]));
    expect((await api("GET", "/api/v1/session_exports?nature=7", { token })).status).toBe(400);
    expect((await api("DELETE", `/api/v1/session_exports/${idSession}`, { token })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/session_exports/${idSession}`, { token: exporter })).status).toBe(204);
    expect(await t.db()("session_export").where({ id: idSession }).first()).toBeUndefined();
    expect((await api("PATCH", `/api/v1/calculs_series/${idSerie}`, { token, body: { remarque: "Vu avec l'agriculteur" } })).body).toMatchObject({
      remarque: "Vu avec l'agriculteur",
    });
    const notAnimator = await api("PATCH", `/api/v1/calculs_series/${idSerie}`, { token, body: { visa: true } });
    expect(notAnimator.status).toBe(403);
    const animateur = await tokenOf("animateur");
    const visa = await api("PATCH", `/api/v1/calculs_series/${idSerie}`, { token: animateur, body: { visa: true } });
    expect(visa.status).toBe(200);
    expect(visa.body).toMatchObject({ visaAnimateur: true });
    expect(await t.db()("campagne").where({ id: campagnes.tilleuls2025 }).first("serieValide", "indicateurPublie")).toMatchObject({
      serieValide: expect.anything(),
    });
    const before = await snapshot(t.db(), "calcul_serie");
    const locked = await api("PATCH", `/api/v1/calculs_series/${idSerie}`, { token, body: { remarque: "Changée" } });
    expect(locked.status).toBe(409);
    // A validated series makes the campaign's raw data read-only: a protocol write is refused.
    const raw = await api("POST", "/api/v1/protocoles_exploitations", {
      token,
      body: { campagne: campagnes.tilleuls2025, dicIdChapitreProtocole: await chapitre(), pexLibelle: "Après visa" },
    });
    expect(raw.status).toBe(403);
    expect(await snapshot(t.db(), "calcul_serie")).toEqual(before);
    expect((await api("PATCH", `/api/v1/calculs_series/${idSerie}`, { token: animateur, body: { visa: false } })).body).toMatchObject({ visaAnimateur: false });
  });

  test("[C-API-48][C-API-46] calc and series changes refused: reader, read-only token, another farm, bad input; no job recorded", async () => {
    const { campagnes } = t.demo();
    const before = await snapshot(t.db(), "tache");
    const body = { campagne: [campagnes.tilleuls2025] };
    expect((await api("POST", "/api/v1/calculs_series/calc", { token: await tokenOf("lecteur"), body })).status).toBe(403);
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    expect((await api("POST", "/api/v1/calculs_series/calc", { token: readOnly, body })).status).toBe(403);
    const token = await tokenOf("redacteur");
    expect((await api("POST", "/api/v1/calculs_series/calc", { token: await tokenOf("lecteur"), body: { campagne: [campagnes.vallee2025] } })).status).toBe(
      403,
    );
    const bad = await api("POST", "/api/v1/calculs_series/calc", { token, body: { campagne: [], force: "oui" } });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { fieldErrors: object }).fieldErrors).sort()).toEqual(["campagne", "force"]);
    expect((await api("GET", "/api/v1/calculs_series/check?campagne=abc", { token })).status).toBe(400);
    expect(await snapshot(t.db(), "tache")).toEqual(before);

    const seriesBefore = await snapshot(t.db(), "calcul_serie");
    const any = await t.db()("calcul_serie").first("id");
    if (any) {
      expect((await api("PATCH", `/api/v1/calculs_series/${any.id}`, { token, body: { remarque: "a", visa: true } })).status).toBe(400);
      expect((await api("PATCH", `/api/v1/calculs_series/${any.id}`, { token: await tokenOf("lecteur"), body: { remarque: "a" } })).status).toBe(403);
    }
    expect((await api("GET", "/api/v1/calculs_series/99999999", { token })).status).toBe(404);
    expect((await api("GET", "/api/v1/taches/99999999", { token })).status).toBe(404);
    expect(await snapshot(t.db(), "calcul_serie")).toEqual(seriesBefore);
    // Another user's job is not found.
    const { idTache } = (await api("POST", "/api/v1/calculs_series/calc", { token, body })).body as { idTache: number };
    expect((await api("GET", `/api/v1/taches/${idTache}`, { token: await tokenOf("animateur") })).status).toBe(404);
  });
});

// The contract of this file's calls: every path and method called, no 500, every JSON answer as documented.
// The evaluation calls have their own file (api-evaluations.service.test.ts).
afterAll(() => expectContract([...APPELS_PROTOCOLES.filter((c) => !c.path.includes("rdd_evaluations")), ...APPELS_CALCUL, ...APPELS_EXPORTS], answered));
