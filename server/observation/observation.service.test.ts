import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ELEMENT, SerieSchema, type SerieInput } from "~/domain/observation";
import { parse } from "../errors";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { countRows, expectRefused, selectTilleuls, snapshot, scopeOf } from "../../tests/helpers/service";
import { fichierPourTelechargement, getFichiers, purgeOrphanFiles, removeFichier, uploadFichier } from "./files";
import { exportSeries, importSeries } from "./transfer";
import { createCampagne } from "../campagne/service";
import { NewCampagneSchema } from "~/domain/partage";
import { demoUser } from "../../tests/helpers/service";
import {
  copierSeries,
  getMesures,
  removeObservations,
  removePlacette,
  removeSeries,
  saveDossierObservation,
  saveHorizon,
  savePlacette,
  saveObservationsGrid,
  saveSerie,
} from "./service";

// Attached files go under this test's own DATA_DIR (read lazily by env()).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-obs-"));
process.env.DATA_DIR = dataDir;

const t = useTestDb();

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

async function plots() {
  const idCampagne = t.demo().campagnes.tilleuls2025;
  const rows = await t
    .db()("parcelle")
    .where({ idCampagne })
    .orderBy([{ column: "libelle" }, { column: "id" }])
    .select("id");
  return rows.map((r) => Number(r.id));
}

const serie = (idParcelle: number, extra: Record<string, unknown> = {}): SerieInput =>
  parse(SerieSchema, { idParcelle, date: "15/04/2025", dicIdTypeSerie: "1130", nom: "Analyse de plante", ...extra });

const rows = (...values: Record<string, unknown>[]) => values.map((v, i) => ({ id: -(i + 1), updatedAt: null, values: v }));

