import { describe, expect, test } from "vitest";
import { countRows, demoUser, expectRefused, scopeOf, snapshot } from "../../../tests/helpers/service";
import { dialect, useTestDb } from "../../../tests/helpers/test-db";
import type { Db } from "../../db/knex";
import { createExploitation } from "../../exploitation/service";
import { apercuImportDaplos, appliquerImportDaplos, type DemandeImport } from "../daplos/service";
import type { ParcelleEdaplos } from "./ecrivain";
import { parcellesCampagne } from "./lecture";
import { TRAVAUX, TYPES_SORTIE } from "./codes";
import { ecrireEdaplos } from "./service";

/**
 * The eDaplos import (issue 25, decision 0108) on a real database, through the Daplos import service: a demo campaign
 * exported by the eDaplos writer, imported into a new farm, again (updated in place), a broken file (nothing written),
 * and the round trip compared field by field with what the export reads of both campaigns.
 */
const t = useTestDb();

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

/** The demo campaign as the export writes it, its farm renamed by `siret` so that each test imports its own farm. */
async function export_(db: Db, idCampagne: number, siret: string): Promise<{ xml: string; siretSource: string }> {
  let xml = "";
  await ecrireEdaplos(
    db,
    [idCampagne],
    { ecrire: async (s) => void (xml += s) },
    { identification: "000001", emetteur: { id: "test", nom: "Test" }, journal: () => {} },
  );
  const siretSource = /<ram:OwnerAgronomicalObservationParty>\s*<ram:Identification>([^<]*)</.exec(xml)![1];
  return { xml: xml.replaceAll(`<ram:Identification>${siretSource}</ram:Identification>`, `<ram:Identification>${siret}</ram:Identification>`), siretSource };
}

const demande = (xml: string, nomFichier = "edaplos-tilleuls.xml"): DemandeImport => ({
  idOad: t.demo().oads.reseauDemo,
  nomFichier,
  octets: new TextEncoder().encode(xml),
});

async function lire(db: Db, idCampagne: number): Promise<ParcelleEdaplos[]> {
  const out: ParcelleEdaplos[] = [];
  for await (const p of parcellesCampagne(db, idCampagne)) out.push(p);
  return out;
}

const arrondi = (v: number | null, d = 3) => (v == null ? null : Number(v.toFixed(d)));
const contour = (g: string | null) =>
  g == null ? null : (JSON.parse(g) as { coordinates: number[][][] }).coordinates[0].map(([x, y]) => [arrondi(x, 5), arrondi(y, 5)]);

