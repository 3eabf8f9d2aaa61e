import { describe, expect, test } from "vitest";
import { NewCampagneSchema } from "~/domain/partage";
import { demoUser, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { createCampagne as insertCampagne, createExploitation as insertExploitation, linkFarm } from "../demo/factories";
import type { Db } from "../db/knex";
import { duplicateExploitation } from "../exploitation/service";
import { createCampagne } from "./service";

/** The farm-description II tables in campaign and farm duplication (spec 1 §5, spec 3 §4.9; issue 5). */
const t = useTestDb();

async function insertId(db: Db, table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await db(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

/** A Beauce farm with a 2024 campaign holding a mode, a group, two plots, a feature, a cost centre and a harvest. */
async function farmWithPlots() {
  const db = t.db();
  const idExploitation = await insertExploitation(db, { libelle: `Ferme parcellaire ${Math.random()}` });
  await linkFarm(db, t.demo().dossiers.beauce, idExploitation, "animation");
  const c2024 = await insertCampagne(db, { idExploitation, anneeRecolte: 2024 });
  const idCulture = (await db("culture").first("id"))?.id ?? (await insertId(db, "culture", { id: 990001, libelle: "Culture d'essai" }));
  const idTypeSortie = (await db("type_sortie").first("id"))?.id ?? (await insertId(db, "type_sortie", { id: 990001, libelle: "Grain" }));
  const mode = await insertId(db, "mode_conduite", { idCampagne: c2024, libelle: "Blé" });
  await insertId(db, "mode_conduite_culture", { idModeConduite: mode, idCulture });
  await insertId(db, "mode_conduite_assurance", { idModeConduite: mode, idCulture, idTypeSortie, rendementAssure: 7.5 });
  const lot = await insertId(db, "lot_parcelle", { idCampagne: c2024, libelle: "Îlot 1" });
  const p1 = await insertId(db, "parcelle", { idCampagne: c2024, libelle: "Grande pièce", idModeConduite: mode, idLot: lot, surface: 12.5 });
  const p2 = await insertId(db, "parcelle", { idCampagne: c2024, libelle: "Petite pièce", surface: 3 });
  await insertId(db, "amenagement", {
    idCampagne: c2024,
    libelle: "Haie",
    idTypeAmenagement:
      (await db("type_amenagement").first("id"))?.id ?? (await insertId(db, "type_amenagement", { id: 990001, iaeNom: "Haie", uniteSurface: "ml" })),
    idParcelleAdjacente: p1,
  });
  await insertId(db, "affectation_culture_cible", { idParcelle: p1, idCulture });
  const action = await insertId(db, "action", { idCampagne: c2024, idParcelle: p1, date: "2024-07-15", anneeRecolte: 2024 });
  await insertId(db, "recolte", { idAction: action, idCulture, dicIdTypeSortie: idTypeSortie, rendement: 8.1 });
  return { idExploitation, c2024, mode, lot, p1, p2, ctx: { idDossier: t.demo().dossiers.beauce, idExploitation } };
}

const dateText = (d: unknown) =>
  d instanceof Date ? `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}` : String(d).slice(0, 10);

describe(`plots in campaign duplication (${dialect})`, () => {
  test("[A-CAMP-12] [A-CAMP-13] a new year copied from last year gets its modes, groups, plots (history linked to their source), features, cost centres, and with the option its harvests moved a year", async () => {
    const db = t.db();
    const f = await farmWithPlots();
    const animateur = await demoUser(db, "animateur");
    const input = NewCampagneSchema.parse({
      anneeRecolte: 2025,
      campagneSource: f.c2024,
      inter: true,
      majDtInter: true,
      obs: false,
      eltObserve: false,
      valeur: false,
      prix: false,
    });
    const c2025 = await createCampagne(scopeOf(db, animateur), f.ctx, input);

    const [mode] = await db("mode_conduite").where({ idCampagne: c2025 });
    expect(mode.libelle).toBe("Blé");
    expect(await db("mode_conduite_culture").where({ idModeConduite: mode.id })).toHaveLength(1);
    expect(Number((await db("mode_conduite_assurance").where({ idModeConduite: mode.id }).first()).rendementAssure)).toBe(7.5);
    const [lot] = await db("lot_parcelle").where({ idCampagne: c2025 });
    const plots = await db("parcelle").where({ idCampagne: c2025 }).orderBy("libelle");
    expect(plots.map((p) => [p.libelle, p.idModeConduite, p.idLot, p.idPlotSource])).toEqual([
      ["Grande pièce", mode.id, lot.id, f.p1],
      ["Petite pièce", null, null, f.p2],
    ]);
    const history = await db("parcelle_historique")
      .whereIn(
        "idParcelle",
        plots.map((p) => p.id),
      )
      .orderBy("idParcelleHistorique");
    expect(history.map((h) => [h.idParcelle, h.idParcelleHistorique])).toEqual([
      [plots[0].id, f.p1],
      [plots[1].id, f.p2],
    ]);
    expect((await db("amenagement").where({ idCampagne: c2025 }).first()).idParcelleAdjacente).toBe(plots[0].id);
    expect(await db("affectation_culture_cible").where({ idParcelle: plots[0].id })).toHaveLength(1);
    const [action] = await db("action").where({ idCampagne: c2025 });
    expect([action.idParcelle, dateText(action.date), Number(action.anneeRecolte)]).toEqual([plots[0].id, "2025-07-15", 2025]);
    expect(Number((await db("recolte").where({ idAction: action.id }).first()).rendement)).toBe(8.1);
    // The source campaign is untouched.
    expect(await db("parcelle").where({ idCampagne: f.c2024 })).toHaveLength(2);
  });

  test("[C-SCEN-02] a simulation of a year keeps its plots' links to the previous year; without the interventions option no harvest is copied", async () => {
    const db = t.db();
    const f = await farmWithPlots();
    const animateur = await demoUser(db, "animateur");
    const base = NewCampagneSchema.parse({
      anneeRecolte: 2025,
      campagneSource: f.c2024,
      inter: false,
      majDtInter: false,
      obs: false,
      eltObserve: false,
      valeur: false,
      prix: false,
    });
    const c2025 = await createCampagne(scopeOf(db, animateur), f.ctx, base);
    const simInput = NewCampagneSchema.parse({
      anneeRecolte: 2025,
      campagneSource: c2025,
      inter: false,
      majDtInter: false,
      obs: false,
      eltObserve: false,
      valeur: false,
      prix: false,
    });
    const sim = await createCampagne(scopeOf(db, animateur), f.ctx, simInput);
    expect((await db("campagne").where({ id: sim }).first()).simulation).toBeTruthy();
    const plots = await db("parcelle").where({ idCampagne: sim }).orderBy("libelle");
    const history = await db("parcelle_historique")
      .whereIn(
        "idParcelle",
        plots.map((p) => p.id),
      )
      .orderBy("idParcelleHistorique");
    expect(history.map((h) => h.idParcelleHistorique)).toEqual([f.p1, f.p2]);
    expect(await db("action").where({ idCampagne: sim })).toHaveLength(0);
    expect(await db("action").where({ idCampagne: c2025 })).toHaveLength(0);
  });

  test("[C-SCEN-12] a duplicated farm's plots link to the copies of last year's plots, never into the source farm", async () => {
    const db = t.db();
    const f = await farmWithPlots();
    const animateur = await demoUser(db, "animateur");
    const c2025 = await createCampagne(
      scopeOf(db, animateur),
      f.ctx,
      NewCampagneSchema.parse({
        anneeRecolte: 2025,
        campagneSource: f.c2024,
        inter: false,
        majDtInter: false,
        obs: false,
        eltObserve: false,
        valeur: false,
        prix: false,
      }),
    );
    const { id } = await duplicateExploitation(scopeOf(db, animateur), f.ctx, {
      libelle: "Copie parcellaire",
      idTypeExploitation: 1,
      idOad: t.demo().oads.reseauDemo,
      idDossier: t.demo().dossiers.beauce,
      campagnesCibles: [c2025, f.c2024],
    });
    const copies = await db("campagne").where({ idExploitation: id }).orderBy("anneeRecolte");
    const plots2024 = await db("parcelle").where({ idCampagne: copies[0].id });
    const plots2025 = await db("parcelle").where({ idCampagne: copies[1].id });
    const history = await db("parcelle_historique").whereIn(
      "idParcelle",
      plots2025.map((p) => p.id),
    );
    expect(history).toHaveLength(2);
    for (const h of history) expect(plots2024.map((p) => p.id)).toContain(h.idParcelleHistorique);
  });
});