describe(`observation series (${dialect})`, () => {
  test("the demo fills the measures screen: series of several types on every plot, placettes and values on the first", async () => {
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const data = await getMesures(scopeOf(t.db(), redacteur));
    expect(new Set(data.series.map((s) => s.dicIdTypeSerie)).size).toBeGreaterThanOrEqual(5);
    expect(data.placettes).toHaveLength(2);
    const perPlacette = data.series.find((s) => s.isPlacetteSelected)!;
    const detail = (await getMesures(scopeOf(t.db(), redacteur), { serieId: perPlacette.id })).detail!;
    expect(detail.observations.length).toBeGreaterThan(0);
    expect(detail.observations.every((o) => data.placettes.every((p) => typeof o[`p${p.id}`] === "number"))).toBe(true);
    for (const id of await plots()) expect((await getMesures(scopeOf(t.db(), redacteur), { parcelleId: id })).series.length).toBeGreaterThan(0);
  });

  test("[B-OBS-03] [B-OBS-04] [B-OBS-05] [B-OBS-06] [B-OBS-07] [B-OBS-40] [B-OBS-41] [B-OBS-43] [C-CONST-10] [B-PLAC-04] the screen shows the first plot, its series, placettes, interventions and crops with Interculture, and the reference lists", async () => {
    const [first, second] = await plots();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const pl = await savePlacette(scopeOf(t.db(), redacteur), second, { libelle: "Placette A" });
    const id = await saveSerie(scopeOf(t.db(), redacteur), serie(second));
    const data = await getMesures(scopeOf(t.db(), redacteur));
    expect(data.idParcelle).toBe(first);
    expect(data.detail).toBeNull();
    const other = await getMesures(scopeOf(t.db(), redacteur), { parcelleId: second, serieId: id });
    expect(other.idParcelle).toBe(second);
    expect(other.series.map((s) => s.id)).toContain(id);
    expect(other.placettes.map((p) => p.id)).toContain(pl);
    expect(other.detail?.idSerie).toBe(id);
    expect(other.cultures.some((c) => c.interculture)).toBe(true);
    expect(other.types.map((x) => x.id)).toEqual(expect.arrayContaining([1124, 1125, 1126, 1127, 1128, 1129, 1130, 1131, 1133, 3040]));
    expect(other.organes.length).toBeGreaterThan(3);
    expect(other.modesConduite.length).toBeGreaterThan(0);
    // Offered elements: sorted by label, with up to three units; crop-stage elements in %.
    const labels = other.elements.map((e) => e.libelle);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, "fr")));
    const harvest = other.elements.filter((e) => e.idType === 1128).map((e) => e.element);
    expect(harvest).toEqual(expect.arrayContaining([1680, 1192, 1190, 1191, 1193, 1685]));
    expect(other.elements.find((e) => e.idType === 1128 && e.element === 1680)?.unites).toEqual(["t/ha", "q/ha"]);
    expect(other.elements.filter((e) => e.idType === 1125).every((e) => e.unites.length === 1 && e.unites[0] === "%")).toBe(true);
    // A plot that is not of the campaign falls back to the first.
    expect((await getMesures(scopeOf(t.db(), redacteur), { parcelleId: 999999 })).idParcelle).toBe(first);
  });

  test("[B-OBS-14] [B-OBS-15] [B-OBS-16] [B-OBS-17] [B-OBS-18] [B-OBS-19] [B-OBS-20] [B-OBS-23] [B-OBS-30] [B-OBS-22] [B-PLAC-06] a series keeps the fields of its type; organ and laboratory are observations; the type of a saved series stays", async () => {
    const [p] = await plots();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const data = await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p });
    const ble = data.cultures.find((c) => c.idEchelleStadeAee === 1)!;
    const stade = data.stades.find((s) => s.idEchelleStadeAee === 1)!;
    const id = await saveSerie(
      scopeOf(t.db(), redacteur),
      serie(p, { idCulture: String(ble.id), idStade: String(stade.id), organeEtudie: "2", laboratoire: "Labo Beauce" }),
    );
    const organ = await t.db()("observation").where({ idObservationSerie: id, dicoIdEltObserve: ELEMENT.organe }).first("obsValNum");
    expect(Number(organ.obsValNum)).toBe(2);
    const lab = await t.db()("observation").where({ idObservationSerie: id, dicoIdEltObserve: ELEMENT.laboratoire }).first("obsValTxt");
    expect(lab.obsValTxt).toBe("Labo Beauce");
    // Type 1125 shows only the stage: organ and laboratory are dropped.
    const stage = await saveSerie(
      scopeOf(t.db(), redacteur),
      serie(p, { dicIdTypeSerie: "1125", nom: "Stade", idCulture: String(ble.id), idStade: String(stade.id), organeEtudie: "2", laboratoire: "X" }),
    );
    expect(await countRows(t.db(), "observation", { idObservationSerie: stage })).toBe(0);
    expect((await t.db()("observation_serie").where({ id: stage }).first("idStade")).idStade).toBe(stade.id);
    // Type 1131 shows none of the three.
    const weeds = await saveSerie(
      scopeOf(t.db(), redacteur),
      serie(p, { dicIdTypeSerie: "1131", nom: "Adventices", idCulture: String(ble.id), idStade: String(stade.id), organeEtudie: "2" }),
    );
    expect((await t.db()("observation_serie").where({ id: weeds }).first("idStade")).idStade).toBeNull();
    // Update: the type does not change; clearing the laboratory removes its observation.
    const [row] = (await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p })).series.filter((s) => s.id === id);
    await saveSerie(scopeOf(t.db(), redacteur), serie(p, { dicIdTypeSerie: "1131", nom: "Renommée", idCulture: String(ble.id) }), {
      id,
      updatedAt: row.updatedAt,
    });
    const after = await t.db()("observation_serie").where({ id }).first("dicIdTypeSerie", "nom");
    expect(after).toEqual({ dicIdTypeSerie: 1130, nom: "Renommée" });
    expect(await countRows(t.db(), "observation", { idObservationSerie: id, dicoIdEltObserve: ELEMENT.laboratoire })).toBe(0);
    // A stage of another scale, a crop outside the campaign, an intervention of another plot are refused.
    const other = data.stades.find((s) => s.idEchelleStadeAee !== 1)!;
    await expectRefused(
      saveSerie(scopeOf(t.db(), redacteur), serie(p, { idCulture: String(ble.id), idStade: String(other.id) })),
      "warning.invalid-form",
      400,
      { fieldErrors: { idStade: ["warning.invalid"] } },
    );
    await expectRefused(saveSerie(scopeOf(t.db(), redacteur), serie(p, { idStade: String(stade.id), idCulture: "999999" })), "warning.invalid-form", 400, {
      fieldErrors: { idCulture: ["warning.invalid"] },
    });
    // A stale save is refused.
    await expectRefused(saveSerie(scopeOf(t.db(), redacteur), serie(p), { id, updatedAt: row.updatedAt }), "errors.stale", 409);
    // The intervention picker: the plot's interventions only; one of another plot is refused.
    const plotActions = (await t.db()("action").where({ idParcelle: p }).pluck("id")).map(Number);
    expect(data.interventions.map((a) => a.id).sort()).toEqual(plotActions.sort());
    const foreign = await t.db()("action").whereNot({ idParcelle: p }).where({ idCampagne: t.demo().campagnes.tilleuls2025 }).first("id");
    await expectRefused(saveSerie(scopeOf(t.db(), redacteur), serie(p, { idAction: String(foreign.id) })), "warning.invalid-form", 400, {
      fieldErrors: { idAction: ["warning.invalid"] },
    });
    if (plotActions.length) expect(await saveSerie(scopeOf(t.db(), redacteur), serie(p, { idAction: String(plotActions[0]) }))).toBeGreaterThan(0);
    // Stages come by the crop's scale.
    expect(data.stades.filter((x) => x.idEchelleStadeAee === ble.idEchelleStadeAee).length).toBeGreaterThan(5);
    // Placette mode is chosen on a new series only: an update keeps it.
    const plain = await saveSerie(scopeOf(t.db(), redacteur), serie(p, { nom: "Sans placettes" }));
    const plainRow = (await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p })).series.find((x) => x.id === plain)!;
    await saveSerie(scopeOf(t.db(), redacteur), serie(p, { nom: "Sans placettes", isPlacetteSelected: "on" }), { id: plain, updatedAt: plainRow.updatedAt });
    expect((await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p })).series.find((x) => x.id === plain)!.isPlacetteSelected).toBe(false);
  });

  test("[B-OBS-31] [B-OBS-42] [B-OBS-44] [B-OBS-46] [B-OBS-47] [B-PLAC-03] [B-PLAC-05] [B-PLAC-09] [B-PLAC-10] [B-PLAC-11] [B-HOR-04] [B-HOR-05] the observations grid saves in one transaction: placette values, weed classes, horizons; a stale or invalid row changes nothing", async () => {
    const [p] = await plots();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const a = await savePlacette(scopeOf(t.db(), redacteur), p, {
      libelle: "Nord",
      geometrie: JSON.stringify({
        type: "Polygon",
        coordinates: [
          [
            [1.5, 48.1],
            [1.51, 48.1],
            [1.51, 48.11],
            [1.5, 48.1],
          ],
        ],
      }),
    });
    const b = await savePlacette(scopeOf(t.db(), redacteur), p, { libelle: "Sud" });
    const storedPlacette = await t.db()("placette").where({ id: a }).first();
    expect(storedPlacette).toMatchObject({
      libelle: "Nord",
      idParcelle: p,
      idCampagne: t.demo().campagnes.tilleuls2025,
      idExploitation: t.demo().exploitations.tilleuls,
    });
    expect(JSON.parse(storedPlacette.geometrie).type).toBe("Polygon");
    // Read, update, delete through the placettes resource; a point is no placette outline.
    const c = await savePlacette(scopeOf(t.db(), redacteur), p, { libelle: "Temporaire" });
    const cRow = (await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p })).placettes.find((x) => x.id === c)!;
    await savePlacette(scopeOf(t.db(), redacteur), p, { libelle: "Renommée" }, { id: c, updatedAt: cRow.updatedAt });
    expect((await t.db()("placette").where({ id: c }).first("libelle")).libelle).toBe("Renommée");
    await expectRefused(
      savePlacette(scopeOf(t.db(), redacteur), p, { libelle: "Point", geometrie: JSON.stringify({ type: "Point", coordinates: [1, 48] }) }),
      "warning.invalid-form",
      400,
    );
    await removePlacette(scopeOf(t.db(), redacteur), c);
    expect(await countRows(t.db(), "placette", { id: c })).toBe(0);
    const id = await saveSerie(scopeOf(t.db(), redacteur), serie(p, { isPlacetteSelected: "on", placettes: `${a},${b}` }));
    const { saved } = await saveObservationsGrid(
      scopeOf(t.db(), redacteur),
      id,
      rows({ element: 2101, valeur: 3.2, unite: "% MS", [`p${a}`]: 3.1, [`p${b}`]: "3,4" }, { element: 2102, valeur: 180, remarque: "sortie hiver" }),
    );
    expect(saved).toHaveLength(2);
    const detail = (await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p, serieId: id })).detail!;
    expect(detail.observations.map((o) => [o.element, o.valeur, o.unite, o[`p${a}`], o[`p${b}`]])).toEqual([
      [2101, 3.2, "% MS", 3.1, 3.4],
      [2102, 180, "kg N/ha", undefined, undefined],
    ]);
    // An element of another type, a unit the element has not, a text value: refused, nothing written.
    const before = await snapshot(t.db(), "observation");
    await expectRefused(saveObservationsGrid(scopeOf(t.db(), redacteur), id, rows({ element: 2010, valeur: 7 })), "warning.invalid-form", 400, {
      fieldErrors: { "patches.0.values.element": ["warning.invalid"] },
    });
    await expectRefused(saveObservationsGrid(scopeOf(t.db(), redacteur), id, rows({ element: 2101, valeur: 1, unite: "kg" })), "warning.invalid-form", 400);
    await expectRefused(saveObservationsGrid(scopeOf(t.db(), redacteur), id, rows({ element: 2101, valeur: "abc" })), "warning.invalid-form", 400);
    await expectRefused(saveObservationsGrid(scopeOf(t.db(), redacteur), id, rows({ valeur: 1 })), "warning.invalid-form", 400);
    expect(await countRows(t.db(), "observation", { idObservationSerie: id })).toBe(
      before.observation.filter((o) => (o as { idObservationSerie: number }).idObservationSerie === id).length,
    );
    // [issue29-conflicts] A stale row is set aside with the stored values; the new row is saved.
    const first = detail.observations[0];
    await saveObservationsGrid(scopeOf(t.db(), redacteur), id, [{ id: first.id, updatedAt: first.updatedAt, values: { ...first, valeur: 3.3 } }]);
    const stale = await saveObservationsGrid(scopeOf(t.db(), redacteur), id, [
      { id: first.id, updatedAt: first.updatedAt, values: { ...first, valeur: 9 } },
      ...rows({ element: 2102, valeur: 1 }),
    ]);
    expect(stale.saved.map((r) => r.index)).toEqual([1]);
    expect(stale.conflicts).toEqual([
      { index: 0, id: first.id, key: "errors.stale", updatedAt: expect.any(String), values: expect.objectContaining({ valeur: 3.3 }) },
    ]);
    expect(Number((await t.db()("observation").where({ id: first.id }).first("obsValNum")).obsValNum)).toBe(3.3);
    await removeObservations(scopeOf(t.db(), redacteur), id, [stale.saved[0].id]);

    // Weed series: density and efficacy from their lists, the weed's stage.
    const weeds = await saveSerie(scopeOf(t.db(), redacteur), serie(p, { dicIdTypeSerie: "1131", nom: "Adventices" }));
    const ref = await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p });
    const vulpin = ref.adventices[0];
    await saveObservationsGrid(
      scopeOf(t.db(), redacteur),
      weeds,
      rows(
        { element: ELEMENT.densiteAdventice, idAdventice: vulpin.id, stadeAdventice: vulpin.stades[1].id, classe: "d4" },
        { element: ELEMENT.efficaciteDesherbage, classe: "e5" },
      ),
    );
    const w = (await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p, serieId: weeds })).detail!.observations;
    expect(w.map((o) => [o.classe, o.idAdventice, o.stadeAdventice])).toEqual([
      ["d4", vulpin.id, vulpin.stades[1].id],
      ["e5", null, null],
    ]);
    const stored = await t.db()("observation").where({ idObservationSerie: weeds, dicoIdEltObserve: ELEMENT.densiteAdventice }).first("obsValNum");
    expect(Number(stored.obsValNum)).toBe(vulpin.densites[3].id);
    await expectRefused(
      saveObservationsGrid(scopeOf(t.db(), redacteur), weeds, rows({ element: ELEMENT.densiteAdventice, classe: "e1", idAdventice: vulpin.id })),
      "warning.invalid-form",
      400,
    );
    await expectRefused(
      saveObservationsGrid(
        scopeOf(t.db(), redacteur),
        weeds,
        rows({ element: ELEMENT.densiteAdventice, classe: "d1", idAdventice: vulpin.id, stadeAdventice: ref.adventices[5].stades[0].id }),
      ),
      "warning.invalid-form",
      400,
    );

    // Soil series: horizons with their limits as observations; the upper limit not below the lower.
    const soil = await saveSerie(scopeOf(t.db(), redacteur), serie(p, { dicIdTypeSerie: "1124", nom: "Analyse de sol" }));
    const h = await saveHorizon(scopeOf(t.db(), redacteur), soil, { name: "0-30 cm", limiteSup: 30, limiteInf: 0 });
    await expectRefused(saveHorizon(scopeOf(t.db(), redacteur), soil, { name: "x", limiteSup: 10, limiteInf: 20 }), "warning.invalid-form", 400, {
      fieldErrors: { limiteSup: ["observations.horizon.sup-sous-inf"], limiteInf: ["observations.horizon.inf-sur-sup"] },
    });
    await expectRefused(saveHorizon(scopeOf(t.db(), redacteur), soil, { name: "" }), "warning.invalid-form", 400);
    await expectRefused(saveHorizon(scopeOf(t.db(), redacteur), id, { name: "y" }), "observations.horizon.sol-seulement", 400);
    const limits = await t.db()("observation").where({ idHorizon: h }).orderBy("dicoIdEltObserve").select("dicoIdEltObserve", "obsValNum");
    expect(limits.map((l) => [Number(l.dicoIdEltObserve), Number(l.obsValNum)])).toEqual([
      [ELEMENT.limiteSup, 30],
      [ELEMENT.limiteInf, 0],
    ]);
    await saveObservationsGrid(scopeOf(t.db(), redacteur), soil, rows({ element: 2010, valeur: 6.8, idHorizon: h }));
    const sd = (await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p, serieId: soil })).detail!;
    expect(sd.horizons).toEqual([expect.objectContaining({ id: h, name: "0-30 cm", limiteSup: 30, limiteInf: 0 })]);
    expect(sd.observations.map((o) => [o.element, o.idHorizon])).toEqual([[2010, h]]);

    // Unticking a placette removes its values (B-PLAC-09); deleting a row takes its placette values.
    const s = (await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p })).series.find((x) => x.id === id)!;
    await saveSerie(scopeOf(t.db(), redacteur), serie(p, { isPlacetteSelected: "on", placettes: `${a}` }), { id, updatedAt: s.updatedAt });
    expect(await countRows(t.db(), "observation", { idObservationSerie: id, idPlacette: b })).toBe(0);
    expect(await countRows(t.db(), "observation", { idObservationSerie: id, idPlacette: a })).toBe(1);
    await removeObservations(scopeOf(t.db(), redacteur), id, [first.id]);
    expect(await countRows(t.db(), "observation", { idObservationSerie: id, idPlacette: a })).toBe(0);
  });

  test("[B-PLAC-07] a series is in plot mode when one of its observations belongs to a placette or another plot than the selected one", async () => {
    const [p, other] = await plots();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const a = await savePlacette(scopeOf(t.db(), redacteur), p, { libelle: "Est" });
    const id = await saveSerie(scopeOf(t.db(), redacteur), serie(p, { nom: "Sans case cochée" }));
    const {
      saved: [row],
    } = await saveObservationsGrid(scopeOf(t.db(), redacteur), id, rows({ element: 2101, valeur: 3.2, unite: "% MS" }));
    const mode = async (serieId: number) => (await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p })).series.find((x) => x.id === serieId)!;
    // Observations of the selected plot only: parcel mode.
    expect(await mode(id)).toMatchObject({ isPlacetteSelected: false, placettes: [] });
    // A value recorded on a placette (written by another tool, the series' box never ticked): plot mode, with that placette.
    await t.db()("observation").insert({
      idObservationSerie: id,
      idParcelle: p,
      idObservationParent: row.id,
      idPlacette: a,
      dicoIdEltObserve: 2101,
      obsValNum: 3.5,
      date: "2025-04-15",
    });
    expect(await mode(id)).toMatchObject({ isPlacetteSelected: true, placettes: [a] });
    const detail = (await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p, serieId: id })).detail!;
    expect(detail.observations[0][`p${a}`]).toBe(3.5);
    // An observation of another plot than the selected one: plot mode too.
    const id2 = await saveSerie(scopeOf(t.db(), redacteur), serie(p, { nom: "Autre parcelle" }));
    expect((await mode(id2)).isPlacetteSelected).toBe(false);
    await t.db()("observation").insert({ idObservationSerie: id2, idParcelle: other, dicoIdEltObserve: 2102, obsValNum: 150, date: "2025-04-15" });
    expect((await mode(id2)).isPlacetteSelected).toBe(true);
  });

  test("[B-RIGHTS-01] [B-RIGHTS-02] [B-RIGHTS-07] [B-OBS-09] a reader and a locked campaign are refused every write; series deletion is all or nothing", async () => {
    const [p] = await plots();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const a = await saveSerie(scopeOf(t.db(), redacteur), serie(p));
    const b = await saveSerie(scopeOf(t.db(), redacteur), serie(p, { nom: "Deuxième" }));
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    expect((await getMesures(scopeOf(t.db(), lecteur))).canWrite).toBe(false);
    const before = await snapshot(t.db(), "observation_serie", "observation", "placette");
    await expectRefused(saveSerie(scopeOf(t.db(), lecteur), serie(p)), "errors.forbidden", 403);
    await expectRefused(removeSeries(scopeOf(t.db(), lecteur), [a]), "errors.forbidden", 403);
    await expectRefused(saveObservationsGrid(scopeOf(t.db(), lecteur), a, rows({ element: 2101, valeur: 1 })), "errors.forbidden", 403);
    await expectRefused(savePlacette(scopeOf(t.db(), lecteur), p, { libelle: "x" }), "errors.forbidden", 403);
    await t.db()("campagne").where({ id: t.demo().campagnes.tilleuls2025 }).update({ serieValide: true });
    await expectRefused(saveSerie(scopeOf(t.db(), redacteur), serie(p)), "errors.forbidden", 403);
    await t.db()("campagne").where({ id: t.demo().campagnes.tilleuls2025 }).update({ serieValide: false });
    await expectRefused(removeSeries(scopeOf(t.db(), redacteur), [a, 999999]), "errors.services.observations-delete-service-error", 404);
    expect(await snapshot(t.db(), "observation_serie", "observation", "placette")).toEqual(before);
    await removeSeries(scopeOf(t.db(), redacteur), [a, b]);
    expect(await countRows(t.db(), "observation_serie", { id: a })).toBe(0);
    expect(await countRows(t.db(), "observation_serie", { id: b })).toBe(0);
  });

  test("[B-FILE-01] [B-FILE-03] [B-FILE-04] [B-FILE-05] [B-FILE-06] [B-FILE-07] [B-RIGHTS-13] [B-ERR-17] attached files: checked name, type and bytes; download identical; only the author deletes; a reader cannot write; a deleted series takes its files", async () => {
    const [p] = await plots();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const id = await saveSerie(scopeOf(t.db(), redacteur), serie(p));
    const fid = await uploadFichier(scopeOf(t.db(), redacteur), id, { name: "Résultats labo.pdf", bytes: PDF });
    const list = await getFichiers(scopeOf(t.db(), redacteur), id);
    expect(list).toEqual([expect.objectContaining({ id: fid, nom: "Résultats labo.pdf", creePar: expect.objectContaining({ id: redacteur.id }) })]);
    const stored = await t.db()("fichier_attache_serie").where({ id: fid }).first("chemin");
    expect(stored.chemin).toMatch(/^[0-9a-f-]{36}\.pdf$/);
    const down = await fichierPourTelechargement(scopeOf(t.db(), redacteur), fid);
    expect(down.nom).toBe("Résultats labo.pdf");
    expect(Buffer.compare(Buffer.from(down.bytes), Buffer.from(PDF))).toBe(0);
    await expectRefused(getFichiers(scopeOf(t.db(), redacteur), null), "observations.fichiers.sans-serie", 400);

    // Refused: a path in the name, a type not accepted, bytes that are not what the name says, too large.
    const files = () => fs.readdirSync(path.join(dataDir, "fichiers/series")).length;
    const rowsBefore = await countRows(t.db(), "fichier_attache_serie");
    const n = files();
    await expectRefused(uploadFichier(scopeOf(t.db(), redacteur), id, { name: "../../x.pdf", bytes: PDF }), "observations.fichiers.nom-refuse", 400);
    await expectRefused(
      uploadFichier(scopeOf(t.db(), redacteur), id, { name: "outil.exe", bytes: new Uint8Array([0x4d, 0x5a, 0, 0]) }),
      "observations.fichiers.type-refuse",
      400,
    );
    await expectRefused(
      uploadFichier(scopeOf(t.db(), redacteur), id, { name: "faux.pdf", bytes: new Uint8Array([0x4d, 0x5a, 0, 0]) }),
      "observations.fichiers.type-refuse",
      400,
    );
    await expectRefused(
      uploadFichier(scopeOf(t.db(), redacteur), id, { name: "gros.pdf", bytes: new Uint8Array(11 * 1024 * 1024).fill(0x25) }),
      "observations.fichiers.trop-gros",
      413,
    );
    expect(files()).toBe(n);
    expect(await countRows(t.db(), "fichier_attache_serie")).toBe(rowsBefore);

    // A reader reads but cannot upload or delete; another writer cannot delete the author's file.
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    expect(await getFichiers(scopeOf(t.db(), lecteur), id)).toHaveLength(1);
    await expectRefused(uploadFichier(scopeOf(t.db(), lecteur), id, { name: "a.pdf", bytes: PDF }), "errors.forbidden", 403);
    await expectRefused(removeFichier(scopeOf(t.db(), lecteur), fid), "errors.forbidden", 403);
    const animateur = await selectTilleuls(t, "animateur", "tilleuls2025");
    await expectRefused(removeFichier(scopeOf(t.db(), animateur), fid), "errors.forbidden", 403);
    // A file of another campaign is not reached from this one.
    const other = await selectTilleuls(t, "redacteur", "tilleuls2024");
    await expectRefused(fichierPourTelechargement(scopeOf(t.db(), other), fid), "errors.services.fichier-attache-service-error", 404);
    await selectTilleuls(t, "redacteur", "tilleuls2025");

    const second = await uploadFichier(scopeOf(t.db(), redacteur), id, { name: "notes.csv", bytes: new TextEncoder().encode("a;b\n1;2\n") });
    await removeFichier(scopeOf(t.db(), redacteur), second);
    expect(files()).toBe(n);
    await removeSeries(scopeOf(t.db(), redacteur), [id]);
    expect(files()).toBe(n - 1);
    expect(await countRows(t.db(), "fichier_attache_serie", { id: fid })).toBe(0);

    // A plot deleted takes its series' rows; the start-up purge removes their files (old enough), keeps the others.
    const s2 = await saveSerie(scopeOf(t.db(), redacteur), serie(p));
    const kept = await uploadFichier(scopeOf(t.db(), redacteur), s2, { name: "garde.pdf", bytes: PDF });
    const lost = await uploadFichier(scopeOf(t.db(), redacteur), s2, { name: "perdu.pdf", bytes: PDF });
    const lostPath = path.join(dataDir, "fichiers/series", (await t.db()("fichier_attache_serie").where({ id: lost }).first("chemin")).chemin);
    await t.db()("fichier_attache_serie").where({ id: lost }).delete();
    expect(await purgeOrphanFiles(t.db())).toBe(0); // too recent
    expect(await purgeOrphanFiles(t.db(), 0)).toBe(1);
    expect(fs.existsSync(lostPath)).toBe(false);
    expect((await fichierPourTelechargement(scopeOf(t.db(), redacteur), kept)).bytes.length).toBe(PDF.length);
  });

  test("[B-OBS-11] a copy of 50 series with their observations to another plot is complete, with or without values, and all or nothing", async () => {
    const [p, q] = await plots();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const ids: number[] = [];
    for (let i = 0; i < 50; i++) {
      const id = await saveSerie(scopeOf(t.db(), redacteur), serie(p, { nom: `Série ${i}`, organeEtudie: "1" }));
      await saveObservationsGrid(scopeOf(t.db(), redacteur), id, rows({ element: 2101, valeur: i }, { element: 2102, valeur: 100 + i }));
      ids.push(id);
    }
    const dossier = t.demo().dossiers.beauce;
    const before = await countRows(t.db(), "observation_serie", { idParcelle: q });
    // A missing series refuses the whole copy.
    await expectRefused(
      copierSeries(scopeOf(t.db(), redacteur), {
        idParcelle: q,
        dossierDestination: dossier,
        seriesSource: [...ids, 999999],
        eltObserve: true,
        valeur: true,
        suppressionSeriesParcellesDst: false,
      }),
      "warning.invalid-form",
      400,
    );
    expect(await countRows(t.db(), "observation_serie", { idParcelle: q })).toBe(before);
    const { count } = await copierSeries(scopeOf(t.db(), redacteur), {
      idParcelle: q,
      dossierDestination: dossier,
      seriesSource: ids,
      eltObserve: true,
      valeur: true,
      suppressionSeriesParcellesDst: true,
    });
    expect(count).toBe(50);
    const copies = await t.db()("observation_serie").where({ idParcelle: q }).pluck("id");
    expect(copies).toHaveLength(50);
    const obs = await t.db()("observation").whereIn("idObservationSerie", copies).whereNull("idHorizon").select("dicoIdEltObserve", "obsValNum");
    expect(
      obs
        .filter((o) => Number(o.dicoIdEltObserve) === 2101)
        .map((o) => Number(o.obsValNum))
        .sort((x, y) => x - y),
    ).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(obs.filter((o) => Number(o.dicoIdEltObserve) === ELEMENT.organe)).toHaveLength(50);
    // Elements without values.
    await copierSeries(scopeOf(t.db(), redacteur), {
      idParcelle: q,
      dossierDestination: dossier,
      seriesSource: ids.slice(0, 2),
      eltObserve: true,
      valeur: false,
      suppressionSeriesParcellesDst: true,
    });
    const two = await t.db()("observation_serie").where({ idParcelle: q }).pluck("id");
    expect(two).toHaveLength(2);
    const empty = await t.db()("observation").whereIn("idObservationSerie", two).whereIn("dicoIdEltObserve", [2101, 2102]).select("obsValNum");
    expect(empty).toHaveLength(4);
    expect(empty.every((o) => o.obsValNum === null)).toBe(true);
    // A reader may not copy.
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    await expectRefused(
      copierSeries(scopeOf(t.db(), lecteur), {
        idParcelle: q,
        dossierDestination: dossier,
        seriesSource: ids.slice(0, 1),
        eltObserve: true,
        valeur: true,
        suppressionSeriesParcellesDst: false,
      }),
      "errors.forbidden",
      403,
    );
  });

  test("[B-OBS-01] [B-OBS-10] export of ticked series and import into another plot: rows, horizons, organ and laboratory; a bad file changes nothing", async () => {
    const [p, q] = await plots();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const soil = await saveSerie(scopeOf(t.db(), redacteur), serie(p, { dicIdTypeSerie: "1124", nom: "Sol export", laboratoire: "Labo X" }));
    const h = await saveHorizon(scopeOf(t.db(), redacteur), soil, { name: "0-30", limiteSup: 30, limiteInf: 0 });
    await saveObservationsGrid(
      scopeOf(t.db(), redacteur),
      soil,
      rows({ element: 2010, valeur: 6.5, idHorizon: h }, { element: 2012, valeur: 2.2, unite: "%" }),
    );
    await expectRefused(exportSeries(scopeOf(t.db(), redacteur), []), "errors.not-found", 404);
    const file = await exportSeries(scopeOf(t.db(), redacteur), [soil]);
    expect(file.series[0]).toMatchObject({ nom: "Sol export", laboratoire: "Labo X", horizons: [{ name: "0-30", limiteSup: 30, limiteInf: 0 }] });
    expect(file.series[0].observations.map((o) => [o.element, o.valeur, o.horizon])).toEqual([
      [2010, 6.5, 0],
      [2012, 2.2, null],
    ]);
    const before = await countRows(t.db(), "observation_serie", { idParcelle: q });
    await expectRefused(importSeries(scopeOf(t.db(), redacteur), q, '{"format":"autre"}'), "observations.import.invalide", 400);
    const bad = { ...file, series: [{ ...file.series[0], observations: [{ ...file.series[0].observations[0], element: 999999 }] }] };
    await expectRefused(importSeries(scopeOf(t.db(), redacteur), q, JSON.stringify(bad)), "observations.import.invalide", 400);
    expect(await countRows(t.db(), "observation_serie", { idParcelle: q })).toBe(before);
    expect(await importSeries(scopeOf(t.db(), redacteur), q, JSON.stringify(file))).toBe(1);
    const data = await getMesures(scopeOf(t.db(), redacteur), { parcelleId: q });
    const imported = data.series.find((x) => x.nom === "Sol export")!;
    expect(imported.laboratoire).toBe("Labo X");
    const d = (await getMesures(scopeOf(t.db(), redacteur), { parcelleId: q, serieId: imported.id })).detail!;
    expect(d.horizons.map((x) => [x.name, x.limiteSup, x.limiteInf])).toEqual([["0-30", 30, 0]]);
    expect(d.observations.map((o) => [o.element, o.valeur, o.idHorizon === d.horizons[0].id])).toEqual([
      [2010, 6.5, true],
      [2012, 2.2, false],
    ]);
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    expect((await exportSeries(scopeOf(t.db(), lecteur), [soil])).series).toHaveLength(1);
    await expectRefused(importSeries(scopeOf(t.db(), lecteur), q, JSON.stringify(file)), "errors.forbidden", 403);
  });

  test("[B-OBS-48] [B-OBS-49] [B-OBS-50] [B-OBS-25] a folder observation (type and label required, unit and comment optional) is offered in the grid of its type only", async () => {
    const [p] = await plots();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    await expectRefused(saveDossierObservation(scopeOf(t.db(), redacteur), { dicIdTypeIntrant: 1126, libelle: "" } as never), "warning.invalid-form", 400);
    await expectRefused(saveDossierObservation(scopeOf(t.db(), redacteur), { libelle: "x" } as never), "warning.invalid-form", 400);
    const id = await saveDossierObservation(scopeOf(t.db(), redacteur), { dicIdTypeIntrant: 1126, libelle: "Oïdium (note dossier)" });
    const data = await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p });
    expect(data.elements.filter((e) => e.element === -id).map((e) => e.idType)).toEqual([1126]);
    const maladies = await saveSerie(scopeOf(t.db(), redacteur), serie(p, { dicIdTypeSerie: "1126", nom: "Maladies dossier" }));
    await saveObservationsGrid(scopeOf(t.db(), redacteur), maladies, rows({ element: -id, valeur: 3 }));
    expect((await getMesures(scopeOf(t.db(), redacteur), { parcelleId: p, serieId: maladies })).detail!.observations.map((o) => [o.element, o.valeur])).toEqual(
      [[-id, 3]],
    );
    // Another type's series does not take it (the elements follow the series' type).
    const plante = await saveSerie(scopeOf(t.db(), redacteur), serie(p));
    await expectRefused(saveObservationsGrid(scopeOf(t.db(), redacteur), plante, rows({ element: 2050, valeur: 3 })), "warning.invalid-form", 400);
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    await expectRefused(saveDossierObservation(scopeOf(t.db(), lecteur), { dicIdTypeIntrant: 1126, libelle: "x" }), "errors.forbidden", 403);
  });

  test("a new campaign copied from this one takes the placettes, and with the options the series, their rows and their values", async () => {
    const source = t.demo().campagnes.tilleuls2025;
    const animateur = await demoUser(t.db(), "animateur");
    const ctx = { idDossier: t.demo().dossiers.beauce, idExploitation: t.demo().exploitations.tilleuls };
    const count = async (idCampagne: number) => ({
      series: await countRows(t.db(), "observation_serie", { idCampagne }),
      placettes: await countRows(t.db(), "placette", { idCampagne }),
      rows: Number(
        (
          await t
            .db()("observation as o")
            .join("observation_serie as s", "s.id", "o.idObservationSerie")
            .where("s.idCampagne", idCampagne)
            .whereNotIn("o.dicoIdEltObserve", [1701, 1702, 1703, 1704])
            .count({ n: "*" })
            .first()
        )?.n,
      ),
      values: Number(
        (
          await t
            .db()("observation as o")
            .join("observation_serie as s", "s.id", "o.idObservationSerie")
            .where("s.idCampagne", idCampagne)
            .whereNotNull("o.obsValNum")
            .whereNotIn("o.dicoIdEltObserve", [1701, 1702, 1703, 1704])
            .count({ n: "*" })
            .first()
        )?.n,
      ),
    });
    const before = await count(source);
    expect(before.series).toBeGreaterThan(0);
    const base = { inter: false, majDtInter: false, prix: false };
    const full = await createCampagne(
      scopeOf(t.db(), animateur),
      ctx,
      NewCampagneSchema.parse({ ...base, anneeRecolte: 2026, campagneSource: source, obs: true, eltObserve: true, valeur: true }),
    );
    expect(await count(full)).toEqual(before);
    // Placette values point to the copies of their rows and placettes.
    const child = await t
      .db()("observation as o")
      .join("observation_serie as s", "s.id", "o.idObservationSerie")
      .join("placette as p", "p.id", "o.idPlacette")
      .where("s.idCampagne", full)
      .first("p.idCampagne");
    expect(child.idCampagne).toBe(full);
    const seriesOnly = await createCampagne(
      scopeOf(t.db(), animateur),
      ctx,
      NewCampagneSchema.parse({ ...base, anneeRecolte: 2027, campagneSource: source, obs: true, eltObserve: false, valeur: false }),
    );
    expect(await count(seriesOnly)).toEqual({ series: before.series, placettes: before.placettes, rows: 0, values: 0 });
    const none = await createCampagne(
      scopeOf(t.db(), animateur),
      ctx,
      NewCampagneSchema.parse({ ...base, anneeRecolte: 2028, campagneSource: source, obs: false, eltObserve: false, valeur: false }),
    );
    expect(await count(none)).toEqual({ series: 0, placettes: before.placettes, rows: 0, values: 0 });
  });
});
