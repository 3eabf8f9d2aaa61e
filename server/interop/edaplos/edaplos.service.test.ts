import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { campagneLibelle } from "~/domain/partage";
import { countRows, demoUser as utilisateurDemo, expectRefused, scopeOf, snapshot, withBrokenTable } from "../../../tests/helpers/service";
import { dialect, useTestDb } from "../../../tests/helpers/test-db";
import { attendre, tacheFinie } from "../../../tests/helpers/attendre";
import { selectInContext } from "../../contexte/service";
import { choixCampagnes } from "../../resultats/selection";
import type { Db } from "../../db/knex";
import { Executeur } from "../../jobs/runner";
import { lireTache } from "../../jobs/service";
import type { Utilisateur } from "../../utilisateur/repo";
import { dossierExports } from "../../session-export/service";
import {
  creerExportEdaplos,
  EDAPLOS_CREATE_ERROR,
  EDAPLOS_LOAD_ERROR,
  EDAPLOS_MESSAGE_ERROR,
  fichierEdaplos,
  lireLogEdaplos,
  lireSessionEdaplos,
  listerSessionsEdaplos,
  LOGS_ERROR,
  logsSessionEdaplos,
  supprimerSessionEdaplos,
} from "./service";

// The export files of this test file go to a folder of its own.
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-edaplos-"));

/**
 * eDaplos export sessions (issue 25; spec 3 §2.10, §3.12, §4.6, §7 e_daplos) on the demo data set: a campaign exported
 * by the job holds as many plots, interventions, inputs and harvests as the database, its log lines say what could not
 * be expressed, a reader without reading rights is refused, sessions are listed newest first, downloaded and deleted.
 */
const t = useTestDb();
let runner: Executeur;

beforeAll(async () => {
  runner = new Executeur(t.db(), { concurrence: 2, instance: "test-edaplos:1", intervalleMs: 50 });
  await runner.demarrer();
});
afterAll(async () => {
  await runner.arreter();
  fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });
});

/** A demo user whose context is on Réseau démo (the export screen offers the folders of the current network). */
async function demoUser(db: Db, username: string) {
  const user = await utilisateurDemo(db, username);
  await selectInContext(db, user, { intent: "oad", id: t.demo().oads.reseauDemo });
  return user;
}

const terminee = (db: Db, user: Utilisateur, idTache: number) => attendre(() => lireTache(db, user, idTache), tacheFinie, { ms: 30_000, pasMs: 50 });

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", parseTagValue: false, processEntities: false });
const liste = (v: unknown): Record<string, unknown>[] => (v == null ? [] : ([v].flat() as Record<string, unknown>[]));

function contenu(chemin: string) {
  const arbre = parser.parse(fs.readFileSync(chemin, "utf8")) as Record<string, Record<string, unknown>>;
  const plots = liste(arbre["rsm:CropDataSheetMessage"]["rsm:AgriculturalPlot"]);
  const processus = plots.flatMap((p) =>
    liste(p["ram:AppliedPlotSoilOccupation"]).flatMap((o) =>
      liste(o["ram:SpecifiedAgriculturalCropProductionCycle"]).flatMap((c) => liste(c["ram:ApplicablePlotAgriculturalProcess"])),
    ),
  );
  return {
    plots,
    processus,
    intrants: processus.flatMap((p) => liste(p["ram:UsedAgriculturalProcessCropInput"])),
    recoltes: processus.flatMap((p) => liste(p["ram:HarvestedAgriculturalProduce"])),
  };
}

async function compte(db: Db, q: ReturnType<Db>): Promise<number> {
  const r = await q.count<{ n: number | string }[]>({ n: "*" });
  return Number(r[0]?.n ?? 0);
}

