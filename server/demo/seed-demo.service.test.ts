import { describe, expect, test } from "vitest";
import { coordonneesSchema } from "~/domain/coordonnees";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { selectTilleuls, scopeOf } from "../../tests/helpers/service";
import { getOperationsCulturales } from "../operation-culturale/service";

const t = useTestDb();

const count = async (table: string, where: Record<string, unknown>) =>
  Number((await t.db()(table).where(where).count<{ n: number }[]>({ n: "*" }).first())?.n ?? 0);

describe(`demo data (${dialect})`, () => {
  test("every demo farm has its coordinates (valid for the coordinates form), description and soil", async () => {
    const { exploitations } = t.demo();
    for (const id of Object.values(exploitations)) {
      const farm = await t.db()("exploitation").where({ id }).first();
      for (const column of [
        "raisonSociale",
        "siret",
        "nom",
        "prenom",
        "adresse",
        "idPays",
        "libelleDepartement",
        "ville",
        "codeInsee",
        "codePostal",
        "email",
        "portable",
        "telephone",
        "bassin",
        "petiteRegionAgricole",
        "idOtex",
        "idTypeAgriculture",
        "strategie",
        "remarque",
        "idTypeSolArvalis",
        "idAeeTypeSol",
        "profondeurSolCm",
        "reserveUtileMm",
        "idTypeSousSol",
        "idAciditeSol",
        "idProfondeurSol",
      ]) {
        expect(farm[column], `${farm.libelle}: ${column}`).not.toBeNull();
      }
      const parsed = coordonneesSchema({ communeRequired: true }).safeParse({ ...farm, idPays: String(farm.idPays) });
      expect(parsed.error?.issues ?? []).toEqual([]);
      const commune = await t.db()("commune").where({ ci: farm.codeInsee }).first();
      expect(commune.lbl).toBe(farm.ville);
      expect(await t.db()("reference_region").where({ niveau: "bassin", code: farm.bassin }).first()).toBeTruthy();
    }
  });

  test("every demo campaign, the simulation included, has its characteristics, labour, machinery and operations linking machines and labour", async () => {
    for (const [name, idCampagne] of Object.entries(t.demo().campagnes)) {
      const carac = await t.db()("caracteristique").where({ idCampagne }).first();
      expect(carac, name).toBeTruthy();
      // The labour costs are the labour items' amounts.
      const labour = await t.db()("main_oeuvre").where({ idCampagne });
      const amount = (type: number) => labour.filter((w) => Number(w.idTypeUser) === type).reduce((s, w) => s + Number(w.montant ?? 0), 0);
      expect(Number(carac.chargesMainOeuvreFamiliale)).toBe(amount(953));
      expect(Number(carac.chargesMainOeuvreSalarialePermanente)).toBe(amount(951));
      expect(Number(carac.prixFioul)).toBeGreaterThan(0);
      expect(Number(carac.fermageMoyen)).toBeGreaterThan(0);
      expect(await count("main_oeuvre", { idCampagne })).toBeGreaterThanOrEqual(3);
      expect(await count("parc_materiel", { idCampagne })).toBeGreaterThanOrEqual(10);
      const operations = await t.db()("operation_culturale").where({ idCampagne });
      expect(operations.length).toBeGreaterThanOrEqual(8);
      for (const o of operations) {
        // A work rate and a fuel use are there, calculated or actual (the form requires one of each).
        expect(o.debitCalcule ?? o.debitReel, `${name}: ${o.libelle}`).not.toBeNull();
        expect(o.consoCarburantCalculee ?? o.consoCarburantReelle, `${name}: ${o.libelle}`).not.toBeNull();
        if (!o.eta) expect(await count("operation_culturale_main_oeuvre", { idOperationCulturale: o.id }), o.libelle).toBeGreaterThan(0);
      }
      // Spraying operations carry their spray volume (decision 0008).
      const spraying = operations.filter((o) => Number(o.idTypeAction) === 11);
      expect(spraying.length).toBeGreaterThan(0);
      for (const o of spraying) expect(Number(o.volumeBouillie)).toBeGreaterThan(0);
    }
  });

  test("the operations screen of EARL des Tilleuls 2025 lists the demo operations with their costs", async () => {
    const u = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const screen = await getOperationsCulturales(scopeOf(t.db(), u));
    expect(screen.rows.length).toBeGreaterThanOrEqual(8);
    const labour = screen.rows.find((r) => r.libelle === "Labour avant betterave")!;
    expect(labour.materielTractes.length).toBe(1);
    expect(labour.calcul.chargesMecaTotales).toBeGreaterThan(0);
    expect(labour.calcul.consoCarburant).toBeGreaterThan(0);
  });

  test("every demo plot has a season of interventions linked to the campaign's operations, dated in the season, with passes = frequence × taux_surface", async () => {
    const db = t.db();
    for (const [name, idCampagne] of Object.entries(t.demo().campagnes)) {
      const campagne = await db("campagne").where({ id: idCampagne }).first();
      const plots = await db("parcelle").where({ idCampagne });
      expect(plots.length, name).toBeGreaterThan(0);
      for (const p of plots) {
        const actions = await db("action").where({ idParcelle: p.id });
        expect(actions.length, `${name}: ${p.libelle}`).toBeGreaterThanOrEqual(5);
        for (const a of actions) {
          const op = await db("operation_culturale").where({ id: a.idOperationCulturale }).first();
          expect(op?.idCampagne, `${name}: ${p.libelle}`).toBe(idCampagne);
          expect(Number(a.dicIdTypeAction)).toBe(Number(op.idTypeAction));
          expect(Number(a.nombrePassage)).toBeCloseTo(Number(a.frequence) * Number(a.tauxSurface), 3);
          const date = String(a.date instanceof Date ? a.date.toISOString() : a.date).slice(0, 10);
          expect(date >= `${campagne.anneeRecolte - 1}-07-01` && date <= `${campagne.anneeRecolte}-12-31`, `${name}: ${date}`).toBe(true);
        }
        if (p.irrigable)
          expect(
            actions.some((a) => Number(a.dicIdTypeAction) === 14),
            `${name}: ${p.libelle} irrigated`,
          ).toBe(true);
        else expect(actions.some((a) => Number(a.dicIdTypeAction) === 14)).toBe(false);
      }
      // The simulation is planned; the real campaigns are done.
      const flags = await db("action").where({ idCampagne }).distinct("realisee");
      expect(flags.map((f) => f.realisee === true || f.realisee === 1)).toEqual([!campagne.simulation]);
    }
  });

  test("inputs of the five kinds: seed shares total 100, fertilisers carry their composition, water is input 20011 in mm, phyto products their AMM", async () => {
    const db = t.db();
    const byType: { idTypeIntrant: number }[] = await db("intrant as i").join("categorie_intrant as c", "c.id", "i.idCategorie").distinct("c.idTypeIntrant");
    expect(byType.map((r) => Number(r.idTypeIntrant)).sort()).toEqual([538, 539, 540, 542, 543]);
    for (const s of await db("intrant as i")
      .join("caracteristique_intrant as ci", "ci.idIntrant", "i.id")
      .where("i.idCategorie", 5381)
      .select("ci.semenceFerme", "ci.semenceCertifiee")) {
      expect(Number(s.semenceFerme) + Number(s.semenceCertifiee)).toBe(100);
    }
    const water = await db("intrant").where({ idCategorie: 5421 });
    expect(water.length).toBeGreaterThan(0);
    for (const w of water) expect(w).toMatchObject({ idIntrant: 20011, dicIdOrigineIntrant: 776, dicLlUnite: "mm" });
    // Phyto products are catalogue rows, found by their AMM number.
    for (const p of await db("intrant as i")
      .join("categorie_intrant as c", "c.id", "i.idCategorie")
      .where("c.idTypeIntrant", 539)
      .select("i.codeIntrant", "i.idIntrant", "i.libelleIntrant")) {
      expect(p.codeIntrant).toMatch(/^\d{7}$/);
      expect(await db("intrant_phyto").where({ id: p.idIntrant }).first("ammProduit", "nomProduit"), p.libelleIntrant).toEqual({
        ammProduit: p.codeIntrant,
        nomProduit: p.libelleIntrant,
      });
    }
    // Reference fertilisers (origin 776) and listed varieties point to their catalogue rows.
    for (const f of await db("intrant").where({ dicIdOrigineIntrant: 776 }).whereIn("idCategorie", [655, 656, 657, 658]).whereNotNull("idIntrant")) {
      expect((await db("reference_fertilisant").where({ id: f.idIntrant }).first()).libelle).toBe(f.libelleIntrant);
    }
    const varieties = await db("intrant as i")
      .join("reference_semence as r", "r.id", "i.idIntrant")
      .where("i.idCategorie", 5381)
      .select("i.libelleIntrant", "r.libelle", "r.idCulture as refCulture", "i.idCulture");
    expect(varieties.length).toBeGreaterThan(0);
    for (const v of varieties) {
      expect(v.libelleIntrant.endsWith(` – ${v.libelle}`)).toBe(true);
      expect(Number(v.idCulture)).toBe(Number(v.refCulture));
    }
    const fertilisers = await db("intrant as i")
      .join("categorie_intrant as c", "c.id", "i.idCategorie")
      .leftJoin("caracteristique_intrant as ci", "ci.idIntrant", "i.id")
      .where("c.idTypeIntrant", 540)
      .select("i.libelleIntrant", "i.dicIdOrigineIntrant", "i.idIntrant", "i.idDossier", "ci.id as idCarac");
    for (const f of fertilisers) expect(f.idCarac, f.libelleIntrant).not.toBeNull();
    // Fertilisers the folder declares are linked to its row (origin 777).
    const folder = fertilisers.filter((f) => Number(f.dicIdOrigineIntrant) === 777);
    expect(folder.length).toBeGreaterThan(0);
    for (const f of folder) expect((await db("intrant_dossier").where({ id: f.idIntrant }).first()).libelle).toBe(f.libelleIntrant);
    for (const o of await db("intrant").whereIn("idCategorie", [5431, 5432, 5433, 5434])) expect(o.dicLlUnite).toBe("autre");
  });
});