describe(`eDaplos import (${dialect})`, () => {
  test(
    "[issue25] an eDaplos file into a farm: the preview writes nothing, the import creates the farm, its campaign, every plot, intervention, input and harvest it holds",
    { timeout: 180_000 },
    async () => {
      const db = t.db();
      const user = await demoUser(db, "redacteur");
      const source = t.demo().campagnes.tilleuls2025;
      const { xml } = await export_(db, source, "22222222220001");
      const before = await counts(db);
      const apercu = await apercuImportDaplos(scopeOf(db, user), demande(xml));
      expect(apercu).toMatchObject({ ecrit: false, exploitation: { siret: "22222222220001", action: "creer" } });
      expect(await counts(db)).toEqual(before);

      const r = await appliquerImportDaplos(scopeOf(db, user), demande(xml));
      expect(r.fichier).toMatchObject({ nom: "edaplos-tilleuls.xml", version: "eDaplos RAM:5", encodage: "utf-8" });
      const [idCampagne] = await db("campagne").where({ idExploitation: r.exploitation.id! }).pluck("id");
      const after = await counts(db);
      expect(after.exploitation - before.exploitation).toBe(1);
      expect(after.campagne - before.campagne).toBe(1);
      expect(await countRows(db, "parcelle", { idCampagne })).toBe(await countRows(db, "parcelle", { idCampagne: source }));
      expect(r.parcelles.every((p) => p.action === "creer")).toBe(true);
      expect(await countRows(db, "action", { idCampagne })).toBe(r.interventions.creees);
      expect(r.interventions.creees).toBe(r.comptes.PV.lus - r.comptes.PV.nonPris);
      const ofCampaign = (table: string) => db(`${table} as x`).join("action as a", "a.id", "x.idAction").where("a.idCampagne", idCampagne);
      expect(Number((await ofCampaign("intrant").count({ n: "*" }))[0].n)).toBe(r.intrants.crees);
      expect(Number((await ofCampaign("recolte").count({ n: "*" }))[0].n)).toBe(r.recoltes.creees);
      expect(r.recoltes.creees).toBeGreaterThan(0);
      // Every element read is created, updated or listed as not taken, with its reason and line.
      for (const [type, c] of Object.entries(r.comptes)) {
        expect(c.crees + c.misAJour + c.nonPris, type).toBe(c.lus);
        expect(
          r.nonPris.filter((n) => n.type === type),
          type,
        ).toHaveLength(c.nonPris);
      }
      for (const n of r.nonPris) expect(n).toMatchObject({ ligne: expect.any(Number), type: expect.any(String), raison: expect.any(String) });
    },
  );

  test("[issue25] the same eDaplos file twice: nothing duplicated, the plots and interventions updated in place", { timeout: 180_000 }, async () => {
    const db = t.db();
    const user = await demoUser(db, "redacteur");
    const { xml } = await export_(db, t.demo().campagnes.tilleuls2025, "22222222220002");
    const first = await appliquerImportDaplos(scopeOf(db, user), demande(xml));
    const once = await counts(db);
    const second = await appliquerImportDaplos(scopeOf(db, user), demande(xml));
    expect(await counts(db)).toEqual(once);
    expect(second.exploitation).toMatchObject({ id: first.exploitation.id, action: "mettre-a-jour" });
    expect(second.parcelles.map((p) => p.id).sort()).toEqual(first.parcelles.map((p) => p.id).sort());
    expect(second.parcelles.every((p) => p.action === "mettre-a-jour")).toBe(true);
    expect(second.interventions).toEqual({ creees: 0, misesAJour: first.interventions.creees, supprimees: 0 });
    expect(second.intrants.crees).toBe(first.intrants.crees);
    expect(second.recoltes.creees).toBe(first.recoltes.creees);
  });

  test(
    "[issue25] a malformed eDaplos file, one that is not a CropDataSheetMessage, an empty one: refused with their key, nothing written",
    { timeout: 180_000 },
    async () => {
      const db = t.db();
      const user = await demoUser(db, "redacteur");
      const { xml } = await export_(db, t.demo().campagnes.tilleuls2025, "22222222220003");
      const before = await snapshot(db, ...TABLES);
      const coupe = xml.slice(0, Math.floor(xml.length / 2));
      await expectRefused(appliquerImportDaplos(scopeOf(db, user), demande(coupe)), "daplos.edaplos-xml-invalide", 400);
      await expectRefused(appliquerImportDaplos(scopeOf(db, user), demande('<?xml version="1.0"?><Invoice/>')), "daplos.edaplos-racine", 400);
      await expectRefused(appliquerImportDaplos(scopeOf(db, user), demande("")), "daplos.vide", 400);
      await expectRefused(appliquerImportDaplos(scopeOf(db, user), demande(xml, "edaplos.csv")), "daplos.extension", 400);
      // A reader of the folder may not import it.
      const lecteur = await demoUser(db, "lecteur");
      await expectRefused(appliquerImportDaplos(scopeOf(db, lecteur), demande(xml)), "errors.forbidden", 403);
      expect(await snapshot(db, ...TABLES)).toEqual(before);
    },
  );

  test(
    "[issue25] [C-EDAP-04] [C-EDAP-07] [C-DAP-07] [C-DAP-11] round trip: a demo campaign exported to eDaplos and imported into a new farm has the same plots, interventions, inputs and harvests, field by field",
    { timeout: 180_000 },
    async () => {
      const db = t.db();
      const user = await demoUser(db, "redacteur");
      const source = t.demo().campagnes.tilleuls2025;
      const { xml } = await export_(db, source, "22222222220004");
      const r = await appliquerImportDaplos(scopeOf(db, user), demande(xml));
      const [cible] = await db("campagne").where({ idExploitation: r.exploitation.id! }).pluck("id");
      expect(Number(cible)).not.toBe(source);
      const avant = await lire(db, source);
      const apres = await lire(db, Number(cible));
      const idImporte = new Map(r.parcelles.map((p) => [p.cle.split("|")[2], p.id!]));
      expect(apres).toHaveLength(avant.length);
      let [interventions, intrants, recoltes] = [0, 0, 0];
      for (const p of avant) {
        const q = apres.find((x) => x.id === idImporte.get(String(p.id)))!;
        expect(q, p.libelle).toBeDefined();
        expect({ libelle: q.libelle, surface: q.surface, culture: q.culture?.id ?? null, contour: contour(q.geometrie) }, p.libelle).toEqual({
          libelle: p.libelle,
          surface: p.surface,
          culture: p.culture?.id ?? null,
          contour: contour(p.geometrie),
        });
        expect(q.interventions, p.libelle).toHaveLength(p.interventions.length);
        p.interventions.forEach((i, k) => {
          const j = q.interventions[k];
          const quoi = `${p.libelle} ${i.date} ${i.operation}`;
          interventions++;
          // The kind of work as eDaplos says it (several Sillon kinds share a work code), the operation by its name.
          expect(
            {
              date: j.date,
              travail: TRAVAUX[j.idTypeAction ?? 0]?.travail ?? null,
              operation: j.operation,
              realisee: j.realisee,
              taux: arrondi(j.tauxSurface, 3),
            },
            quoi,
          ).toEqual({
            date: i.date,
            travail: TRAVAUX[i.idTypeAction ?? 0]?.travail ?? null,
            operation: i.operation,
            realisee: i.realisee,
            taux: arrondi(i.tauxSurface, 3),
          });
          // Inputs: those the file gives a dose (other inputs carry none, listed by the export's log and the import's report).
          const exprimes = i.intrants.filter((x) => x.quantite != null && x.unite !== "autre");
          const champs = (x: (typeof i.intrants)[number]) => ({
            type: x.idTypeIntrant,
            // Water is named by its category through the services (the demo's seed gave it a name of its own).
            // A seed found in the reference list (by GNIS or label, decision 0130) is named by its variety's reference label.
            libelle: x.idTypeIntrant === 542 ? x.idCategorie : x.idTypeIntrant === 538 ? x.libelle.split(" – ").at(-1) : x.libelle,
            quantite: arrondi(x.quantite, 4),
            unite: x.unite,
            amm: x.amm,
            gnis: x.gnis,
            composition: Object.fromEntries(
              Object.entries(x.composition ?? {})
                .filter(([, v]) => v != null && v !== 0)
                .map(([e, v]) => [e, arrondi(v as number, 2)]),
            ),
          });
          expect(j.intrants.map(champs), quoi).toEqual(exprimes.map(champs));
          intrants += exprimes.length;
          // Harvests: the main products (straw and grazing are not main products, listed as not taken).
          const principales = i.recoltes.filter((h) => TYPES_SORTIE[h.idTypeSortie] === "ZJH");
          const rec = (h: (typeof i.recoltes)[number]) => ({ culture: h.idCulture, sortie: h.idTypeSortie, rendement: arrondi(h.rendement, 3) });
          expect(j.recoltes.map(rec), quoi).toEqual(principales.map(rec));
          recoltes += principales.length;
        });
      }
      expect(interventions).toBeGreaterThan(0);
      expect(intrants).toBeGreaterThan(0);
      expect(recoltes).toBeGreaterThan(0);
    },
  );

  test(
    "[issue25] [issue25-siret] an eDaplos file of a farm typed by hand in the folder (same SIRET): the preview says it is updated, the import lands on it with its campaign and plots, no second farm; a farm the user only reads is refused",
    { timeout: 180_000 },
    async () => {
      const db = t.db();
      const SIRET = "44444444440034";
      const user = await demoUser(db, "redacteur");
      const idDossier = t.demo().dossiers.bocage;
      const idExploitation = await createExploitation(scopeOf(db, user), idDossier, { libelle: "EARL des Tilleuls", idTypeExploitation: 1 });
      await db("exploitation").where({ id: idExploitation }).update({ siret: SIRET });
      const source = t.demo().campagnes.tilleuls2025;
      const { xml } = await export_(db, source, SIRET);
      const before = await counts(db);
      const apercu = await apercuImportDaplos(scopeOf(db, user), { ...demande(xml), idDossier });
      expect(apercu.exploitation).toMatchObject({ id: idExploitation, action: "mettre-a-jour", existante: { libelle: "EARL des Tilleuls", par: "siret" } });
      expect(apercu.campagnes).toEqual([{ anneeRecolte: 2025, id: null, action: "creer" }]);
      expect(await counts(db)).toEqual(before);

      const r = await appliquerImportDaplos(scopeOf(db, user), { ...demande(xml), idDossier });
      expect(r.exploitation).toMatchObject({ id: idExploitation, action: "mettre-a-jour" });
      const after = await counts(db);
      expect(after.exploitation).toBe(before.exploitation);
      const [idCampagne] = await db("campagne").where({ idExploitation, anneeRecolte: 2025 }).pluck("id");
      expect(await countRows(db, "parcelle", { idCampagne })).toBe(await countRows(db, "parcelle", { idCampagne: source }));
      expect(r.parcelles.every((p) => p.action === "creer")).toBe(true);
      expect(await db("import_daplos_cle").where({ idOad: t.demo().oads.reseauDemo, nature: "exploitation", cle: SIRET }).first("idCible")).toMatchObject({
        idCible: idExploitation,
      });

      // GAEC du Moulin's SIRET: the Bocage folder reaches that farm for reading only.
      const { xml: moulin } = await export_(db, source, "82345678900010");
      const fige = await snapshot(db, ...TABLES);
      await expectRefused(appliquerImportDaplos(scopeOf(db, user), { ...demande(moulin), idDossier }), "daplos.siret-exploitation-non-modifiable", 403, {
        params: { exploitation: "GAEC du Moulin" },
      });
      expect(await snapshot(db, ...TABLES)).toEqual(fige);
    },
  );
});