describe(`eDaplos export sessions (${dialect})`, () => {
  test("[C-EDAP-04][C-EDAP-07][C-EDAP-09][C-EDAP-19] a demo campaign exported by the job: as many plots, interventions, inputs and harvests in the XML as in the database", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const { campagnes } = t.demo();
    const idCampagne = campagnes.tilleuls2025;
    const { id, idTache } = await creerExportEdaplos(scopeOf(db, redacteur), { campagnes: [idCampagne] });
    const [enCours] = await listerSessionsEdaplos(scopeOf(db, redacteur), [idCampagne]);
    expect(enCours).toMatchObject({ id, idTache, dtFinExport: null, succes: false });
    const tache = await terminee(db, redacteur, idTache);
    expect(tache.etat).toBe("terminee");
    expect(tache.total).toBe(await countRows(db, "parcelle", { idCampagne }));

    const [fini] = await listerSessionsEdaplos(scopeOf(db, redacteur), [idCampagne]);
    expect(fini).toMatchObject({ id, statut: 0, succes: true });
    expect(fini.dtFinExport).not.toBeNull();
    expect(fini.libelle).toMatch(/^edaplos-\d{8}-\d{6}\.xml$/);
    const campagne = await db("campagne as c")
      .join("exploitation as e", "e.id", "c.idExploitation")
      .where("c.id", idCampagne)
      .first("c.apiLibelle", "c.prefixeCampagne", "e.libelle");
    expect(fini.campagnes).toEqual([
      {
        id: idCampagne,
        libelle: campagneLibelle({ prefixeCampagne: String(campagne.prefixeCampagne ?? ""), apiLibelle: String(campagne.apiLibelle ?? "") }),
        prefixeCampagne: campagne.prefixeCampagne,
        exploitation: { libelle: campagne.libelle },
      },
    ]);

    const { chemin, nom } = await fichierEdaplos(scopeOf(db, redacteur), id);
    expect(nom).toBe(fini.libelle);
    expect(path.dirname(chemin)).toBe(dossierExports());
    expect(fini.taille).toBe(fs.statSync(chemin).size);

    const xml = contenu(chemin);
    const ofCampaign = (table: string, alias: string) =>
      db(`${table} as ${alias}`).join("action as a", "a.id", `${alias}.idAction`).where("a.idCampagne", idCampagne);
    expect(xml.plots).toHaveLength(await countRows(db, "parcelle", { idCampagne }));
    expect(xml.processus).toHaveLength(await countRows(db, "action", { idCampagne }));
    expect(xml.intrants).toHaveLength(await compte(db, ofCampaign("intrant", "i").join("categorie_intrant as ci", "ci.id", "i.idCategorie")));
    const recoltes = await compte(db, ofCampaign("recolte", "r"));
    const paturages = await compte(db, ofCampaign("recolte", "r").where("r.dicIdTypeSortie", 671));
    expect(recoltes).toBeGreaterThan(0);
    expect(xml.recoltes).toHaveLength(recoltes - paturages);
    expect(tache.resultat).toMatchObject({
      parcelles: xml.plots.length,
      interventions: xml.processus.length,
      intrants: xml.intrants.length,
      recoltes: xml.recoltes.length,
    });
    // The plots' and interventions' identifiers are Sillon's ids (what a re-import recognises).
    const idsPlots = (await db("parcelle").where({ idCampagne }).orderBy("id").select("id")).map((r) => String(r.id));
    expect(xml.plots.map((p) => String(p["ram:Identification"])).sort()).toEqual(idsPlots.sort());
    // Every phyto input with an AMM carries it.
    const amms = (
      await ofCampaign("intrant", "i")
        .join("categorie_intrant as ci", "ci.id", "i.idCategorie")
        .where("ci.idTypeIntrant", 539)
        .whereNotNull("i.codeIntrant")
        .select("i.codeIntrant")
    ).map((r) => String(r.codeIntrant));
    const ecrits = xml.intrants
      .map((x) => x["ram:Identification"])
      .filter((v) => v != null)
      .map(String);
    for (const amm of amms) expect(ecrits).toContain(amm);
  });

  test("[C-EDAP-16][C-EDAP-17][C-EDAP-18][C-EDAP-20] the log lines name what was not expressed, with level 2 for what is not in the file, their links resolved to labels", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const { campagnes } = t.demo();
    const ids = [campagnes.tilleuls2025, campagnes.moulin2025];
    const { id, idTache } = await creerExportEdaplos(scopeOf(db, redacteur), { campagnes: ids });
    const tache = await terminee(db, redacteur, idTache);
    expect(tache.etat).toBe("terminee");
    const resultat = tache.resultat as { parcelles: number; lignesLog: number };
    expect(resultat.parcelles).toBe(await compte(db, db("parcelle").whereIn("idCampagne", ids)));
    const logs = await logsSessionEdaplos(scopeOf(db, redacteur), id);
    expect(logs).toHaveLength(resultat.lignesLog);
    expect(await countRows(db, "session_export_log", { idSessionExport: id })).toBe(resultat.lignesLog);
    expect(logs.every((l) => l.niveau === 1 || l.niveau === 2)).toBe(true);
    // Every input whose dose is not per hectare ("autre") is a level-2 line naming it, its plot and its intervention.
    const autres = await db("intrant as i")
      .join("action as a", "a.id", "i.idAction")
      .join("parcelle as p", "p.id", "a.idParcelle")
      .whereIn("a.idCampagne", ids)
      .where("i.dicLlUnite", "autre")
      .select("i.id", "i.libelleIntrant", "p.libelle as parcelle", "a.id as idAction");
    expect(autres.length).toBeGreaterThan(0);
    expect(logs.some((l) => l.niveau === 2)).toBe(true);
    for (const x of autres) {
      const l = logs.find((l) => l.logMessage === "intrant-unite" && l.intrant?.id === Number(x.id));
      expect(l, `input ${x.id}`).toMatchObject({
        niveau: 2,
        intrant: { libelle: x.libelleIntrant },
        parcelle: { libelle: x.parcelle },
        action: { id: Number(x.idAction) },
      });
      expect(l?.exploitation?.libelle).toBeTruthy();
      expect(l?.campagne?.libelle).toBeTruthy();
    }
    // Sessions newest first (C-EDAP-14); a session of both campaigns is listed for either.
    const sessions = await listerSessionsEdaplos(scopeOf(db, redacteur), [campagnes.tilleuls2025]);
    expect(sessions[0].id).toBe(id);
    expect(sessions.map((s) => s.id)).toEqual([...sessions.map((s) => s.id)].sort((a, b) => b - a));
    expect((await listerSessionsEdaplos(scopeOf(db, redacteur), [campagnes.moulin2025])).map((s) => s.id)).toContain(id);
    expect(sessions[0].campagnes.map((c) => c.id)).toEqual([...ids].sort((a, b) => a - b));
  });

  test("[C-EDAP-05][C-RIGHTS-22] only campaigns of farms the user reads, at least one: otherwise refused and nothing created", async () => {
    const db = t.db();
    const synthese = await demoUser(db, "synthese");
    const lecteur = await demoUser(db, "lecteur");
    const { campagnes } = t.demo();
    const avant = await countRows(db, "session_export");
    await expectRefused(creerExportEdaplos(scopeOf(db, synthese), { campagnes: [campagnes.tilleuls2024] }), "errors.forbidden", 403);
    await expectRefused(creerExportEdaplos(scopeOf(db, lecteur), { campagnes: [999_999] }), "errors.forbidden", 403);
    await expectRefused(creerExportEdaplos(scopeOf(db, lecteur), { campagnes: [] }), "warning.invalid-form", 400, {
      fieldErrors: { campagnes: ["warning.required"] },
    });
    expect(await countRows(db, "session_export")).toBe(avant);
    expect(await countRows(db, "tache", { type: "export-edaplos", idUtilisateur: synthese.id })).toBe(0);
    // The panel offers only farms the user reads: the synthesis-only user is not offered EARL des Tilleuls (C-RIGHTS-22).
    const offertes = async (u: Utilisateur) =>
      (await choixCampagnes(scopeOf(db, u), "edaplos")).dossiers.flatMap((d) => d.exploitations.flatMap((e) => e.campagnes.map((c) => c.id)));
    expect(await offertes(synthese)).not.toContain(campagnes.tilleuls2024);
    expect(await offertes(lecteur)).toEqual(expect.arrayContaining([campagnes.tilleuls2024, campagnes.tilleuls2025]));
    // A reader of the farm exports every campaign of it (not only published ones: eDaplos is raw data he reads).
    const ok = await creerExportEdaplos(scopeOf(db, lecteur), { campagnes: [campagnes.tilleuls2025] });
    expect((await terminee(db, lecteur, ok.idTache)).etat).toBe("terminee");
  });

  test("[C-EDAP-08] a session is another user's to nobody; deleting it removes its file and its log lines; an unfinished one is not downloadable", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const animateur = await demoUser(db, "animateur");
    const { campagnes } = t.demo();
    const s = await creerExportEdaplos(scopeOf(db, redacteur), { campagnes: [campagnes.vallee2025] });
    expect((await terminee(db, redacteur, s.idTache)).etat).toBe("terminee");
    await expectRefused(fichierEdaplos(scopeOf(db, animateur), s.id), "errors.not-found", 404);
    await expectRefused(logsSessionEdaplos(scopeOf(db, animateur), s.id), "errors.not-found", 404);
    await expectRefused(supprimerSessionEdaplos(scopeOf(db, animateur), s.id), "errors.not-found", 404);
    expect(await listerSessionsEdaplos(scopeOf(db, animateur), [campagnes.vallee2025])).toEqual([]);
    const { chemin } = await fichierEdaplos(scopeOf(db, redacteur), s.id);
    expect(fs.existsSync(chemin)).toBe(true);
    await supprimerSessionEdaplos(scopeOf(db, redacteur), s.id);
    expect(fs.existsSync(chemin)).toBe(false);
    expect(await countRows(db, "session_export_log", { idSessionExport: s.id })).toBe(0);
    expect(await countRows(db, "session_export_campagne", { idSessionExport: s.id })).toBe(0);
    await expectRefused(fichierEdaplos(scopeOf(db, redacteur), s.id), "errors.not-found", 404);

    // A session still being written (statut 1) is "en cours" and not downloadable (C-EDAP-11).
    const [r] = await db("session_export")
      .insert({ nature: 2, libelle: "en-cours.xml", fichier: "absent.xml", statut: 1, idUtilisateur: redacteur.id })
      .returning("id");
    const idEnCours = typeof r === "object" ? r.id : r;
    await db("session_export_campagne").insert({ idSessionExport: idEnCours, idCampagne: campagnes.vallee2025 });
    await expectRefused(fichierEdaplos(scopeOf(db, redacteur), idEnCours), "exports.pas-termine", 409);
    // A raw-data session is not an eDaplos one.
    const [b] = await db("session_export").insert({ nature: 0, libelle: "brut", fichier: "brut.xlsx", statut: 0, idUtilisateur: redacteur.id }).returning("id");
    await expectRefused(logsSessionEdaplos(scopeOf(db, redacteur), typeof b === "object" ? b.id : b), "errors.not-found", 404);
  });

  test("[C-ERR-18][C-ERR-19] an unexpected failure answers 500 with the keys of spec 3 §8: sessions, starting an export, its message, its logs; nothing written", async () => {
    const db = t.db();
    const redacteur = await demoUser(db, "redacteur");
    const { campagnes } = t.demo();
    const s = await creerExportEdaplos(scopeOf(db, redacteur), { campagnes: [campagnes.tilleuls2025] });
    expect((await terminee(db, redacteur, s.idTache)).etat).toBe("terminee");
    const [idLog] = await db("session_export_log").where({ idSessionExport: s.id }).pluck("id");
    expect(idLog).toBeDefined();
    const avant = await snapshot(db, "session_export", "session_export_campagne", "session_export_log", "tache");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const broken = (table: string, fn: (trx: Db) => Promise<void>) => withBrokenTable(db, table, fn);
    await broken("session_export", (trx) => expectRefused(listerSessionsEdaplos(scopeOf(trx, redacteur), [campagnes.tilleuls2025]), EDAPLOS_LOAD_ERROR, 500));
    await broken("session_export", (trx) => expectRefused(lireSessionEdaplos(scopeOf(trx, redacteur), s.id), EDAPLOS_LOAD_ERROR, 500));
    await broken("session_export_campagne", (trx) =>
      expectRefused(creerExportEdaplos(scopeOf(trx, redacteur), { campagnes: [campagnes.tilleuls2025] }), EDAPLOS_CREATE_ERROR, 500),
    );
    await broken("session_export", (trx) => expectRefused(fichierEdaplos(scopeOf(trx, redacteur), s.id), EDAPLOS_MESSAGE_ERROR, 500));
    await broken("session_export_log", (trx) => expectRefused(logsSessionEdaplos(scopeOf(trx, redacteur), s.id), LOGS_ERROR, 500));
    await broken("session_export_log", (trx) => expectRefused(lireLogEdaplos(scopeOf(trx, redacteur), Number(idLog)), LOGS_ERROR, 500));
    expect(warn).toHaveBeenCalledTimes(6);
    warn.mockRestore();
    expect([EDAPLOS_LOAD_ERROR, EDAPLOS_CREATE_ERROR, EDAPLOS_MESSAGE_ERROR, LOGS_ERROR]).toEqual([
      "errors.services.Edaplos-service-error",
      "errors.services.Edaplos-create-service-error",
      "errors.services.EdaplosMessage-service-error",
      "errors.services.logs-service-error",
    ]);
    expect(await snapshot(db, "session_export", "session_export_campagne", "session_export_log", "tache")).toEqual(avant);
    // The refusals keep their own keys (a session of another user is not found).
    const animateur = await demoUser(db, "animateur");
    await expectRefused(logsSessionEdaplos(scopeOf(db, animateur), s.id), "errors.not-found", 404);
  });
});
