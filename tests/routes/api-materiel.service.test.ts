import { afterAll, describe, expect, test } from "vitest";
import { snapshot, scopeOf } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_CARACTERISTIQUES } from "../../server/api/appels-caracteristiques";
import { APPELS_MATERIEL } from "../../server/api/appels-materiel";
import { getConsoCarburantReference } from "../../server/operation-culturale/service";
import { showsPowerField } from "~/domain/calc/materiel";

const t = useTestDb();
const { api, tokenOf, answered } = apiClient(t);

type Row = { id: number; updatedAt: string; [k: string]: unknown };
const problem = (a: { headers: Headers }) => expect(a.headers.get("content-type")).toContain("application/problem+json");

/** A power category with a reference that is not archived, and a valid machine body on it. */
async function machineRefs() {
  const db = t.db();
  const refs = await db("reference_materiel").where({ archive: false }).orderBy("id").select("id", "idCategorieMateriel");
  const categories = await db("categorie_materiel").select("id", "idClasseMateriel");
  const ref = refs.find((r) => showsPowerField(Number(r.idCategorieMateriel)))!;
  expect(ref).toBeDefined();
  const categorie = categories.find((c) => Number(c.id) === Number(ref.idCategorieMateriel))!;
  const body = {
    libelle: "Tracteur API",
    noClasse: Number(categorie.idClasseMateriel),
    idCategorieMateriel: Number(categorie.id),
    idBasemeq: Number(ref.id),
    typePropriete: 0,
    copropriete: 100,
    puissance: 150,
    prixAchat: 90000,
  };
  return { body, idClasse: Number(categorie.idClasseMateriel), idCategorie: Number(categorie.id), idReference: Number(ref.id) };
}

