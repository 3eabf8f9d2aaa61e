import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { countRows, demoUser, expectRefused, scopeOf, snapshot } from "../../../tests/helpers/service";
import { dialect, useTestDb } from "../../../tests/helpers/test-db";
import { NewCampagneSchema } from "~/domain/partage";
import { createCampagne } from "../../campagne/service";
import type { Db } from "../../db/knex";
import { parse } from "../../errors";
import { createExploitation } from "../../exploitation/service";
import {
  apercuImportDaplos,
  appliquerImportDaplos,
  etatImport,
  executerImportDaplos,
  historiqueImportsDaplos,
  lancerImportDaplos,
  rapportImportDaplos,
  type DemandeImport,
  type RapportImport,
} from "./service";

/** The Daplos import on a real database (issue 25): the shared sample, a re-import, a broken file, the rights. */
const t = useTestDb();

const SAMPLE = new Uint8Array(readFileSync(new URL("../../../tests/fixtures/daplos/sample-v0.94.dap", import.meta.url)));
/** The sample as another farm's file (its SIRET replaced): each test imports its own farm. */
const ferme = (siret: string) => new TextEncoder().encode(new TextDecoder().decode(SAMPLE).replaceAll("08900000000000", siret));
const TABLES = [
  "exploitation",
  "campagne",
  "parcelle",
  "action",
  "intrant",
  "recolte",
  "mode_conduite",
  "operation_culturale",
  "intrant_dossier",
  "import_daplos_cle",
];

async function counts(db: Db) {
  const out: Record<string, number> = {};
  for (const table of TABLES) out[table] = await countRows(db, table);
  return out;
}

const demande = (octets: Uint8Array, extra: Partial<DemandeImport> = {}): DemandeImport => ({
  idOad: t.demo().oads.reseauDemo,
  nomFichier: "Export_1.dap",
  octets,
  ...extra,
});

/** In-file records of a type: what the report says was created, updated or not taken adds up to them. */
function accounted(r: RapportImport, type: string) {
  const c = r.comptes[type];
  return c.crees + c.misAJour + c.nonPris;
}

