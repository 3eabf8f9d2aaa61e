import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { MAX_IDS } from "~/domain/validation";
import { createCampagne, createDossier, createExploitation } from "../../server/demo/factories";
import { e2eDb, expect, test } from "./fixtures";
import { apiAs, demoIds, setContext } from "./helpers";
import { E2E } from "./settings";

/**
 * Bad input (issue 10, defect 7): every malformed, oversized or out-of-range input sent to the built app is a 4xx
 * with a message, never a 500; nothing changes in the database and no stack trace reaches the server's log.
 * Body sizes and content types are the edge's (security.spec.ts); here, what passes the edge.
 */

const PLOTS = "home/description/exploitation/parcelle";
const LABOUR = "home/description/exploitation/main_oeuvre";
const MACHINERY = "home/description/exploitation/parc_materiel";
const OPERATIONS = "home/description/exploitation/operations_culturales";
const FOLDER = "home/description/parametre_dossier";
const FARM = "home/description/parametre_exploitation";

const signedIn = apiAs;

const TABLES = [
  "dossier",
  "exploitation",
  "dossier_exploitation",
  "utilisateur_dossier",
  "campagne",
  "caracteristique",
  "parcelle",
  "main_oeuvre",
  "parc_materiel",
  "audit",
];

async function snapshot() {
  const db = e2eDb();
  const out: Record<string, unknown[]> = {};
  for (const t of TABLES) out[t] = await db(t).select("*").orderBy("id");
  const contexts = await db("utilisateur_contexte").select("*").orderBy("id_user");
  out.utilisateur_contexte = contexts.map(({ updatedAt: _u, createdAt: _c, lastPostDate: _l, ...r }) => r);
  return out;
}

/** The server's log (tests/e2e/fixtures.ts writes it), from `from` bytes on. */
const serverLog = path.resolve("tests/.artifacts", `server-${E2E.port}.log`);
const logSize = () => (fs.existsSync(serverLog) ? fs.statSync(serverLog).size : 0);
const logSince = (from: number) => (fs.existsSync(serverLog) ? fs.readFileSync(serverLog).subarray(from).toString("utf8") : "");

const ids = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => i + 1));
const labour = { intent: "save", libelle: "Salarié", idTypeUser: "951", uta: "1" };
const machine = {
  intent: "save",
  libelle: "Tracteur",
  noClasse: "1",
  idCategorieMateriel: "1",
  idBasemeq: "101",
  typePropriete: "0",
  copropriete: "100",
  puissance: "100",
  prixNeuf: "75000",
  prixAchat: "75000",
  utilisationAnnuelle: "500",
};

type Bad = { name: string; send: (api: APIRequestContext) => Promise<APIResponse> };