describe(`machinery over the API (${dialect})`, () => {
  test("[B-API-10][B-API-01] POST parc_materiels, GET campagnes/{id}/parc_materiels (idCategorieMateriel), GET, PATCH (stale: 409), DELETE (again: 404)", async () => {
    const m = await machineRefs();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const token = await tokenOf("redacteur");

    const made = await api("POST", "/api/v1/parc_materiels", { token, body: { idCampagne, ...m.body } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const row = made.body as Row;
    expect(row).toMatchObject({
      idCampagne,
      campagne: `/api/v1/campagnes/${idCampagne}`,
      libelle: "Tracteur API",
      suffixedLibelle: "Tracteur API",
      idBasemeq: m.idReference,
      puissance: 150,
      calcul: expect.any(Object),
    });
    expect(await t.db()("parc_materiel").where({ id: row.id }).first("libelle", "idCampagne")).toMatchObject({ libelle: "Tracteur API", idCampagne });

    const all = (await api("GET", `/api/v1/campagnes/${idCampagne}/parc_materiels`, { token })).body as Row[];
    expect(all.map((x) => x.id)).toContain(row.id);
    expect(all).toHaveLength((await t.db()("parc_materiel").where({ idCampagne }).pluck("id")).length);
    const filtered = await api("GET", `/api/v1/campagnes/${idCampagne}/parc_materiels?idCategorieMateriel=${m.idCategorie}`, { token });
    expect(filtered.status).toBe(200);
    expect((filtered.body as Row[]).map((x) => x.id)).toContain(row.id);
    expect((filtered.body as Row[]).every((x) => x.idCategorieMateriel === m.idCategorie)).toBe(true);
    expect((await api("GET", `/api/v1/campagnes/${idCampagne}/parc_materiels?idCategorieMateriel=abc`, { token })).status).toBe(400);

    const one = await api("GET", `/api/v1/parc_materiels/${row.id}`, { token });
    expect(one.body).toMatchObject({ id: row.id, updatedAt: row.updatedAt });

    const patched = await api("PATCH", `/api/v1/parc_materiels/${row.id}`, {
      token,
      body: { ...m.body, libelle: "Tracteur CUMA", typePropriete: 2, updatedAt: row.updatedAt },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ libelle: "Tracteur CUMA", suffixedLibelle: "Tracteur CUMA_E/I", copropriete: null });
    const stale = await api("PATCH", `/api/v1/parc_materiels/${row.id}`, { token, body: { ...m.body, libelle: "Écrasé", updatedAt: row.updatedAt } });
    expect(stale.status).toBe(409);
    problem(stale);
    expect((await t.db()("parc_materiel").where({ id: row.id }).first("libelle")).libelle).toBe("Tracteur CUMA");

    const gone = await api("DELETE", `/api/v1/parc_materiels/${row.id}`, { token });
    expect(gone.status).toBe(204);
    expect(gone.text).toBe("");
    expect(await t.db()("parc_materiel").where({ id: row.id }).first("id")).toBeUndefined();
    expect((await api("DELETE", `/api/v1/parc_materiels/${row.id}`, { token })).status).toBe(404);
    expect((await api("GET", `/api/v1/parc_materiels/${row.id}`, { token })).status).toBe(404);
    expect((await api("PATCH", `/api/v1/parc_materiels/${row.id}`, { token, body: { ...m.body, updatedAt: row.updatedAt } })).status).toBe(404);
  });

  test("[B-API-10] machine writes refused: reader, read-only token, other farm, locked campaign (403), anonymous (401), bad input (400); nothing written", async () => {
    const m = await machineRefs();
    const { campagnes } = t.demo();
    const before = await snapshot(t.db(), "parc_materiel");
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    const cases: [string | null, number, Record<string, unknown>, number][] = [
      ["lecteur", campagnes.tilleuls2025, m.body, 403],
      ["synthese", campagnes.tilleuls2025, m.body, 403],
      ["lecteur", campagnes.vallee2025, m.body, 403],
      ["redacteur", campagnes.tilleuls2024, m.body, 403],
      [null, campagnes.tilleuls2025, m.body, 401],
      ["redacteur", campagnes.tilleuls2025, { ...m.body, libelle: "", puissance: "fort", typePropriete: 7 }, 400],
      ["redacteur", campagnes.tilleuls2025, { ...m.body, champInconnu: 1 }, 400],
      ["redacteur", campagnes.tilleuls2025, { ...m.body, idBasemeq: 999999 }, 400],
      ["redacteur", 999999, m.body, 404],
    ];
    for (const [username, idCampagne, body, status] of cases) {
      const answer = await api("POST", "/api/v1/parc_materiels", { token: username ? await tokenOf(username) : null, body: { idCampagne, ...body } });
      expect(answer.status, `${username} ${idCampagne} ${JSON.stringify(answer.body)}`).toBe(status);
      problem(answer);
    }
    const redacteur = await tokenOf("redacteur");
    const bad = await api("POST", "/api/v1/parc_materiels", {
      token: redacteur,
      body: { idCampagne: campagnes.tilleuls2025, ...m.body, libelle: "", puissance: "fort" },
    });
    expect(Object.keys((bad.body as { fieldErrors: object }).fieldErrors).sort()).toEqual(["libelle", "puissance"]);
    const unknown = await api("POST", "/api/v1/parc_materiels", { token: redacteur, body: { idCampagne: campagnes.tilleuls2025, ...m.body, champInconnu: 1 } });
    expect((unknown.body as { fieldErrors: object }).fieldErrors).toHaveProperty("champInconnu");
    const broken = await api("POST", "/api/v1/parc_materiels", { token: redacteur, raw: '{"libelle": "x",' });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ key: "errors.api.invalid-json" });
    const ro = await api("POST", "/api/v1/parc_materiels", { token: readOnly, body: { idCampagne: campagnes.tilleuls2025, ...m.body } });
    expect(ro.status).toBe(403);
    expect(ro.body).toMatchObject({ key: "errors.api.read-only-token" });

    const existing = (await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/parc_materiels`, { token: await tokenOf("lecteur") })).body as Row[];
    expect(existing.length).toBeGreaterThan(0);
    const target = existing[existing.length - 1];
    const lecteur = await tokenOf("lecteur");
    expect((await api("GET", `/api/v1/parc_materiels/${target.id}`, { token: lecteur })).status).toBe(200);
    expect((await api("PATCH", `/api/v1/parc_materiels/${target.id}`, { token: lecteur, body: { ...m.body, updatedAt: target.updatedAt } })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/parc_materiels/${target.id}`, { token: lecteur })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/parc_materiels/${target.id}`, { token: readOnly })).status).toBe(403);
    expect((await api("PATCH", `/api/v1/parc_materiels/${target.id}`, { token: redacteur, body: { ...m.body, updatedAt: 12 } })).status).toBe(400);
    const foreign = await t.db()("parc_materiel").where({ idCampagne: campagnes.vallee2025 }).first("id");
    expect(foreign).toBeDefined();
    expect((await api("GET", `/api/v1/parc_materiels/${foreign.id}`, { token: lecteur })).status).toBe(403);
    expect((await api("GET", `/api/v1/campagnes/${campagnes.vallee2025}/parc_materiels`, { token: lecteur })).status).toBe(403);
    expect((await api("DELETE", `/api/v1/parc_materiels/${foreign.id}`, { token: lecteur })).status).toBe(403);
    const locked = await t.db()("parc_materiel").where({ idCampagne: campagnes.tilleuls2024 }).first("id");
    expect((await api("DELETE", `/api/v1/parc_materiels/${locked.id}`, { token: redacteur })).status).toBe(403);
    expect((await api("GET", "/api/v1/parc_materiels/abc", { token: redacteur })).status).toBe(400);
    expect((await api("GET", `/api/v1/parc_materiels/${target.id}`, { token: null })).status).toBe(401);
    expect(await snapshot(t.db(), "parc_materiel")).toEqual(before);
  });

  test("[B-API-10][B-API-14] GET operation_culturales/{id}/parc_materiels: the operation's tractor, then its towed equipment", async () => {
    const { campagnes } = t.demo();
    const token = await tokenOf("lecteur");
    const ops = (await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/operation_culturales`, { token })).body as (Row & { parcMateriel: number[] })[];
    const op = ops.find((o) => o.parcMateriel.length > 1) ?? ops.find((o) => o.parcMateriel.length > 0);
    expect(op).toBeDefined();
    const machines = await api("GET", `/api/v1/operation_culturales/${op!.id}/parc_materiels`, { token });
    expect(machines.status).toBe(200);
    expect((machines.body as Row[]).map((x) => x.id)).toEqual(op!.parcMateriel);
    expect((machines.body as Row[]).every((x) => x.idCampagne === campagnes.tilleuls2025)).toBe(true);
    const foreign = await t.db()("operation_culturale").where({ idCampagne: campagnes.vallee2025 }).first("id");
    if (foreign) expect((await api("GET", `/api/v1/operation_culturales/${foreign.id}/parc_materiels`, { token })).status).toBe(403);
    expect((await api("GET", "/api/v1/operation_culturales/999999/parc_materiels", { token })).status).toBe(404);
  });

  test("[B-MACH-29][B-MACH-30] POST parc_materiels/duplication copies machines to another campaign of the farm; refused for a reader, to a locked campaign or a campaign of another farm, for an unknown machine; nothing copied", async () => {
    const { campagnes, dossiers, exploitations } = t.demo();
    const token = await tokenOf("redacteur");
    const sources = await t.db()("parc_materiel").where({ idCampagne: campagnes.tilleuls2025 }).orderBy("id").limit(2).pluck("id");
    const ids = sources.map(Number);
    const body = { ids, idDossier: dossiers.beauce, idExploitation: exploitations.tilleuls, campagnes: [campagnes.tilleuls2025Simulation] };
    const before = await snapshot(t.db(), "parc_materiel");
    const refused: [string, Record<string, unknown>, number][] = [
      ["lecteur", body, 403],
      ["redacteur", { ...body, campagnes: [campagnes.tilleuls2024] }, 403],
      ["redacteur", { ...body, campagnes: [campagnes.vallee2025] }, 400],
      ["redacteur", { ...body, ids: [999999] }, 404],
      ["redacteur", { ...body, ids: [] }, 400],
      ["redacteur", { ...body, champInconnu: true }, 400],
    ];
    for (const [username, b, status] of refused) {
      const answer = await api("POST", "/api/v1/parc_materiels/duplication", { token: await tokenOf(username), body: b });
      expect(answer.status, `${username} ${JSON.stringify(b)} ${JSON.stringify(answer.body)}`).toBe(status);
      problem(answer);
    }
    expect((await api("POST", "/api/v1/parc_materiels/duplication", { token: null, body })).status).toBe(401);
    expect(await snapshot(t.db(), "parc_materiel")).toEqual(before);

    const target = await t.db()("parc_materiel").where({ idCampagne: campagnes.tilleuls2025Simulation }).count<{ n: number }[]>({ n: "*" }).first();
    const done = await api("POST", "/api/v1/parc_materiels/duplication", { token, body });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body).toEqual({ copies: ids.length });
    const after = await t.db()("parc_materiel").where({ idCampagne: campagnes.tilleuls2025Simulation }).count<{ n: number }[]>({ n: "*" }).first();
    expect(Number(after!.n)).toBe(Number(target!.n) + ids.length);
  });

  test("[B-MACH-09][B-MACH-10][B-MACH-16][B-API-11][B-API-02] the cascade: a class's categories, a category's references (archive, numeroClasse), one reference; in English with locale=en", async () => {
    const m = await machineRefs();
    const token = await tokenOf("lecteur");
    const categories = await api("GET", `/api/v1/classe_materiels/${m.idClasse}/categorie_materiels`, { token });
    expect(categories.status).toBe(200);
    const stored = await t.db()("categorie_materiel").where({ idClasseMateriel: m.idClasse }).pluck("id");
    expect((categories.body as Row[]).map((c) => c.id).sort((a, b) => a - b)).toEqual(stored.map(Number).sort((a, b) => a - b));
    expect((categories.body as Row[])[0]).toMatchObject({
      id: expect.any(Number),
      libelle: expect.any(String),
      ordre: expect.any(Number),
      classeMateriel: `/api/v1/classe_materiels/${m.idClasse}`,
    });
    const en = await api("GET", `/api/v1/classe_materiels/${m.idClasse}/categorie_materiels?locale=en`, { token });
    const cat = (await t.db()("categorie_materiel").where({ id: m.idCategorie }).first("libelle", "libelleEn")) as {
      libelle: string;
      libelleEn: string | null;
    };
    expect((en.body as Row[]).find((c) => c.id === m.idCategorie)!.libelle).toBe(cat.libelleEn ?? cat.libelle);
    expect((await api("GET", "/api/v1/classe_materiels/999999/categorie_materiels", { token })).status).toBe(404);

    const refs = await t.db()("reference_materiel").where({ idCategorieMateriel: m.idCategorie }).select("id", "archive");
    const all = await api("GET", `/api/v1/categorie_materiels/${m.idCategorie}/reference_materiels`, { token });
    expect(all.status).toBe(200);
    expect((all.body as Row[]).map((r) => r.id).sort((a, b) => a - b)).toEqual(refs.map((r) => Number(r.id)).sort((a, b) => a - b));
    const live = await api("GET", `/api/v1/categorie_materiels/${m.idCategorie}/reference_materiels?archive=false&numeroClasse=${m.idClasse}`, { token });
    expect((live.body as Row[]).map((r) => r.id).sort((a, b) => a - b)).toEqual(
      refs
        .filter((r) => !r.archive)
        .map((r) => Number(r.id))
        .sort((a, b) => a - b),
    );
    expect((live.body as { archive: boolean }[]).every((r) => !r.archive)).toBe(true);
    const otherClass = await api("GET", `/api/v1/categorie_materiels/${m.idCategorie}/reference_materiels?numeroClasse=${m.idClasse + 1000}`, { token });
    expect(otherClass.body).toEqual([]);
    expect((await api("GET", `/api/v1/categorie_materiels/${m.idCategorie}/reference_materiels?archive=peut-etre`, { token })).status).toBe(400);
    expect((await api("GET", "/api/v1/categorie_materiels/999999/reference_materiels", { token })).status).toBe(404);

    const one = await api("GET", `/api/v1/reference_materiels/${m.idReference}`, { token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id: m.idReference,
      idBasemeq: m.idReference,
      identifiant: expect.any(String),
      idCategorieMateriel: m.idCategorie,
      vieUsure: expect.toSatisfy((v: unknown) => v === null || typeof v === "number"),
      anneeprix: expect.toSatisfy((v: unknown) => v === null || typeof v === "number"),
    });
    const missing = await api("GET", "/api/v1/reference_materiels/999999", { token });
    expect(missing.status).toBe(404);
    problem(missing);
    expect((await api("GET", `/api/v1/reference_materiels/${m.idReference}`, { token: null })).status).toBe(401);
  });

  test("[B-OPS-22] GET calculs/indicateurs/conso_carburant answers { consoCarburant } from the operation screen's reference", async () => {
    const lecteur = t.demo().users.lecteur;
    const user = await t.db()("utilisateur").where({ id: lecteur }).first();
    const token = await tokenOf("lecteur");
    const ask = (q: string) => api("GET", `/api/v1/calculs/indicateurs/conso_carburant?${q}`, { token });
    const direct = await getConsoCarburantReference(scopeOf(t.db(), user), { idTypeAction: 1, puissance: 150, profondeurTravail: 25, debit: 1.2 });
    expect(direct.consoCarburant).not.toBeNull();
    const full = await ask("id_type_action=1&debit=1.2&puissance=150&profondeur_travail=25");
    expect(full.status).toBe(200);
    expect(full.body).toEqual(direct);
    const deeper = await ask("id_type_action=1&debit=1.2&puissance=150&profondeur_travail=30");
    expect((deeper.body as { consoCarburant: number }).consoCarburant).toBeGreaterThan(direct.consoCarburant!);
    expect((await ask("id_type_action=1&debit=1.2&profondeur_travail=25")).body).toEqual({ consoCarburant: null });
    expect((await ask("debit=1.2&puissance=150&profondeur_travail=25")).body).toEqual({ consoCarburant: null });
    const bad = await ask("id_type_action=1&debit=beaucoup&puissance=150&profondeur_travail=25");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ fieldErrors: { debit: expect.any(Array) } });
    expect((await ask("id_type_action=1&inconnu=2")).status).toBe(400);
    expect((await api("GET", "/api/v1/calculs/indicateurs/conso_carburant?id_type_action=1", { token: null })).status).toBe(401);
  });
});

