import { describe, expect, test } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, scopeOf, selectTilleuls, snapshot } from "../../tests/helpers/service";
import { getInterventions, getInterventionsPacked, saveInterventionsGrid } from "./service";
import { decodeChoices, decodeInterventions } from "~/domain/contracts/interventions-codec";
import type { InterventionRow } from "~/domain/contracts/interventions";

const t = useTestDb();

/** A grid patch of a loaded row: every field of the row's schema, as the grid sends them, with some changed. */
const patchOf = (r: InterventionRow, extra: Record<string, unknown>) => {
  const { intrants: _i, recoltes: _r, rdd: _d, nombrePassage: _n, id, updatedAt, ...values } = r;
  return { id, updatedAt, values: { ...values, ...extra } };
};

describe(`the register's fields in the interventions grid (${dialect})`, () => {
  test("[issue28-saisie] a writer fills the stage and the contractor in the grid; another cell's edit keeps them; an unknown stage or a bad SIRET writes nothing", async () => {
    const db = t.db();
    const writer = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const packed = await getInterventionsPacked(scopeOf(db, writer));
    const { stades = [] } = decodeChoices(packed.choix);
    // The stage list holds the BBCH stages of the campaign's crops' scales.
    expect(stades.some((s) => s.code === "32")).toBe(true);
    const [row] = decodeInterventions(packed.rows);
    const stage = stades.find((s) => s.code === "32")!;

    const before = await snapshot(db, "action");
    await expectRefused(saveInterventionsGrid(scopeOf(db, writer), [patchOf(row, { idStadeCulture: 999999 })]), "warning.invalid-form", 400);
    await expectRefused(saveInterventionsGrid(scopeOf(db, writer), [patchOf(row, { siretPrestataire: "12345678901234" })]), "warning.invalid-form", 400);
    await expectRefused(saveInterventionsGrid(scopeOf(db, writer), [patchOf(row, { heureDebut: "10:00", heureFin: "09:00" })]), "warning.invalid-form", 400);
    expect(await snapshot(db, "action")).toEqual(before);

    const { saved } = await saveInterventionsGrid(scopeOf(db, writer), [
      patchOf(row, { idStadeCulture: stage.id, precisionStade: "2 nœuds", siretPrestataire: "732 829 320 00074", heureDebut: "6h30", heureFin: "08:00" }),
    ]);
    expect(saved).toHaveLength(1);
    let [after] = (await getInterventions(scopeOf(db, writer), { parcelleIds: [row.idParcelle] })).rows.filter((r) => r.id === row.id);
    expect(after).toMatchObject({
      idStadeCulture: stage.id,
      precisionStade: "2 nœuds",
      siretPrestataire: "73282932000074",
      heureDebut: "06:30",
      heureFin: "08:00",
    });

    // An edit of another cell sends the row as loaded: the register's fields stay.
    await saveInterventionsGrid(scopeOf(db, writer), [patchOf(after, { frequence: 2 })]);
    [after] = (await getInterventions(scopeOf(db, writer), { parcelleIds: [row.idParcelle] })).rows.filter((r) => r.id === row.id);
    expect(after).toMatchObject({ frequence: 2, idStadeCulture: stage.id, siretPrestataire: "73282932000074" });
  });

  test("[issue28-saisie] a reader cannot write the register's fields through the grid", async () => {
    const db = t.db();
    const reader = await selectTilleuls(t, "lecteur", "tilleuls2025");
    const [row] = decodeInterventions((await getInterventionsPacked(scopeOf(db, reader))).rows);
    const before = await snapshot(db, "action");
    await expectRefused(saveInterventionsGrid(scopeOf(db, reader), [patchOf(row, { siretPrestataire: "73282932000074" })]), "errors.forbidden", 403);
    expect(await snapshot(db, "action")).toEqual(before);
  });
});