function badInputs(i: { reseau: number; tilleuls: number; foreignPlot: number }): Bad[] {
  const post = (p: string, form: Record<string, string>) => (api: APIRequestContext) => api.post(p, { form, maxRedirects: 0 });
  const get = (p: string) => (api: APIRequestContext) => api.get(p, { maxRedirects: 0 });
  const json = (p: string, body: unknown) => (api: APIRequestContext) =>
    api.post(p, { data: JSON.stringify(body), headers: { "Content-Type": "application/json" }, maxRedirects: 0 });
  return [
    // Delete ids (the JSON list of the selected rows)
    { name: "delete ids not JSON", send: post(PLOTS, { intent: "delete", ids: "1,2,3" }) },
    { name: "delete ids of the wrong shape", send: post(PLOTS, { intent: "delete", ids: '{"ids":[1]}' }) },
    { name: "delete ids as hex strings", send: post(LABOUR, { intent: "delete", ids: '["0x1A"]' }) },
    { name: "delete id 1e23", send: post(LABOUR, { intent: "delete", ids: "[1e23]" }) },
    { name: `delete ${MAX_IDS + 1} ids (more than MAX_IDS)`, send: post(MACHINERY, { intent: "delete", ids: ids(MAX_IDS + 1) }) },
    { name: "delete 200,000 ids", send: post(MACHINERY, { intent: "delete", ids: ids(200_000) }) },
    // Hidden fields and intents
    { name: "hidden id in hex", send: post(LABOUR, { ...labour, id: "0x1A", updatedAt: "" }) },
    { name: "hidden id 1e23", send: post(LABOUR, { ...labour, id: "1e23", updatedAt: "" }) },
    { name: "hidden id past the integer column", send: post(LABOUR, { ...labour, id: "2147483648", updatedAt: "" }) },
    { name: "hidden updatedAt of 100 characters", send: post(LABOUR, { ...labour, id: "1", updatedAt: "x".repeat(100) }) },
    { name: "unknown intent", send: post(LABOUR, { intent: "dropTables" }) },
    { name: "unknown context-bar intent", send: post("home/partage", { intent: "dropTables" }) },
    {
      name: "context-bar farm id in hex",
      send: post("home/partage", { intent: "createCampagne", anneeRecolte: "2031", idExploitation: `0x${i.tilleuls.toString(16)}` }),
    },
    // Numbers bounded to what both databases store
    { name: "uta 1e23", send: post(LABOUR, { ...labour, uta: "1e23" }) },
    { name: "uta of 24 digits", send: post(LABOUR, { ...labour, uta: "100000000000000000000000" }) },
    { name: "uta past decimal(8, 3)", send: post(LABOUR, { ...labour, uta: "100000" }) },
    { name: "amount in hex", send: post(LABOUR, { ...labour, montant: "0x1A" }) },
    { name: "purchase price past the integer column", send: post(MACHINERY, { ...machine, prixAchat: "99999999999" }) },
    { name: "annual use 1e23", send: post(MACHINERY, { ...machine, utilisationAnnuelle: "100000000000000000000000" }) },
    { name: "plot surface past decimal(10, 4)", send: post(PLOTS, { intent: "save", libelle: "Parcelle énorme", surface: "10000000" }) },
    { name: "plot charge 1e23", send: post(PLOTS, { intent: "save", libelle: "Parcelle chère", surface: "1", chargesSemences: "100000000000000000000000" }) },
    // Control characters, ids past the integer column (issue 23, decision 0091)
    { name: "NUL in a labour name", send: post(LABOUR, { ...labour, libelle: "Salarié\u0000" }) },
    { name: "NUL in a plot's remark", send: post(PLOTS, { intent: "save", libelle: "Parcelle nulle", surface: "1", remarque: "a\u0000b" }) },
    { name: "bell character in a machine's name", send: post(MACHINERY, { ...machine, libelle: "Trac\u0007teur" }) },
    { name: "raw export of group 2^31", send: post("home/resultats/session_exports", { nature: "0", campagnes: "[1]", groupes: "[2147483648]" }) },
    // JSON-in-form fields (rows, links, scenarios, cost centres)
    { name: "folder rights rows not JSON", send: post(FOLDER, { intent: "rights", rows: "{rows" }) },
    { name: "folder rights rows of the wrong shape", send: post(FOLDER, { intent: "rights", rows: '{"rows":"all"}' }) },
    { name: "farm links not JSON", send: post(FARM, { intent: "links", links: "[" }) },
    { name: "farm links of the wrong shape", send: post(FARM, { intent: "links", links: '{"links":[{"idDossierExploitation":"0x1"}]}' }) },
    { name: "scenarios not JSON", send: post(FARM, { intent: "scenarios", campagnes: "nope" }) },
    { name: "cost centres with a hex plot id", send: post(PLOTS, { intent: "affectations", affectations: '[{"idParcelle":"0x1A","idCulture":null}]' }) },
    // JSON bodies
    { name: "JSON body to a form route", send: json(LABOUR, labour) },
    { name: "context selection with hex ids", send: json("home/contexte", { intent: "exploitations", ids: ["0x1A"] }) },
    {
      name: `context selection of ${MAX_IDS + 1} farms`,
      send: json("home/contexte", { intent: "exploitations", ids: Array.from({ length: MAX_IDS + 1 }, (_, n) => n + 1) }),
    },
    { name: "context selection id 1e23", send: json("home/contexte", { intent: "dossier", id: 1e23 }) },
    // Loaders: malformed query parameters and a refused read
    { name: "history tree of id 1e23", send: get(`${PLOTS}?arbre=1e23`) },
    { name: "history tree of a hex id", send: get(`${PLOTS}?arbre=0x1A`) },
    { name: "history tree of a plot the user may not read", send: get(`${PLOTS}?arbre=${i.foreignPlot}`) },
    { name: "fuel reference of action 1e23", send: get(`${OPERATIONS}?conso_carburant&id_type_action=1e23&debit=1&puissance=100`) },
    { name: "fuel reference of power 1e400", send: get(`${OPERATIONS}?conso_carburant&id_type_action=1&debit=1&puissance=1e400`) },
    { name: "machinery category in hex", send: get(`${MACHINERY}?categorie=0x1`) },
    { name: "group members of a malformed group", send: get("home/utilisateurs?idGroupe=abc") },
    { name: "group members of group 1e23", send: get("home/utilisateurs?idGroupe=1e23") },
  ];
}