describe(`campaign characteristics and plot dates over the API (${dialect})`, () => {
  test("[B-ECO-02][B-ECO-03][B-ECO-04][B-ECO-05] GET campagnes/{id}/caracteristique, PATCH caracteristiques/{id} with remarqueAnnuelle (stale: 409); the admin-only fields for administrators only", async () => {
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const token = await tokenOf("redacteur");
    const read = await api("GET", `/api/v1/campagnes/${idCampagne}/caracteristique`, { token });
    expect(read.status).toBe(200);
    const row = read.body as Row;
    expect(row).toMatchObject({
      id: expect.any(Number),
      idCampagne,
      campagne: `/api/v1/campagnes/${idCampagne}`,
      anneeprix: 2025,
      defaults: expect.any(Object),
    });
    expect(row).not.toHaveProperty("longTermeTaux");
    const storedBefore = await t.db()("caracteristique").where({ idCampagne }).first("longTermeTaux");

    const body = { cotisationMsa: 4200, fermageMoyen: "150,5", remarqueAnnuelle: "Année sèche\nrendements bas", prixFioul: 1.05 };
    // A non-administrator's admin-only values are ignored, as on the screen.
    const saved = await api("PATCH", `/api/v1/caracteristiques/${row.id}`, { token, body: { ...body, longTermeTaux: 9, updatedAt: row.updatedAt } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ id: row.id, cotisationMsa: 4200, fermageMoyen: 150.5, remarqueAnnuelle: "Année sèche\nrendements bas" });
    const stored = await t.db()("caracteristique").where({ id: row.id }).first("remarqueAnnuelle", "fermageMoyen", "longTermeTaux");
    expect(stored.remarqueAnnuelle).toBe("Année sèche\nrendements bas");
    expect(Number(stored.fermageMoyen)).toBe(150.5);
    expect(stored.longTermeTaux).toEqual(storedBefore.longTermeTaux);

    const stale = await api("PATCH", `/api/v1/caracteristiques/${row.id}`, { token, body: { ...body, remarqueAnnuelle: "Écrasée", updatedAt: row.updatedAt } });
    expect(stale.status).toBe(409);
    problem(stale);
    expect((await t.db()("caracteristique").where({ id: row.id }).first("remarqueAnnuelle")).remarqueAnnuelle).toBe("Année sèche\nrendements bas");

    // An administrator sees and must send the admin-only fields.
    const admin = await tokenOf("admin");
    const asAdmin = (await api("GET", `/api/v1/campagnes/${idCampagne}/caracteristique`, { token: admin })).body as Row;
    expect(asAdmin).toHaveProperty("longTermeTaux");
    const missing = await api("PATCH", `/api/v1/caracteristiques/${row.id}`, { token: admin, body: { ...body, updatedAt: asAdmin.updatedAt } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ fieldErrors: { longTermeTaux: expect.any(Array), remunerationCapitauxPropreIvan: expect.any(Array) } });
    const adminBody = {
      ...body,
      longTermeTaux: 3.5,
      longTermeDuree: 10,
      longTermeIvan: 50,
      courtTermeTaux: 4,
      courtTermeDuree: 1,
      remunerationCapitauxPropreTaux: 2,
      remunerationCapitauxPropreIvan: 40,
    };
    const byAdmin = await api("PATCH", `/api/v1/caracteristiques/${row.id}`, { token: admin, body: { ...adminBody, updatedAt: asAdmin.updatedAt } });
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    expect(byAdmin.body).toMatchObject({ longTermeTaux: 3.5, longTermeDuree: 10 });
    expect(Number((await t.db()("caracteristique").where({ id: row.id }).first("longTermeTaux")).longTermeTaux)).toBe(3.5);
    expect((await api("PATCH", "/api/v1/caracteristiques/999999", { token, body: { ...body, updatedAt: row.updatedAt } })).status).toBe(404);
  });

  test("[B-ECO-03] POST caracteristiques creates a campaign's row once (again: 409); characteristics writes refused: reader, read-only, other farm, locked, anonymous, bad input; nothing written", async () => {
    const { campagnes } = t.demo();
    const db = t.db();
    // A campaign without characteristics yet: the simulation's row is removed for the test.
    await db("caracteristique").where({ idCampagne: campagnes.tilleuls2025Simulation }).delete();
    const token = await tokenOf("redacteur");
    const empty = await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025Simulation}/caracteristique`, { token });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ id: null, updatedAt: null, cotisationMsa: null, remarqueAnnuelle: null });

    const before = await snapshot(db, "caracteristique");
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    const body = { cotisationMsa: 100, remarqueAnnuelle: "Première" };
    const cases: [string | null, number, Record<string, unknown>, number][] = [
      ["lecteur", campagnes.tilleuls2025Simulation, body, 403],
      ["lecteur", campagnes.vallee2025, body, 403],
      ["redacteur", campagnes.tilleuls2024, body, 403],
      [null, campagnes.tilleuls2025Simulation, body, 401],
      ["redacteur", campagnes.tilleuls2025Simulation, { cotisationMsa: "beaucoup", prixFioul: -1 }, 400],
      ["redacteur", campagnes.tilleuls2025Simulation, { ...body, champInconnu: 1 }, 400],
      ["redacteur", campagnes.tilleuls2025, body, 409],
      ["redacteur", 999999, body, 404],
    ];
    for (const [username, idCampagne, b, status] of cases) {
      const answer = await api("POST", "/api/v1/caracteristiques", { token: username ? await tokenOf(username) : null, body: { idCampagne, ...b } });
      expect(answer.status, `${username} ${idCampagne} ${JSON.stringify(answer.body)}`).toBe(status);
      problem(answer);
    }
    const bad = await api("POST", "/api/v1/caracteristiques", {
      token,
      body: { idCampagne: campagnes.tilleuls2025Simulation, cotisationMsa: "beaucoup", prixFioul: -1 },
    });
    expect(Object.keys((bad.body as { fieldErrors: object }).fieldErrors).sort()).toEqual(["cotisationMsa", "prixFioul"]);
    expect((await api("POST", "/api/v1/caracteristiques", { token: readOnly, body: { idCampagne: campagnes.tilleuls2025Simulation, ...body } })).status).toBe(
      403,
    );
    expect((await api("POST", "/api/v1/caracteristiques", { token, raw: "{cotisationMsa" })).status).toBe(400);

    const existing = (await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2025}/caracteristique`, { token: await tokenOf("lecteur") })).body as Row;
    expect(
      (await api("PATCH", `/api/v1/caracteristiques/${existing.id}`, { token: await tokenOf("lecteur"), body: { ...body, updatedAt: existing.updatedAt } }))
        .status,
    ).toBe(403);
    expect((await api("PATCH", `/api/v1/caracteristiques/${existing.id}`, { token: readOnly, body: { ...body, updatedAt: existing.updatedAt } })).status).toBe(
      403,
    );
    expect(
      (await api("PATCH", `/api/v1/caracteristiques/${existing.id}`, { token, body: { ...body, champInconnu: 2, updatedAt: existing.updatedAt } })).status,
    ).toBe(400);
    expect(
      (
        await api("PATCH", `/api/v1/caracteristiques/${existing.id}`, {
          token,
          body: { ...body, remarqueAnnuelle: "x".repeat(10_001), updatedAt: existing.updatedAt },
        })
      ).status,
    ).toBe(400);
    expect((await api("PATCH", `/api/v1/caracteristiques/${existing.id}`, { token, raw: "{" })).status).toBe(400);
    const locked = await db("caracteristique").where({ idCampagne: campagnes.tilleuls2024 }).first("id", "updatedAt");
    const lockedRead = (await api("GET", `/api/v1/campagnes/${campagnes.tilleuls2024}/caracteristique`, { token })).body as Row;
    expect((await api("PATCH", `/api/v1/caracteristiques/${locked.id}`, { token, body: { ...body, updatedAt: lockedRead.updatedAt } })).status).toBe(403);
    const foreign = await db("caracteristique").where({ idCampagne: campagnes.vallee2025 }).first("id");
    expect(
      (await api("PATCH", `/api/v1/caracteristiques/${foreign.id}`, { token: await tokenOf("lecteur"), body: { ...body, updatedAt: existing.updatedAt } }))
        .status,
    ).toBe(403);
    expect((await api("GET", `/api/v1/campagnes/${campagnes.vallee2025}/caracteristique`, { token: await tokenOf("lecteur") })).status).toBe(403);
    expect((await api("GET", "/api/v1/campagnes/999999/caracteristique", { token })).status).toBe(404);
    expect(await snapshot(db, "caracteristique")).toEqual(before);

    const made = await api("POST", "/api/v1/caracteristiques", { token, body: { idCampagne: campagnes.tilleuls2025Simulation, ...body } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      id: expect.any(Number),
      idCampagne: campagnes.tilleuls2025Simulation,
      cotisationMsa: 100,
      remarqueAnnuelle: "Première",
      anneeprix: 2025,
    });
    const again = await api("POST", "/api/v1/caracteristiques", { token, body: { idCampagne: campagnes.tilleuls2025Simulation, ...body } });
    expect(again.status).toBe(409);
    expect(await db("caracteristique").where({ idCampagne: campagnes.tilleuls2025Simulation }).pluck("id")).toHaveLength(1);
  });

  test("[B-PLOT-08] PATCH parcelles/{id}/maj_dates_actions moves one plot's interventions of a harvest year; refused for a reader, a read-only token, a locked campaign, bad input", async () => {
    const { campagnes } = t.demo();
    const db = t.db();
    const plot = await db("action")
      .join("parcelle", "parcelle.id", "action.idParcelle")
      .where("parcelle.idCampagne", campagnes.moulin2025)
      .first("parcelle.id as id", "action.anneeRecolte as annee");
    expect(plot).toBeDefined();
    const idParcelle = Number(plot.id);
    const annee = Number(plot.annee);
    const count = await db("action").where({ idParcelle, anneeRecolte: annee }).pluck("id");
    const before = await snapshot(db, "action", "parcelle");
    const token = await tokenOf("redacteur");
    const body = { anneeInitiale: annee, anneeFinale: annee + 1 };
    const lockedPlot = await db("parcelle").where({ idCampagne: campagnes.tilleuls2024 }).first("id");
    const refusals: [string | null, number, Record<string, unknown>, number][] = [
      ["lecteur", idParcelle, body, 403],
      [null, idParcelle, body, 401],
      ["redacteur", Number(lockedPlot.id), body, 403],
      ["redacteur", idParcelle, { anneeInitiale: "deux mille", anneeFinale: annee }, 400],
      ["redacteur", idParcelle, { ...body, ids: [idParcelle] }, 400],
      ["redacteur", 999999, body, 404],
    ];
    for (const [username, id, b, status] of refusals) {
      const answer = await api("PATCH", `/api/v1/parcelles/${id}/maj_dates_actions`, { token: username ? await tokenOf(username) : null, body: b });
      expect(answer.status, `${username} ${id} ${JSON.stringify(answer.body)}`).toBe(status);
      problem(answer);
    }
    const ro = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    expect((await api("PATCH", `/api/v1/parcelles/${idParcelle}/maj_dates_actions`, { token: ro, body })).status).toBe(403);
    expect(await snapshot(db, "action", "parcelle")).toEqual(before);

    const ok = await api("PATCH", `/api/v1/parcelles/${idParcelle}/maj_dates_actions`, { token, body });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({ moved: count.length });
    const moved = await db("action").whereIn("id", count).select("anneeRecolte");
    expect(moved.map((a) => Number(a.anneeRecolte))).toEqual(count.map(() => annee + 1));
    expect(Number((await db("parcelle").where({ id: idParcelle }).first("anneeDerniereAction")).anneeDerniereAction)).toBe(annee + 1);
  });
});

afterAll(() => expectContract([...APPELS_CARACTERISTIQUES, ...APPELS_MATERIEL], answered));
