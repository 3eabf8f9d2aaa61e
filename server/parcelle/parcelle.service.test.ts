import { describe, expect, test } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { countRows, expectRefused, selectTilleuls, snapshot, scopeOf } from "../../tests/helpers/service";
import type { Db } from "../db/knex";
import { surfaceOfGeometrie } from "~/domain/parcelle";
import {
  getAffectations,
  getHistoriqueTree,
  getParcelles,
  majDatesActions,
  majDatesCampagne,
  removeParcelles,
  saveAffectations,
  saveParcelle,
} from "./service";

const t = useTestDb();
type Campagne = "tilleuls2025" | "tilleuls2024" | "tilleuls2025Simulation";

const contextFor = (username: string, campagne: Campagne) => selectTilleuls(t, username, campagne);

async function insertId(db: Db, table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await db(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

/** A plot written directly (another campaign's plots, history chains). */
const plot = (idCampagne: number, libelle: string, extra: Record<string, unknown> = {}) => insertId(t.db(), "parcelle", { idCampagne, libelle, ...extra });

const PLOT_TABLES = ["parcelle", "parcelle_historique", "action", "affectation_culture_cible"];

describe(`plots (${dialect})`, () => {
  test("demo plots (checked before the other tests add theirs): Beauce communes, polygons on a few, 2025 plots linked to the 2024 plots they come from", async () => {
    const { campagnes } = t.demo();
    const plots = async (idCampagne: number) => t.db()("parcelle").where({ idCampagne }).select("id", "libelle", "codeInsee", "geometrie", "surface");
    for (const c of [campagnes.tilleuls2024, campagnes.tilleuls2025, campagnes.tilleuls2025Simulation, campagnes.moulin2025]) {
      const rows = await plots(c);
      expect(rows.length).toBeGreaterThanOrEqual(4);
      expect(rows.length).toBeLessThanOrEqual(6);
      expect(rows.every((r) => String(r.codeInsee).startsWith("28"))).toBe(true);
    }
    expect((await plots(campagnes.tilleuls2025)).filter((r) => r.geometrie).length).toBeGreaterThan(0);
    const links = await t
      .db()("parcelle_historique as h")
      .join("parcelle as p", "p.id", "h.idParcelle")
      .join("parcelle as q", "q.id", "h.idParcelleHistorique")
      .where("p.idCampagne", campagnes.tilleuls2025)
      .select("p.libelle as plot", "q.libelle as from", "q.idCampagne");
    expect(links.every((l) => Number(l.idCampagne) === campagnes.tilleuls2024)).toBe(true);
    expect(
      links
        .filter((l) => l.from === "Les Grands Champs")
        .map((l) => l.plot)
        .sort(),
    ).toEqual(["Les Grands Champs nord", "Les Grands Champs sud"]);
  });

  test("[B-PLOT-01] [B-PLOT-10] [B-PLOT-18] [B-LIST-09] [B-LIST-22] a writer creates then updates a plot; the list joins the mode and group labels", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const c = t.demo().campagnes.tilleuls2025;
    const idMode = await insertId(t.db(), "mode_conduite", { idCampagne: c, libelle: "Colza test" });
    const idLot = await insertId(t.db(), "lot_parcelle", { idCampagne: c, libelle: "Îlot test" });
    const geometrie = JSON.stringify({
      type: "Polygon",
      coordinates: [
        [
          [1.48, 48.44],
          [1.49, 48.44],
          [1.49, 48.45],
          [1.48, 48.44],
        ],
      ],
    });
    const id = await saveParcelle(scopeOf(t.db(), u), {
      libelle: "La Longue Raie",
      idModeConduite: String(idMode),
      idLot: String(idLot),
      surface: "12,5",
      objectifRendement: "8,2",
      irrigable: "on",
      chargesStockage: "6",
      fermageSpecifique: "180",
      codeInsee: "28085",
      codePostal: "28000",
      noIlotPac: "14",
      surfaceReelle: "12,31",
      geometrie,
      idTypeModeConduite: "1",
      tauxLegumineuse: "2",
      idTypeSolArvalis: "1",
      reserveUtileMm: "150",
    });
    let { rows } = await getParcelles(scopeOf(t.db(), u));
    expect(rows[0]).toMatchObject({
      id,
      libelle: "La Longue Raie",
      libelleModeConduite: "Colza test",
      libelleLot: "Îlot test",
      surface: 12.5,
      objectifRendement: 8.2,
      irrigable: true,
      drainee: false,
      chargesStockage: 6,
      fermageSpecifique: 180,
      codeInsee: "28085",
      codePostal: "28000",
      libelleCommune: "Chartres",
      noIlotPac: "14",
      surfaceReelle: surfaceOfGeometrie(geometrie),
      geometrie,
      typeGeometrie: "polygon",
      idTypeModeConduite: 1,
      tauxLegumineuse: 2,
      idTypeSolArvalis: 1,
      reserveUtileMm: 150,
      idCampagne: c,
    });
    await saveParcelle(scopeOf(t.db(), u), { libelle: "La Longue Raie", surface: 13, codeInsee: "28085" }, { id, updatedAt: rows[0].updatedAt });
    ({ rows } = await getParcelles(scopeOf(t.db(), u)));
    expect(rows.find((r) => r.id === id)).toMatchObject({
      surface: 13,
      idModeConduite: null,
      idLot: null,
      geometrie: null,
      typeGeometrie: null,
      irrigable: false,
      codePostal: "28000",
    });
  });

  test("[B-MAP-06] a new plot without a commune takes the farm's INSEE and postal codes; the form asks for the farm department's communes (the list brings none, issue 10)", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    await t.db()("exploitation").where({ id: t.demo().exploitations.tilleuls }).update({ codeInsee: "28422", codePostal: "28150" });
    const id = await saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "Le Bois Gallet" });
    const data = await getParcelles(scopeOf(t.db(), u));
    expect(data.rows.find((r) => r.id === id)).toMatchObject({ codeInsee: "28422", codePostal: "28150" });
    expect(data.farm).toEqual({ codeInsee: "28422", codePostal: "28150" });
    expect(data.communes).toBeNull();
    const asked = await getParcelles(scopeOf(t.db(), u), { departement: "28" });
    expect(asked.communes?.numDept).toBe("28");
    expect(asked.communes?.rows.find((r) => r.ci === "28085")).toMatchObject({ lbl: "Chartres", cp: "28000" });
    expect((await getParcelles(scopeOf(t.db(), u), { departement: "2A" })).communes?.rows.every((r) => r.ci.startsWith("2A"))).toBe(true);
  });

  test("[B-PLOT-12] [B-PLOT-13] [B-PLOT-16] bad input, an unknown commune, a postal code of another commune or a mode of another campaign changes nothing", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const before = await snapshot(t.db(), ...PLOT_TABLES);
    await expectRefused(saveParcelle(scopeOf(t.db(), u), { surface: "x", chargesPhytos: "y" }), "warning.invalid-form", 400, {
      fieldErrors: { libelle: ["warning.required"], surface: ["warning.numeric"], chargesPhytos: ["warning.numeric"] },
    });
    await expectRefused(saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "P", codeInsee: "28999" }), "warning.invalid-form", 400, {
      fieldErrors: { codeInsee: ["warning.invalid"] },
    });
    await expectRefused(saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "P", codeInsee: "28085", codePostal: "45000" }), "warning.invalid-form", 400, {
      fieldErrors: { codePostal: ["warning.invalid"] },
    });
    const otherMode = await insertId(t.db(), "mode_conduite", { idCampagne: t.demo().campagnes.tilleuls2024, libelle: "Autre campagne" });
    await expectRefused(saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "P", idModeConduite: otherMode }), "warning.invalid-form", 400, {
      fieldErrors: { idModeConduite: ["warning.invalid"] },
    });
    await expectRefused(saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "P", idGestionResidus: 999 }), "warning.invalid-form", 400, {
      fieldErrors: { idGestionResidus: ["warning.invalid"] },
    });
    expect(await snapshot(t.db(), ...PLOT_TABLES)).toEqual(before);
  });

  test("a stale save is refused", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const id = await saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "Stale" });
    await expectRefused(
      saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "Stale 2" }, { id, updatedAt: "2000-01-01T00:00:00.000Z" }),
      "errors.stale",
      409,
    );
  });

  test("[B-PLOT-17] deleting several plots deletes each one; an id of another campaign refuses the whole deletion", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const a = await saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "A supprimer 1" });
    const b = await saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "A supprimer 2" });
    const foreign = await plot(t.demo().campagnes.tilleuls2024, "Autre campagne");
    await expectRefused(removeParcelles(scopeOf(t.db(), u), [a, foreign, b]), "errors.services.parcelle-delete-service-error", 404);
    expect(await countRows(t.db(), "parcelle", { id: a })).toBe(1);
    expect(await removeParcelles(scopeOf(t.db(), u), [a, b])).toBe(2);
    expect((await countRows(t.db(), "parcelle", { id: a })) + (await countRows(t.db(), "parcelle", { id: b }))).toBe(0);
    expect(await countRows(t.db(), "parcelle", { id: foreign })).toBe(1);
  });

  test("[B-HIST-01] [B-HIST-02] [B-HIST-05] history links are plots of the history campaign; the tree follows them N-1, N-2", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const { campagnes, exploitations } = t.demo();
    const c2023 = await insertId(t.db(), "campagne", { idExploitation: exploitations.tilleuls, anneeRecolte: 2023 });
    const old = await plot(c2023, "Grand Champ 2023");
    const nord = await plot(campagnes.tilleuls2024, "Grand Champ nord");
    const sud = await plot(campagnes.tilleuls2024, "Grand Champ sud");
    await t
      .db()("parcelle_historique")
      .insert([
        { idParcelle: nord, idParcelleHistorique: old },
        { idParcelle: sud, idParcelleHistorique: old },
      ]);
    const data = await getParcelles(scopeOf(t.db(), u));
    expect(data.campagne).toMatchObject({ anneeRecolte: 2025, idCampagneHistoParcelle: campagnes.tilleuls2024 });
    expect(data.historique.map((h) => h.id)).toEqual(expect.arrayContaining([nord, sud]));
    expect(data.historique.some((h) => h.id === old)).toBe(false);

    const id = await saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "Grand Champ", parcellesHistorique: [String(nord), String(sud)] });
    expect((await getParcelles(scopeOf(t.db(), u))).rows.find((r) => r.id === id)?.parcellesHistorique.sort()).toEqual([nord, sud].sort());
    const tree = await getHistoriqueTree(scopeOf(t.db(), u), id);
    expect(tree?.generations.map((g) => g.map((n) => [n.libelle, n.anneeRecolte]))).toEqual([
      [
        ["Grand Champ nord", 2024],
        ["Grand Champ sud", 2024],
      ],
      [["Grand Champ 2023", 2023]],
    ]);
    // A plot of another campaign than the history campaign is refused.
    await expectRefused(saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "P", parcellesHistorique: [old] }), "warning.invalid-form", 400, {
      fieldErrors: { parcellesHistorique: ["warning.invalid"] },
    });
  });

  test("[B-PLOT-08] the date update moves the ticked plots' interventions of the initial year to the final year", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const c = t.demo().campagnes.tilleuls2025;
    const a = await saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "Dates A" });
    const b = await saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "Dates B" });
    const untouched = await saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "Dates C" });
    const act = (idParcelle: number, date: string, anneeRecolte: number) => insertId(t.db(), "action", { idCampagne: c, idParcelle, date, anneeRecolte });
    const sowing = await act(a, "2023-10-12", 2024);
    const harvest = await act(a, "2024-07-20", 2024);
    const leap = await act(b, "2024-02-29", 2024);
    const other = await act(b, "2025-03-01", 2025);
    const notTicked = await act(untouched, "2024-05-02", 2024);
    expect(await majDatesActions(scopeOf(t.db(), u), { ids: [String(a), String(b)], anneeInitiale: "2024", anneeFinale: "2025" })).toBe(3);
    const day = async (id: number) => {
      const r = await t.db()("action").where({ id }).first("date", "anneeRecolte");
      const d =
        r.date instanceof Date
          ? `${r.date.getFullYear()}-${String(r.date.getMonth() + 1).padStart(2, "0")}-${String(r.date.getDate()).padStart(2, "0")}`
          : String(r.date).slice(0, 10);
      return [d, Number(r.anneeRecolte)];
    };
    expect(await day(sowing)).toEqual(["2024-10-12", 2025]);
    expect(await day(harvest)).toEqual(["2025-07-20", 2025]);
    expect(await day(leap)).toEqual(["2025-02-28", 2025]);
    expect(await day(other)).toEqual(["2025-03-01", 2025]);
    expect(await day(notTicked)).toEqual(["2024-05-02", 2024]);
    const rows = (await getParcelles(scopeOf(t.db(), u))).rows;
    expect(rows.find((r) => r.id === a)?.anneeDerniereAction).toBe(2025);
    expect(rows.find((r) => r.id === untouched)?.anneeDerniereAction).toBeNull();
  });

  test("[C-DATE-06] the campaign's date update (anneeRecolteCible) moves the campaign's interventions of its last-action year and sets the last-action year of the campaign and its plots", async () => {
    const db = t.db();
    const u = await contextFor("redacteur", "tilleuls2025");
    const c = t.demo().campagnes.tilleuls2025;
    const a = await saveParcelle(scopeOf(db, u), { surface: 1, libelle: "Campagne dates A" });
    const act = (date: string, anneeRecolte: number) => insertId(db, "action", { idCampagne: c, idParcelle: a, date, anneeRecolte });
    // No stored last-action year: the latest harvest year of the campaign's interventions (here 2031, after the demo's).
    const late = await act("2030-10-01", 2031);
    const kept = await act("2030-04-01", 2030);
    const day = async (id: number) => {
      const r = await db("action").where({ id }).first("date", "anneeRecolte");
      const d =
        r.date instanceof Date
          ? `${r.date.getFullYear()}-${String(r.date.getMonth() + 1).padStart(2, "0")}-${String(r.date.getDate()).padStart(2, "0")}`
          : String(r.date).slice(0, 10);
      return [d, Number(r.anneeRecolte)];
    };
    expect(await majDatesCampagne(scopeOf(db, u), { anneeRecolteCible: "2033" })).toBe(1);
    expect(await day(late)).toEqual(["2032-10-01", 2033]);
    expect(await day(kept)).toEqual(["2030-04-01", 2030]);
    expect(Number((await db("campagne").where({ id: c }).first("anneeDerniereAction")).anneeDerniereAction)).toBe(2033);
    expect((await getParcelles(scopeOf(db, u))).rows.every((r) => r.anneeDerniereAction === 2033)).toBe(true);
    // Then the stored last-action year (2033) is the one that moves.
    expect(await majDatesCampagne(scopeOf(db, u), { anneeRecolteCible: 2032 })).toBe(1);
    expect(await day(late)).toEqual(["2031-10-01", 2032]);
    // Required and numeric; a reader is refused and nothing changes.
    await expectRefused(majDatesCampagne(scopeOf(db, u), { anneeRecolteCible: "x" }), "warning.invalid-form", 400, {
      fieldErrors: { anneeRecolteCible: ["warning.numeric"] },
    });
    const before = await snapshot(db, "action", "campagne");
    await expectRefused(majDatesCampagne(scopeOf(db, await contextFor("lecteur", "tilleuls2025")), { anneeRecolteCible: 2034 }), "errors.forbidden", 403);
    expect(await snapshot(db, "action", "campagne")).toEqual(before);
  });

  test("[B-PLOT-06] [B-PLOT-07] the date update needs both years, numeric; a plot of another campaign changes nothing", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const a = await saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "Dates D" });
    await expectRefused(majDatesActions(scopeOf(t.db(), u), { ids: [a], anneeFinale: "x" }), "warning.invalid-form", 400, {
      fieldErrors: { anneeInitiale: ["warning.required"], anneeFinale: ["warning.numeric"] },
    });
    const foreign = await plot(t.demo().campagnes.tilleuls2024, "Ailleurs");
    const before = await snapshot(t.db(), ...PLOT_TABLES);
    await expectRefused(
      majDatesActions(scopeOf(t.db(), u), { ids: [a, foreign], anneeInitiale: 2024, anneeFinale: 2025 }),
      "errors.services.parcelle-update-service-error",
      404,
    );
    expect(await snapshot(t.db(), ...PLOT_TABLES)).toEqual(before);
  });

  test("[B-PLOT-03] cost centres: one target crop per plot among its mode's crops, the main crop by default", async () => {
    const u = await contextFor("redacteur", "tilleuls2025");
    const c = t.demo().campagnes.tilleuls2025;
    const principale =
      (await t.db()("categorie_culture").where({ code: "principale" }).first("id"))?.id ??
      (await insertId(t.db(), "categorie_culture", { code: "principale", libelle: "Principale" }));
    const inter =
      (await t.db()("categorie_culture").where({ code: "intermediaire" }).first("id"))?.id ??
      (await insertId(t.db(), "categorie_culture", { code: "intermediaire", libelle: "Intermédiaire" }));
    const moutarde = await insertId(t.db(), "culture", { libelle: "Moutarde test" });
    const ble = await insertId(t.db(), "culture", { libelle: "Blé test" });
    const mode = await insertId(t.db(), "mode_conduite", { idCampagne: c, libelle: "Blé + CIPAN" });
    await t
      .db()("mode_conduite_culture")
      .insert([
        { idModeConduite: mode, idCulture: moutarde, idCatCulture: inter, ordre: 0 },
        { idModeConduite: mode, idCulture: ble, idCatCulture: principale, ordre: 1 },
      ]);
    const id = await saveParcelle(scopeOf(t.db(), u), { surface: 1, libelle: "Centre de coût", idModeConduite: mode });
    let row = (await getAffectations(scopeOf(t.db(), u))).find((r) => r.idParcelle === id)!;
    expect(row).toMatchObject({ idCulture: ble, enregistree: false, libelleModeConduite: "Blé + CIPAN" });
    expect(row.options.map((o) => o.id)).toEqual([moutarde, ble]);
    await saveAffectations(scopeOf(t.db(), u), [{ idParcelle: id, idCulture: moutarde }]);
    row = (await getAffectations(scopeOf(t.db(), u))).find((r) => r.idParcelle === id)!;
    expect(row).toMatchObject({ idCulture: moutarde, enregistree: true });
    const other = await insertId(t.db(), "culture", { libelle: "Hors mode" });
    await expectRefused(saveAffectations(scopeOf(t.db(), u), [{ idParcelle: id, idCulture: other }]), "warning.invalid-form", 400);
    expect(await countRows(t.db(), "affectation_culture_cible", { idParcelle: id, idCulture: moutarde })).toBe(1);
  });

  test("[B-RIGHTS-06] [A-RIGHTS-07] [A-RIGHTS-08] a reader and a locked campaign are refused every write, and nothing changes", async () => {
    const redacteur = await contextFor("redacteur", "tilleuls2025");
    const id = await saveParcelle(scopeOf(t.db(), redacteur), { surface: 1, libelle: "Protégée" });
    const lecteur = await contextFor("lecteur", "tilleuls2025");
    const before = await snapshot(t.db(), ...PLOT_TABLES);
    await expectRefused(saveParcelle(scopeOf(t.db(), lecteur), { surface: 1, libelle: "X" }), "errors.forbidden", 403);
    await expectRefused(removeParcelles(scopeOf(t.db(), lecteur), [id]), "errors.forbidden", 403);
    await expectRefused(majDatesActions(scopeOf(t.db(), lecteur), { ids: [id], anneeInitiale: 2024, anneeFinale: 2025 }), "errors.forbidden", 403);
    await expectRefused(saveAffectations(scopeOf(t.db(), lecteur), []), "errors.forbidden", 403);
    const animateur = await contextFor("animateur", "tilleuls2024");
    await expectRefused(saveParcelle(scopeOf(t.db(), animateur), { surface: 1, libelle: "X" }), "errors.forbidden", 403);
    expect(await snapshot(t.db(), ...PLOT_TABLES)).toEqual(before);
    expect((await getParcelles(scopeOf(t.db(), lecteur))).canWrite).toBe(false);
    expect((await getHistoriqueTree(scopeOf(t.db(), lecteur), id))?.root.libelle).toBe("Protégée");
  });
});