describe(`Daplos import (${dialect})`, () => {
  test(
    "[issue25] [C-DAP-11] the shared sample: the preview writes nothing, the import creates the farm, its campaign, 93 plots, 138 interventions, the inputs and harvests; every record accounted for",
    { timeout: 120_000 },
    async () => {
      const db = t.db();
      const FILE = ferme("11111111110001");
      const user = await demoUser(db, "redacteur");
      const before = await counts(db);

      const apercu = await apercuImportDaplos(scopeOf(db, user), demande(FILE));
      expect(apercu).toMatchObject({ ecrit: false, exploitation: { siret: "11111111110001", libelle: "EXPLOITATION TEST", action: "creer" } });
      expect(apercu.campagnes).toEqual([{ anneeRecolte: 2024, id: null, action: "creer" }]);
      expect(apercu.parcelles).toHaveLength(93);
      expect(apercu.interventions).toEqual({ creees: 138, misesAJour: 0, supprimees: 0 });
      expect(await counts(db)).toEqual(before);

      const r = await appliquerImportDaplos(scopeOf(db, user), demande(FILE));
      expect(r.ecrit).toBe(true);
      const after = await counts(db);
      const idExploitation = r.exploitation.id!;
      const [campagne] = await db("campagne").where({ idExploitation }).pluck("id");
      expect(after.exploitation - before.exploitation).toBe(1);
      expect(await countRows(db, "parcelle", { idCampagne: campagne })).toBe(93);
      expect(await countRows(db, "action", { idCampagne: campagne })).toBe(138);
      expect(r.interventions).toEqual({ creees: 138, misesAJour: 0, supprimees: 0 });
      const intrants = Number((await db("intrant as i").join("action as a", "a.id", "i.idAction").where("a.idCampagne", campagne).count({ n: "*" }))[0].n);
      const recoltes = Number((await db("recolte as h").join("action as a", "a.id", "h.idAction").where("a.idCampagne", campagne).count({ n: "*" }))[0].n);
      expect(intrants).toBe(r.intrants.crees);
      expect(recoltes).toBe(r.recoltes.creees);
      // Every record of the file is created, updated or listed as not taken with its reason and line.
      const inFile: Record<string, number> = { DP: 93, PV: 138, VI: 91, VR: 10, SC: 2270, IL: 3, RL: 1 };
      for (const [type, n] of Object.entries(inFile)) expect(r.comptes[type].lus, type).toBe(n);
      for (const type of ["DP", "PV", "VI", "VR"]) expect(accounted(r, type), type).toBe(inFile[type]);
      for (const [type, c] of Object.entries(r.comptes)) {
        expect(accounted(r, type), type).toBe(c.lus);
        expect(
          r.nonPris.filter((n) => n.type === type),
          type,
        ).toHaveLength(c.nonPris);
      }
      expect(r.comptes.VI.crees).toBe(intrants);
      expect(r.comptes.VR.crees).toBe(recoltes);
      for (const n of r.nonPris) expect(n).toMatchObject({ ligne: expect.any(Number), type: expect.any(String), raison: expect.any(String) });
      // A plot as the file describes it: name, area, commune, crop (a driving mode per crop), boundary in WGS 84.
      const plot = await db("parcelle").where({ idCampagne: campagne, libelle: "le champ du bas" }).orderBy("id").first();
      expect(Number(plot.surface)).toBe(8.75);
      expect(JSON.parse(plot.geometrie).type).toBe("Polygon");
      expect(plot.remarque).toContain("Précédent -1");
      const mode = await db("mode_conduite_culture as mcc")
        .join("mode_conduite as mc", "mc.id", "mcc.idModeConduite")
        .where("mc.id", plot.idModeConduite)
        .first("mcc.idCulture");
      expect(Number(mode.idCulture)).toBe(5);
      // A phyto product found by its AMM in the catalogue, or else an unreferenced input of the folder, listed.
      const phytos = await db("intrant as i")
        .join("action as a", "a.id", "i.idAction")
        .where({ "a.idCampagne": campagne, "i.codeIntrant": "2090126" })
        .select("i.dicIdOrigineIntrant");
      expect(phytos.length).toBeGreaterThan(0);
      expect(r.intrants.nonReferences.length).toBeGreaterThan(0);
    },
  );

  test("[issue25] the same file twice: nothing duplicated, the plots and interventions updated in place", { timeout: 120_000 }, async () => {
    const db = t.db();
    const FILE = ferme("11111111110002");
    const user = await demoUser(db, "redacteur");
    const first = await appliquerImportDaplos(scopeOf(db, user), demande(FILE));
    const once = await counts(db);
    const ids = await db("parcelle")
      .whereIn(
        "id",
        first.parcelles.map((p) => p.id!),
      )
      .orderBy("id")
      .pluck("id");

    const apercu = await apercuImportDaplos(scopeOf(db, user), demande(FILE));
    expect(apercu.exploitation).toMatchObject({ id: first.exploitation.id, action: "mettre-a-jour" });
    expect(apercu.parcelles.every((p) => p.action === "mettre-a-jour")).toBe(true);
    expect(apercu.interventions).toEqual({ creees: 0, misesAJour: 138, supprimees: 0 });

    const second = await appliquerImportDaplos(scopeOf(db, user), demande(FILE));
    expect(await counts(db)).toEqual(once);
    expect(second.parcelles.map((p) => p.id).sort()).toEqual(first.parcelles.map((p) => p.id).sort());
    expect(second.interventions).toEqual({ creees: 0, misesAJour: 138, supprimees: 0 });
    expect(second.comptes.DP).toMatchObject({ crees: 0, misAJour: 93 });
    expect(second.intrants.crees).toBe(first.intrants.crees);
    expect(await db("parcelle").whereIn("id", ids).count({ n: "*" })).toEqual([{ n: dialect === "postgres" ? "93" : 93 }]);
  });

  test("[issue25] an event the sender deleted (PV action 2) is deleted on re-import; a Windows-1252 file reads the same", { timeout: 120_000 }, async () => {
    const db = t.db();
    const user = await demoUser(db, "redacteur");
    const texte = new TextDecoder().decode(ferme("11111111110009"));
    const first = await appliquerImportDaplos(scopeOf(db, user), demande(new TextEncoder().encode(texte)));
    const [idCampagne] = await db("campagne").where({ idExploitation: first.exploitation.id }).pluck("id");
    const lignes = texte.split("\r\n");
    const pv = lignes.findIndex((l) => l.startsWith("PV"));
    lignes[pv] = lignes[pv].slice(0, 46) + "2" + lignes[pv].slice(47);
    const dp = lignes.findIndex((l) => l.startsWith("DP"));
    lignes[dp] = lignes[dp].replace("le champ du bas ", "le champ du basé");
    // The same file as Windows-1252 bytes (the sample's lost letter, U+FFFD, becomes "?").
    const octets = new Uint8Array([...lignes.join("\r\n")].map((c) => (c.charCodeAt(0) < 256 ? c.charCodeAt(0) : 0x3f)));
    const second = await appliquerImportDaplos(scopeOf(db, user), demande(octets));
    expect(second.fichier.encodage).toBe("windows-1252");
    expect(second.interventions).toEqual({ creees: 0, misesAJour: 137, supprimees: 1 });
    expect(await countRows(db, "action", { idCampagne })).toBe(137);
    expect(second.parcelles.every((p) => p.action === "mettre-a-jour")).toBe(true);
    expect(await db("parcelle").where({ id: second.parcelles[0].id! }).first("libelle")).toEqual({ libelle: "le champ du basé" });
  });

  test("[issue25] a file whose fifth record is broken: refused with its line, nothing written", async () => {
    const db = t.db();
    const user = await demoUser(db, "redacteur");
    const before = await snapshot(db, ...TABLES);
    const lignes = new TextDecoder().decode(SAMPLE).split("\r\n");
    const badNumber = [...lignes.slice(0, 4), lignes[6].replace("000008.75", "00008,75 "), ...lignes.slice(5)];
    expect(badNumber[4]).toMatch(/^PS/);
    await expectRefused(appliquerImportDaplos(scopeOf(db, user), demande(new TextEncoder().encode(badNumber.join("\r\n")))), "daplos.nombre-invalide", 400, {
      params: { ligne: 5, type: "PS", champ: "area_ha", valeur: "00008,75" },
    });
    const unknownType = [...lignes.slice(0, 4), "XX" + lignes[4].slice(2), ...lignes.slice(5)];
    await expectRefused(appliquerImportDaplos(scopeOf(db, user), demande(new TextEncoder().encode(unknownType.join("\r\n")))), "daplos.type-inconnu", 400, {
      params: { ligne: 5, type: "XX" },
    });
    expect(await snapshot(db, ...TABLES)).toEqual(before);
  });

  test(
    "[issue25] rights: a reader of the folder, a farm the user may not write, a locked campaign are refused and nothing is written",
    { timeout: 120_000 },
    async () => {
      const db = t.db();
      const FILE = ferme("11111111110004");
      const lecteur = await demoUser(db, "lecteur");
      const before = await snapshot(db, ...TABLES);
      await expectRefused(apercuImportDaplos(scopeOf(db, lecteur), demande(FILE)), "errors.forbidden", 403);
      await expectRefused(appliquerImportDaplos(scopeOf(db, lecteur), demande(FILE)), "errors.forbidden", 403);
      expect(await snapshot(db, ...TABLES)).toEqual(before);

      const redacteur = await demoUser(db, "redacteur");
      // A folder of the network that is not the user's.
      await expectRefused(apercuImportDaplos(scopeOf(db, lecteur), demande(FILE, { idDossier: t.demo().dossiers.bocage })), "errors.forbidden", 403);
      // Another network (the user has no folder there).
      await expectRefused(appliquerImportDaplos(scopeOf(db, redacteur), demande(FILE, { idOad: t.demo().oads.international })), "errors.forbidden", 403);

      const first = await appliquerImportDaplos(scopeOf(db, redacteur), demande(FILE));
      const idExploitation = first.exploitation.id!;
      const [idCampagne] = await db("campagne").where({ idExploitation }).pluck("id");
      // The campaign locked by a validated series.
      await db("campagne").where({ id: idCampagne }).update({ serieValide: true });
      const locked = await snapshot(db, ...TABLES);
      await expectRefused(appliquerImportDaplos(scopeOf(db, redacteur), demande(FILE)), "errors.forbidden", 403);
      expect(await snapshot(db, ...TABLES)).toEqual(locked);
      await db("campagne").where({ id: idCampagne }).update({ serieValide: false });
      // The farm's link no longer gives writing: the farm may not be written.
      await db("dossier_exploitation").where({ idExploitation }).update({ dexEcriture: false, dexAnimation: false });
      const unlinked = await snapshot(db, ...TABLES);
      await expectRefused(apercuImportDaplos(scopeOf(db, redacteur), demande(FILE)), "errors.forbidden", 403);
      await expectRefused(appliquerImportDaplos(scopeOf(db, redacteur), demande(FILE)), "errors.forbidden", 403);
      expect(await snapshot(db, ...TABLES)).toEqual(unlinked);
    },
  );

  test("[issue25] [C-DAP-07] only .dap, .edi and (decision 0108) .xml files; a file is read by its content, whatever its extension", async () => {
    const db = t.db();
    const user = await demoUser(db, "redacteur");
    await expectRefused(apercuImportDaplos(scopeOf(db, user), demande(SAMPLE, { nomFichier: "export.csv" })), "daplos.extension", 400);
    const r = await apercuImportDaplos(scopeOf(db, user), demande(SAMPLE, { nomFichier: "EXPORT.EDI" }));
    expect(r.parcelles).toHaveLength(93);
    await expectRefused(
      apercuImportDaplos(scopeOf(db, user), demande(new TextEncoder().encode("<?xml version='1.0'?><a/>"), { nomFichier: "x.edi" })),
      "daplos.edaplos-racine",
      400,
      { params: { racine: "a" } },
    );
    expect((await apercuImportDaplos(scopeOf(db, user), demande(SAMPLE, { nomFichier: "export.xml" }))).parcelles).toHaveLength(93);
  });

  test(
    "[issue25] [C-DAP-09] [C-DAP-10] [C-DAP-11] [C-DAP-12] as a job: the history row in progress, then finished with its counts, or failed with echec in its message",
    { timeout: 120_000 },
    async () => {
      const db = t.db();
      const FILE = ferme("11111111110006");
      const user = await demoUser(db, "redacteur");
      const { idImport, idTache } = await lancerImportDaplos(scopeOf(db, user), demande(FILE));
      expect(await db("tache").where({ id: idTache }).first("type", "etat")).toMatchObject({ type: "import-daplos", etat: "en_attente" });
      let [row] = await historiqueImportsDaplos(scopeOf(db, user), t.demo().oads.reseauDemo);
      expect(row).toMatchObject({ id: idImport, dtFinImport: null, etat: "en_cours" });

      const steps: number[] = [];
      await executerImportDaplos(db, idImport, async (fait) => void steps.push(fait));
      expect(steps.at(-1)).toBe(93);
      [row] = await historiqueImportsDaplos(scopeOf(db, user), t.demo().oads.reseauDemo);
      expect(row).toMatchObject({ id: idImport, etat: "termine", nbparcellescrees: 93, nbinterventionsimportees: 138, dtFinImport: expect.any(String) });
      expect((await rapportImportDaplos(scopeOf(db, user), idImport)).rapport).toMatchObject({ ecrit: true });
      expect(await db("import_daplos").where({ id: idImport }).first("contenu")).toEqual({ contenu: null });

      // The same import again after the farm's campaign was locked: failed, the message holds echec, nothing written.
      const [idCampagne] = await db("campagne")
        .where({ idExploitation: (await rapportImportDaplos(scopeOf(db, user), idImport)).rapport!.exploitation.id })
        .pluck("id");
      const second = await lancerImportDaplos(scopeOf(db, user), demande(FILE));
      await db("campagne").where({ id: idCampagne }).update({ serieValide: true });
      await expect(executerImportDaplos(db, second.idImport)).rejects.toMatchObject({ key: "errors.forbidden" });
      [row] = await historiqueImportsDaplos(scopeOf(db, user), t.demo().oads.reseauDemo);
      expect(row).toMatchObject({ id: second.idImport, etat: "echec", message: expect.stringContaining("echec") });
      expect(etatImport({ dtFinImport: null, message: null })).toBe("en_cours");

      // A file whose first plot lost its area record, launched without its preview (as the API may): the request only reads and
      // plans it; the job fails with the record's line in the history, nothing written.
      const broken = new TextDecoder()
        .decode(ferme("11111111110007"))
        .split("\r\n")
        .filter((l) => !l.startsWith("PS000178"))
        .join("\r\n");
      const before = await countRows(db, "parcelle");
      const third = await lancerImportDaplos(scopeOf(db, user), demande(new TextEncoder().encode(broken)));
      await expect(executerImportDaplos(db, third.idImport)).rejects.toMatchObject({ key: "daplos.ligne-refusee" });
      [row] = await historiqueImportsDaplos(scopeOf(db, user), t.demo().oads.reseauDemo);
      expect(row).toMatchObject({ id: third.idImport, etat: "echec", message: expect.stringMatching(/echec: daplos\.ligne-refusee.*\(ligne \d+\)/) });
      expect(await countRows(db, "parcelle")).toBe(before);
    },
  );

  /** A farm typed by hand in a folder (the farm form, then its coordinates' SIRET), with a 2024 campaign. */
  async function fermeALaMain(db: Db, user: Awaited<ReturnType<typeof demoUser>>, idDossier: number, libelle: string, siret: string) {
    const idExploitation = await createExploitation(scopeOf(db, user), idDossier, { libelle, idTypeExploitation: 1 });
    await db("exploitation").where({ id: idExploitation }).update({ siret });
    const idCampagne = await createCampagne(scopeOf(db, user), { idDossier, idExploitation }, parse(NewCampagneSchema, { anneeRecolte: 2024 }));
    return { idExploitation, idCampagne };
  }

  test(
    "[issue25] [issue25-siret] a farm typed by hand in the folder with the file's SIRET: the preview says it is updated, the import lands on it (no new farm), its hand-typed plots matched by name or PAC islet, the key recorded",
    { timeout: 120_000 },
    async () => {
      const db = t.db();
      const SIRET = "44444444440000";
      const user = await demoUser(db, "redacteur");
      const idDossier = t.demo().dossiers.beauce;
      const { idExploitation, idCampagne } = await fermeALaMain(db, user, idDossier, "Ferme Martin (saisie)", SIRET);
      // Typed by hand: a plot of the file's name (other spaces and case), another of the file's PAC islet 3 under another name.
      const [parNom] = await db("parcelle").insert({ idCampagne, libelle: " reprise  rd", surface: 3 }).returning("id");
      const [parIlot] = await db("parcelle").insert({ idCampagne, libelle: "Parcelle neuf (à la main)", noIlotPac: "3", surface: 2 }).returning("id");
      const ids = [parNom, parIlot].map((x) => Number(typeof x === "object" ? x.id : x));
      const FILE = ferme(SIRET);
      const before = await counts(db);

      const apercu = await apercuImportDaplos(scopeOf(db, user), demande(FILE, { idDossier }));
      expect(apercu.exploitation).toMatchObject({
        id: idExploitation,
        action: "mettre-a-jour",
        existante: { libelle: "Ferme Martin (saisie)", par: "siret" },
      });
      expect(apercu.campagnes).toEqual([{ anneeRecolte: 2024, id: idCampagne, action: "mettre-a-jour" }]);
      expect(
        apercu.parcelles
          .filter((p) => p.action === "mettre-a-jour")
          .map((p) => p.id)
          .sort(),
      ).toEqual([...ids].sort());
      expect(await counts(db)).toEqual(before);

      const r = await appliquerImportDaplos(scopeOf(db, user), demande(FILE, { idDossier }));
      const after = await counts(db);
      expect(after.exploitation).toBe(before.exploitation);
      expect(after.campagne).toBe(before.campagne);
      expect(r.exploitation).toMatchObject({ id: idExploitation, action: "mettre-a-jour", existante: { par: "siret" } });
      expect(r.comptes.DP).toMatchObject({ crees: 91, misAJour: 2 });
      expect(await countRows(db, "parcelle", { idCampagne })).toBe(93);
      expect(await countRows(db, "action", { idCampagne })).toBe(138);
      expect(
        r.parcelles
          .filter((p) => p.action === "mettre-a-jour")
          .map((p) => p.libelle)
          .sort(),
      ).toEqual(["Reprise RD", "parcelle n\uFFFD9"]);
      expect(await db("parcelle").where({ id: ids[0] }).first("libelle")).toEqual({ libelle: "Reprise RD" });
      expect(await db("import_daplos_cle").where({ idOad: t.demo().oads.reseauDemo, nature: "exploitation", cle: SIRET }).first("idCible")).toMatchObject({
        idCible: idExploitation,
      });

      // Later imports find it by its key; a plot renamed by hand in between keeps its key: nothing duplicated.
      await db("parcelle").where({ id: ids[0] }).update({ libelle: "Reprise RD (renommée)" });
      const once = await counts(db);
      const again = await appliquerImportDaplos(scopeOf(db, user), demande(FILE));
      expect(again.exploitation).toMatchObject({ id: idExploitation, existante: { par: "cle" } });
      expect(again.parcelles.every((p) => p.action === "mettre-a-jour")).toBe(true);
      expect(await counts(db)).toEqual(once);
    },
  );

  test("[issue25] [issue25-siret] several farms of the folder with the file's SIRET: refused, naming them; nothing written", { timeout: 120_000 }, async () => {
    const db = t.db();
    const SIRET = "44444444440018";
    const user = await demoUser(db, "redacteur");
    const idDossier = t.demo().dossiers.beauce;
    const a = await fermeALaMain(db, user, idDossier, "Ferme Dupont", SIRET);
    const b = await fermeALaMain(db, user, idDossier, "Ferme Dupont", SIRET);
    const before = await snapshot(db, ...TABLES, "import_daplos");
    for (const run of [apercuImportDaplos, appliquerImportDaplos, lancerImportDaplos])
      await expectRefused(run(scopeOf(db, user), demande(ferme(SIRET), { idDossier })), "daplos.siret-plusieurs-exploitations", 409, {
        params: { siret: SIRET, exploitations: `Ferme Dupont #${a.idExploitation}, Ferme Dupont #${b.idExploitation}` },
      });
    expect(await snapshot(db, ...TABLES, "import_daplos")).toEqual(before);
  });

  test(
    "[issue25] [issue25-siret] the folder's farm with the file's SIRET is one the user only reads: refused with its own key, nothing written",
    { timeout: 120_000 },
    async () => {
      const db = t.db();
      const redacteur = await demoUser(db, "redacteur");
      const lecteur = await demoUser(db, "lecteur");
      // GAEC du Moulin (SIRET 82345678900010) is linked to the Bocage folder for reading only; the reader reads Beauce.
      const moulin = await db("exploitation").where({ id: t.demo().exploitations.moulin }).first("siret");
      expect(moulin.siret).toBe("82345678900010");
      const before = await snapshot(db, ...TABLES, "import_daplos");
      await expectRefused(
        appliquerImportDaplos(scopeOf(db, redacteur), demande(ferme("82345678900010"), { idDossier: t.demo().dossiers.bocage })),
        "daplos.siret-exploitation-non-modifiable",
        403,
        { params: { siret: "82345678900010", exploitation: "GAEC du Moulin" } },
      );
      await expectRefused(
        apercuImportDaplos(scopeOf(db, redacteur), demande(ferme("82345678900010"), { idDossier: t.demo().dossiers.bocage })),
        "daplos.siret-exploitation-non-modifiable",
        403,
      );
      await expectRefused(
        lancerImportDaplos(scopeOf(db, lecteur), demande(ferme("82345678900010"), { idDossier: t.demo().dossiers.beauce })),
        "daplos.siret-exploitation-non-modifiable",
        403,
      );
      expect(await snapshot(db, ...TABLES, "import_daplos")).toEqual(before);
    },
  );

  test("[issue25] [issue25-siret] a farm the import creates keeps the file's SIRET when it is one", { timeout: 120_000 }, async () => {
    const db = t.db();
    const user = await demoUser(db, "redacteur");
    const r = await appliquerImportDaplos(scopeOf(db, user), demande(ferme("44444444440026")));
    expect(await db("exploitation").where({ id: r.exploitation.id! }).first("siret")).toEqual({ siret: "44444444440026" });
    // The sample's own identifier fails the SIRET check: not written on the farm.
    const s = await appliquerImportDaplos(scopeOf(db, user), demande(SAMPLE));
    expect(await db("exploitation").where({ id: s.exploitation.id! }).first("siret")).toEqual({ siret: null });
  });
});
