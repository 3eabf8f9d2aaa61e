import { afterAll, describe, expect, test } from "vitest";
import { dialect, useTestDb } from "../helpers/test-db";
import { apiClient, expectContract } from "../helpers/api-client";
import { APPELS_REFERENTIELS } from "../../server/api/appels-referentiels";

const t = useTestDb();
const { api, tokenOf, answered } = apiClient(t);

type Row = { id: number; libelle?: string; libelleEn?: string | null; [k: string]: unknown };

/** The ids of a reference table, sorted, as the database holds them. */
const idsOf = async (table: string, where: Record<string, unknown> = {}) => (await t.db()(table).where(where).pluck("id")).map(Number).sort((a, b) => a - b);
const sorted = (rows: Row[]) => rows.map((r) => r.id).sort((a, b) => a - b);

async function liste(nom: string, token: string, query = "") {
  const r = await api("GET", `/api/v1/references/${nom}${query}`, { token });
  expect(r.status, `${nom}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body as Row[];
}

/** Each list by name and the table it is read from (docs/data-model.md §11, decision 0120). */
const SPEC1: Record<string, string> = { donneesExportables: "donnee_exportable", typeExploitations: "type_exploitation", typeObservations: "type_observation" };
const SPEC2: Record<string, string> = {
  cultures: "culture",
  typeObservations: "type_observation",
  stadesCultures: "stade_culture",
  organeEtudies: "organe_etudie",
  pays: "pays",
  otexes: "otex",
  typeAgricultures: "type_agriculture",
  typeSolAees: "type_sol_aee",
  typeSousSols: "type_sous_sol",
  aciditeSols: "acidite_sol",
  referenceRegions: "reference_region",
  referenceSols: "type_sol_arvalis",
  referenceCategorieMateriels: "categorie_materiel",
  classeMateriels: "classe_materiel",
  referenceValeurs: "reference_valeur",
  typeMainOeuvres: "type_main_oeuvre",
  typeOccupationSols: "categorie_culture",
  typeOperations: "type_action",
  profondeurTravails: "profondeur_travail",
  referenceResidusCultureInter: "residus_culture_inter",
  gestionResidus: "gestion_residus",
  typeItineraire: "type_itineraire",
  tauxLegumineuse: "taux_legumineuse",
  specificitePrairie: "specificite_prairie",
  typeAmenagements: "type_amenagement",
};
const SPEC3: Record<string, [string, Record<string, unknown>?]> = {
  typeAutreIntrant: ["categorie_intrant", { idTypeIntrant: 543 }],
  cultures: ["culture"],
  dicoCultures: ["culture"],
  referenceAnimals: ["reference_animal"],
  typeSorties: ["type_sortie"],
  typeFertilisants: ["categorie_intrant", { idTypeIntrant: 540 }],
  typePhytos: ["categorie_intrant", { idTypeIntrant: 539 }],
  typeEau: ["categorie_intrant", { idTypeIntrant: 542 }],
  typeIntrant: ["type_intrant"],
  indicateurs: ["indicateur"],
  chapitreProtocoles: ["chapitre_protocole"],
  typeRdds: ["type_rdd"],
  typeOperations: ["type_action"],
  categorieEgesV2: ["categorie_eges"],
  efficaciteDesherbages: ["efficacite_desherbage"],
  adventices: ["adventice"],
};
/** The referential lists and their tables (537 the input types, 538–543 the categories of each type). */
const REFERENTIELS: Record<string, [string, Record<string, unknown>?]> = {
  "537": ["type_intrant"],
  "538": ["categorie_intrant", { idTypeIntrant: 538 }],
  "539": ["categorie_intrant", { idTypeIntrant: 539 }],
  "540": ["categorie_intrant", { idTypeIntrant: 540 }],
  "541": ["categorie_intrant", { idTypeIntrant: 541 }],
  "542": ["categorie_intrant", { idTypeIntrant: 542 }],
  "543": ["categorie_intrant", { idTypeIntrant: 543 }],
  "818": ["type_sortie"],
  "820": ["categorie_culture"],
  "848": ["type_caracteristique_recolte"],
  "1236": ["type_rdd"],
  "1688": ["efficacite_desherbage"],
  "2243": ["categorie_competilis"],
  "2244": ["chapitre_protocole"],
  "4305": ["categorie_eges"],
  "5878": ["reference_animal"],
  "9167": ["type_itineraire"],
  "9288": ["gestion_residus"],
};

describe(`reference lists over the API (${dialect})`, () => {
  test("[A-API-35] donneesExportables, typeExploitations and typeObservations (id, libelle) by name, with a reader token; English labels with locale=en", async () => {
    const token = await tokenOf("lecteur");
    for (const [nom, table] of Object.entries(SPEC1)) expect(sorted(await liste(nom, token)), nom).toEqual(await idsOf(table));
    const types = await liste("typeObservations", token);
    const harvest = types.find((x) => x.id === 1128)!;
    const stored = await t.db()("type_observation").where({ id: 1128 }).first("libelle", "libelleEn");
    expect(harvest).toMatchObject({ id: 1128, libelle: stored.libelle });
    for (const x of types) expect(x).toMatchObject({ id: expect.any(Number), libelle: expect.any(String) });
    const en = await liste("typeObservations", token, "?locale=en");
    expect(en.find((x) => x.id === 1128)!.libelle).toBe(stored.libelleEn ?? stored.libelle);
    const exportables = await liste("donneesExportables", token);
    expect(exportables[0]).toMatchObject({ id: expect.any(Number), code: expect.any(String), libelle: expect.any(String) });
    // A read-only personal token reads them too; no token: 401.
    const readOnly = await tokenOf("redacteur", { nature: "personnel", acces: "lecture" });
    expect((await api("GET", "/api/v1/references/typeExploitations", { token: readOnly })).status).toBe(200);
    expect((await api("GET", "/api/v1/references/typeExploitations", { token: null })).status).toBe(401);
  });

  test("[B-API-23] the description screens' lists by name, each with its table's rows and fields; communes by department", async () => {
    const token = await tokenOf("lecteur");
    for (const [nom, table] of Object.entries(SPEC2)) expect(sorted(await liste(nom, token)), nom).toEqual(await idsOf(table));
    // One list of each family with its fields.
    const sols = await liste("typeSolAees", token);
    const sol = await t.db()("type_sol_aee").orderBy("id").first("id", "code", "libelle");
    expect(sols.find((s) => s.id === sol.id)).toMatchObject({ id: sol.id, code: sol.code, libelle: sol.libelle });
    expect(sols[0]).not.toHaveProperty("createdAt");
    const valeurs = await liste("referenceValeurs", token);
    const valeur = await t.db()("reference_valeur").whereNotNull("valeur").orderBy("id").first("id", "code", "valeur");
    expect(valeurs.find((v) => v.id === valeur.id)).toMatchObject({ code: valeur.code, valeur: Number(valeur.valeur) });
    const categories = await liste("referenceCategorieMateriels", token);
    expect(categories[0]).toMatchObject({ idClasseMateriel: expect.any(Number), libelle: expect.any(String) });
    const regions = await liste("referenceRegions", token);
    expect(new Set(regions.map((r) => r.niveau)).size).toBeGreaterThan(1);
    expect((await liste("typeAmenagements", token))[0]).toMatchObject({ iaeNom: expect.any(String) });
    expect((await liste("typeOperations", token)).find((o) => o.id === 1)).toMatchObject({ profondeurTravail: expect.any(Boolean) });
    const france = (await liste("pays", token)).find((p) => p.id === 26)!;
    expect(france.libelle).toBe((await t.db()("pays").where({ id: 26 }).first("libelle")).libelle);

    const communes = await liste("communes", token, "?departement=01");
    expect(communes.map((c) => c.ci).sort()).toEqual((await t.db()("commune").where({ numDept: "01" }).pluck("ci")).sort());
    expect(communes.find((c) => c.ci === "01001")).toMatchObject({ lbl: "L'Abergement-Clémenciat", cp: "01400" });
    const all = await api("GET", "/api/v1/references/communes", { token });
    expect(all.status).toBe(400);
    expect(all.body).toMatchObject({ fieldErrors: { departement: expect.any(Array) } });
  });

  test("[C-CONST-11] the field-work lists by name: input categories per type, crops with qualifiers and outputs, weeds with stades and densites, indicators, dicos", async () => {
    const token = await tokenOf("redacteur");
    for (const [nom, [table, where]] of Object.entries(SPEC3)) expect(sorted(await liste(nom, token)), nom).toEqual(await idsOf(table, where));
    const phytos = await liste("typePhytos", token);
    expect(phytos.find((c) => c.code === "HERBICIDE")).toMatchObject({ idTypeIntrant: 539, libelle: "Herbicide" });
    const dicoCultures = (await liste("dicoCultures", token)) as (Row & { qualifiants: Row[]; typesSorties: number[] })[];
    const withOutputs = dicoCultures.find((c) => c.typesSorties.length > 0)!;
    expect(withOutputs.typesSorties.sort((a, b) => a - b)).toEqual(
      (await t.db()("culture_type_sortie").where({ idCulture: withOutputs.id }).select("idTypeSortie"))
        .map((r) => Number(r.idTypeSortie))
        .sort((a, b) => a - b),
    );
    expect(dicoCultures.flatMap((c) => c.qualifiants).length).toBe(
      await t
        .db()("qualifiant_culture")
        .count({ n: "*" })
        .first()
        .then((r) => Number(r!.n)),
    );
    const adventices = (await liste("adventices", token)) as (Row & { stades: Row[]; densites: Row[] })[];
    expect(adventices.flatMap((a) => a.stades).length).toBe(Number((await t.db()("adventice_stade").count({ n: "*" }).first())!.n));
    expect(adventices.flatMap((a) => a.densites).length).toBe(Number((await t.db()("adventice_densite").count({ n: "*" }).first())!.n));
    expect((await liste("indicateurs", token))[0]).toMatchObject({ indNom: expect.any(String), idGroupeIndicateur: expect.any(Number) });
    expect((await liste("typeSorties", token)).find((s) => s.id === 671)).toMatchObject({ unite: expect.anything() });
    // dicos: every entry of the referential lists, named by its list.
    const dicos = await liste("dicos", token);
    expect(dicos.filter((d) => d.referentiel === "537").map((d) => d.id)).toEqual((await liste("typeIntrant", token)).map((d) => d.id));
    expect(new Set(dicos.map((d) => d.referentiel))).toContain("51-ABA");
    // The index of the names, and a name not served: 404 with the problem body.
    const noms = (await api("GET", "/api/v1/references", { token })).body as string[];
    for (const nom of [...Object.keys(SPEC1), ...Object.keys(SPEC2), ...Object.keys(SPEC3), "communes", "dicos"]) expect(noms).toContain(nom);
    const unknown = await api("GET", "/api/v1/references/typeInconnus", { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 404, key: "errors.not-found" });
    expect(unknown.headers.get("content-type")).toContain("application/problem+json");
    expect((await api("GET", "/api/v1/references/constructor", { token })).status).toBe(404);
  });

  test("[C-CONST-12] referentiels/{n}/dicos for n among 537 to 543, 818, 820, 848, 1236, 1688, 2243, 2244, 4305, 5878, 9167, 9288; another n: 404", async () => {
    const token = await tokenOf("lecteur");
    for (const [n, [table, where]] of Object.entries(REFERENTIELS)) {
      const r = await api("GET", `/api/v1/referentiels/${n}/dicos`, { token });
      expect(r.status, n).toBe(200);
      expect(sorted(r.body as Row[]), n).toEqual(await idsOf(table, where));
    }
    const types = (await api("GET", "/api/v1/referentiels/537/dicos", { token })).body as Row[];
    expect(types.map((d) => d.id)).toEqual([538, 539, 540, 542, 543]);
    expect(types[0]).toMatchObject({ id: 538, code: "SEMENCE", libelle: "Semence", libelleEn: expect.anything() });
    const en = (await api("GET", "/api/v1/referentiels/537/dicos?locale=en", { token })).body as Row[];
    expect(en[0].libelle).toBe(types[0].libelleEn ?? types[0].libelle);
    expect(((await api("GET", "/api/v1/referentiels/2244/dicos", { token })).body as Row[]).map((d) => d.id)).toEqual([2245, 2246, 2247, 2248, 2249]);
    const index = (await api("GET", "/api/v1/referentiels", { token })).body as { code: string }[];
    expect(index.map((r) => r.code)).toEqual([...Object.keys(REFERENTIELS), "51-ABA"]);
    for (const n of ["536", "544", "9297", "abc", "51-ABB"]) {
      const r = await api("GET", `/api/v1/referentiels/${n}/dicos`, { token });
      expect(r.status, n).toBe(404);
      expect(r.body).toMatchObject({ status: 404, key: "errors.not-found" });
    }
    expect((await api("GET", "/api/v1/referentiels/537/dicos", { token: null })).status).toBe(401);
  });

  test("[C-CONST-13] the entry 9297 is left out of the referential lists (its neighbour 9296 is served)", async () => {
    const token = await tokenOf("lecteur");
    const db = t.db();
    await db("categorie_intrant").insert([
      { id: 9296, idTypeIntrant: 543, code: "TEST_9296", libelle: "Entrée 9296", ordre: 90 },
      { id: 9297, idTypeIntrant: 543, code: "TEST_9297", libelle: "Entrée 9297", ordre: 91 },
    ]);
    try {
      const ids = ((await api("GET", "/api/v1/referentiels/543/dicos", { token })).body as Row[]).map((d) => d.id);
      expect(ids).toContain(9296);
      expect(ids).not.toContain(9297);
      const dicos = await liste("dicos", token);
      expect(dicos.map((d) => d.id)).toContain(9296);
      expect(dicos.map((d) => d.id)).not.toContain(9297);
    } finally {
      await db("categorie_intrant").whereIn("id", [9296, 9297]).delete();
    }
  });

  test("[C-CONST-14] the referential list 51-ABA is served (the inter-crop residue list)", async () => {
    const token = await tokenOf("lecteur");
    const r = await api("GET", "/api/v1/referentiels/51-ABA/dicos", { token });
    expect(r.status).toBe(200);
    const rows = r.body as Row[];
    expect(sorted(rows)).toEqual(await idsOf("residus_culture_inter"));
    const first = await t.db()("residus_culture_inter").orderBy("ordre").first("id", "code", "libelle");
    expect(rows[0]).toMatchObject({ id: first.id, code: first.code, libelle: first.libelle });
    expect((await api("GET", "/api/v1/referentiels/51-aba/dicos", { token })).status).toBe(404);
  });
});

afterAll(() => expectContract(APPELS_REFERENTIELS, answered));