test.describe("bad input answers 4xx (issue 10, defect 7)", () => {
  test("[issue10-7] every bad input is a 4xx with a message, changes nothing and logs no stack trace", async () => {
    test.setTimeout(90_000);
    const db = e2eDb();
    const d = await demoIds();
    // A plot in a folder the user has no right on: reading its history is refused.
    const folder = await createDossier(db, { libelle: "Dossier étranger", idOad: d.reseauDemo });
    const farm = await createExploitation(db, { libelle: "Ferme étrangère" });
    await db("dossier_exploitation").insert({
      idDossier: folder,
      idExploitation: farm,
      dexEcriture: true,
      dexLecture: true,
      dexSynthese: true,
      dexAnimation: true,
    });
    const campagne = await createCampagne(db, { idExploitation: farm, anneeRecolte: 2025 });
    await db("parcelle").insert({ idCampagne: campagne, libelle: "Parcelle étrangère", surface: 1 });
    const foreignPlot = (await db("parcelle").where({ idCampagne: campagne }).first("id")).id as number;
    try {
      await setContext("animateur", { idOad: d.reseauDemo, idDossier: d.beauce, exploitations: [d.tilleuls], idCampagne: d.tilleuls2025 });
      const api = await signedIn("animateur");
      const before = await snapshot();
      const logFrom = logSize();
      const answers: string[] = [];
      for (const bad of badInputs({ reseau: d.reseauDemo, tilleuls: d.tilleuls, foreignPlot })) {
        const res = await bad.send(api);
        const status = res.status();
        answers.push(`${bad.name}: ${status >= 400 && status < 500 ? "4xx" : status}`);
        // A message: the refusal names its reason (an i18n key in the answer, or the edge's sentence).
        if (status >= 400 && status < 500) expect((await res.text()).length, `${bad.name}: an answer without a message`).toBeGreaterThan(0);
      }
      expect(answers).toEqual(answers.map((a) => a.replace(/: .*$/, ": 4xx")));
      expect(await snapshot()).toEqual(before);
      const log = logSince(logFrom);
      expect(log, "a stack trace in the server's log").not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      await api.dispose();
    } finally {
      await db("exploitation").where({ id: farm }).delete();
      await db("dossier").where({ id: folder }).delete();
    }
  });

  test("[issue10-7] the refusal says why: field errors name the field and the bound", async () => {
    const d = await demoIds();
    await setContext("animateur", { idOad: d.reseauDemo, idDossier: d.beauce, exploitations: [d.tilleuls], idCampagne: d.tilleuls2025 });
    const api = await signedIn("animateur");
    const tooMany = await api.post(`${MACHINERY}.data`, { form: { intent: "delete", ids: ids(MAX_IDS + 1) } });
    expect(tooMany.status()).toBe(400);
    expect(await tooMany.text()).toContain("warning.too-many");
    const huge = await api.post(`${LABOUR}.data`, { form: { ...labour, uta: "100000000000000000000000" } });
    expect(huge.status()).toBe(400);
    expect(await huge.text()).toContain("warning.max");
    const hex = await api.post(`${LABOUR}.data`, { form: { ...labour, montant: "0x1A" } });
    expect(hex.status()).toBe(400);
    expect(await hex.text()).toContain("warning.numeric");
    await api.dispose();
  });
});

test.describe("signed-in answers are never stored (issue 23, decision 0091)", () => {
  test("[issue23-cache] a signed-in page and its .data answer carry Cache-Control: no-store", async () => {
    const d = await demoIds();
    await setContext("animateur", { idOad: d.reseauDemo, idDossier: d.beauce, exploitations: [d.tilleuls], idCampagne: d.tilleuls2025 });
    const api = await signedIn("animateur");
    for (const p of [PLOTS, `${PLOTS}.data`, "home/description/home"]) {
      const res = await api.get(p, { maxRedirects: 0 });
      expect(res.status(), p).toBe(200);
      expect(res.headers()["cache-control"], p).toBe("no-store");
    }
    await api.dispose();
  });

  test("[issue23-input] a NUL in the sign-in name is a 400 with the form again, not a 500", async ({ playwright }) => {
    const api = await playwright.request.newContext({ baseURL: E2E.baseURL, extraHTTPHeaders: { Origin: new URL(E2E.baseURL).origin } });
    const res = await api.post("login", { form: { username: "admin\u0000", password: "demo1234" }, maxRedirects: 0 });
    expect(res.status()).toBe(400);
    await api.dispose();
  });
});

test.describe("group members (issue 10, defect 8; decision 0019)", () => {
  test("[issue10-8] [A-FOLDER-03] only a user who may grant rights (folder animation) or an admin lists a group's members", async () => {
    const db = e2eDb();
    const groupe = (await db("groupe_utilisateur").where({ nomGroupe: "Agriculteurs du réseau démo" }).first("id")).id as number;
    const members = await db("utilisateur as u")
      .join("utilisateur_groupe as ug", "ug.idUser", "u.id")
      .where({ "ug.idGroupe": groupe, "u.isVisible": true })
      .pluck("u.nom");
    expect(members.length).toBeGreaterThan(0);
    for (const user of ["animateur", "admin"] as const) {
      const api = await signedIn(user);
      const res = await api.get(`home/utilisateurs?idGroupe=${groupe}`);
      expect(res.status(), user).toBe(200);
      expect(((await res.json()) as { users: { nom: string }[] }).users.map((u) => u.nom).sort(), user).toEqual([...members].sort());
      await api.dispose();
    }
    // redacteur writes both folders but animates none; lecteur and synthese only read.
    for (const user of ["redacteur", "lecteur", "synthese"] as const) {
      const api = await signedIn(user);
      const res = await api.get(`home/utilisateurs?idGroupe=${groupe}`);
      expect(res.status(), user).toBe(403);
      const body = await res.text();
      for (const nom of members) expect(body, `${user} sees ${nom}`).not.toContain(nom);
      await api.dispose();
    }
  });
});
