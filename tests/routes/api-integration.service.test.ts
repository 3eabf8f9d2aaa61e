import { afterEach, describe, expect, test } from "vitest";
import { useTestDb, dialect } from "../helpers/test-db";
import { apiClient, attendre } from "../helpers/api-client";
import { Executeur } from "../../server/jobs/runner";

/**
 * An integration played through the JSON API alone (issue 27, "journey-free end-to-end"): what a farm software
 * does with a personal token — create a plot, record a season in one call, price it, run the calculation, poll the
 * job, read the plot's IFT and margin, export the results and download the workbook. Every request goes through the
 * /api/v1 route module as over HTTP; only the job runner is started here, as the server starts it.
 */

const t = useTestDb();
const { api, tokenOf, attendreTache } = apiClient(t);

const runners: Executeur[] = [];
afterEach(async () => {
  for (const e of runners.splice(0)) await e.arreter();
});

type Tache = { etat: string; progression: number; total: number; series?: { id: number; idCampagne: number }[] };

describe(`an integration over the API (${dialect})`, () => {
  test("[issue27-integration] personal token, a plot, 30 interventions with inputs in one call, their prices, the calculation polled, the plot's IFT and margin, the results workbook", async () => {
    const db = t.db();
    const { campagnes } = t.demo();
    const idCampagne = campagnes.tilleuls2025;

    // A personal read-write token, made with a sign-in token as the profile page does.
    const signIn = await tokenOf("redacteur");
    const made = await api("POST", "/api/v1/jetons", { token: signIn, body: { nom: "Logiciel de la coopérative", acces: "ecriture", joursValidite: 30 } });
    expect(made.status).toBe(201);
    const token = (made.body as { token: string }).token;

    // A wheat plot: the campaign's management mode of winter wheat, read through the API.
    const modes = (await api("GET", `/api/v1/campagnes/${idCampagne}/mode_conduites`, { token })).body as {
      id: number;
      libelle: string;
      modeConduiteCultureList: { idCulture: number }[];
    }[];
    const ble = modes.find((m) => /blé tendre/i.test(m.libelle));
    expect(ble).toBeDefined();
    const plot = await api("POST", "/api/v1/parcelles", { token, body: { idCampagne, libelle: "Parcelle du logiciel", surface: 10, idModeConduite: ble!.id } });
    expect(plot.status).toBe(201);
    const idParcelle = (plot.body as { id: number }).id;

    // 30 fungicide passes at 1.5 l/ha of a product whose reference dose on winter wheat is 1 l/ha, each with water.
    const operations = (await api("GET", `/api/v1/campagnes/${idCampagne}/operation_culturales`, { token })).body as { id: number; libelle: string }[];
    const op = operations.find((o) => /pulv/i.test(o.libelle));
    expect(op).toBeDefined();
    const azoxystar = await db("intrant_phyto").where({ ammProduit: "2190636" }).first("idProduit");
    const eau = await db("categorie_intrant").where({ idTypeIntrant: 542 }).orderBy("id").first("id");
    const interventions = Array.from({ length: 30 }, (_, i) => ({
      date: `2025-${String(1 + (i % 6)).padStart(2, "0")}-${String(1 + Math.floor(i / 6)).padStart(2, "0")}`,
      idOperationCulturale: op!.id,
      idCultureConcernee: ble!.modeConduiteCultureList[0].idCulture,
      frequence: 1,
      tauxSurface: 1,
      realisee: true,
      intrants: [
        { type: "phyto", idIntrant: Number(azoxystar.idProduit), origine: 776, quantite: 1.5, dicLlUnite: "l/ha" },
        { type: "eau", idCategorie: Number(eau.id), quantite: 10, dicLlUnite: "mm" },
      ],
    }));
    const season = await api("POST", `/api/v1/parcelles/${idParcelle}/saison`, { token, body: { interventions } });
    expect(season.status).toBe(201);
    expect(Number((await db("action").where({ idParcelle }).count({ n: "*" }).first())!.n)).toBe(30);
    expect(Number((await db("intrant as i").join("action as a", "a.id", "i.idAction").where("a.idParcelle", idParcelle).count({ n: "*" }).first())!.n)).toBe(
      60,
    );

    // Their supply prices, in one call.
    // The season's inputs have their own price rows (product and origin): price the fungicide's.
    const appros = (await api("GET", `/api/v1/campagnes/${idCampagne}/prix_appros`, { token })).body as {
      id: number;
      updatedAt: string;
      idIntrant: number | null;
      idOrigineIntrant: number | null;
      prixAchat: number | null;
    }[];
    const row = appros.find((r) => r.id > 0 && r.idIntrant === Number(azoxystar.idProduit) && r.idOrigineIntrant === 776);
    const water = appros.find((r) => r.id > 0 && r.idIntrant === 20011 && r.idOrigineIntrant === 776);
    expect(row).toBeDefined();
    expect(water?.prixAchat).toBeGreaterThan(0);
    const priced = await api("PATCH", `/api/v1/campagnes/${idCampagne}/prix`, {
      token,
      body: { appros: [{ id: row!.id, updatedAt: row!.updatedAt, values: { prixAchat: 20 } }] },
    });
    expect(priced.status).toBeLessThan(300);
    expect(Number((await db("prix_appro").where({ id: row!.id }).first("prixAchat")).prixAchat)).toBe(20);

    // The calculation as a job, polled as a client does; then its series until its plots are done.
    const started = await api("POST", "/api/v1/calculs_series/calc", { token, body: { campagne: [idCampagne], force: true } });
    expect(started.status).toBe(202);
    const { href } = started.body as { href: string };
    const runner = new Executeur(db, { concurrence: 1, instance: `test-api-integration:${process.pid}`, intervalleMs: 50, battementMs: 200 });
    runners.push(runner);
    await runner.demarrer();
    const job = await attendreTache<Tache>(token, href, { ms: 90_000, quoi: "the calculation job" });
    expect(job.etat).toBe("terminee");
    const idSerie = job.series![0].id;
    await attendre(
      async () =>
        ((await api("GET", `/api/v1/calculs_series?campagne=${idCampagne}`, { token })).body as { id: number; statut: string }[]).find((s) => s.id === idSerie),
      (s) => !!s && s.statut !== "en_cours",
      { ms: 90_000, quoi: "the series" },
    );

    // The plot's IFT and margin.
    const figures = await api("GET", `/api/v1/calculs_resultats_plots?idCalculSerie[]=${idSerie}`, { token });
    expect(figures.status).toBe(200);
    const mine = (figures.body as { idParcelle: number; code: string; valeur: number | null; completude: number }[]).filter((r) => r.idParcelle === idParcelle);
    const ift = mine.find((r) => r.code === "ift.cible.total")!;
    expect(ift.valeur).toBeCloseTo(30 * 1.5, 6);
    expect(ift.completude).toBe(100);
    const marge = mine.find((r) => r.code === "economie.reel.margeBrute")!;
    // No harvest recorded on the plot: its margin is the opposite of its inputs' charges per ha,
    // 30 × (1.5 l × 20 €/l + 10 mm × the water's price).
    expect(marge.valeur!).toBeCloseTo(-30 * (1.5 * 20 + 10 * water!.prixAchat!), 6);

    // The results workbook, exported as a job and downloaded.
    const exp = await api("POST", "/api/v1/session_exports", {
      token,
      body: { calculsSeries: [idSerie], groupes: ["ift", "economie"], realise: true, exploitation: true },
    });
    expect(exp.status).toBe(202);
    const { id: idSession, href: exportHref } = exp.body as { id: number; href: string };
    const exported = await attendreTache<Tache>(token, exportHref, { ms: 90_000, quoi: "the export job" });
    expect(exported.etat).toBe("terminee");
    const file = await api("GET", `/api/v1/session_exports/${idSession}`, { token });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("spreadsheetml");
    expect(Buffer.from(file.bytes.subarray(0, 2)).toString()).toBe("PK");
  }, 180_000);
});
