import { describe, expect, test } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, selectTilleuls, snapshot, scopeOf } from "../../tests/helpers/service";
import { selectInContext } from "../contexte/service";
import { createFertilisantDossier } from "../demo/factories";
import { affecterEges, getAffectationEges } from "./service";

const t = useTestDb();
const TABLES = ["intrant_dossier", "fertilisant_compo_dossier"];

/** Category of each fertiliser of a folder, by name. */
async function categories(idDossier: number): Promise<Record<string, string | null>> {
  const rows = await t
    .db()("intrant_dossier as i")
    .leftJoin("fertilisant_compo_dossier as c", "c.idIntrantDossier", "i.id")
    .where("i.idDossier", idDossier)
    .select("i.libelle", "c.categorieEges");
  return Object.fromEntries(rows.map((r) => [r.libelle, r.categorieEges ?? null]));
}

describe(`assign greenhouse-gas emissions (${dialect})`, () => {
  test("[B-PLOT-04] the preview lists the folder's fertilisers with the category each would get", async () => {
    const u = await selectTilleuls(t, "animateur", "tilleuls2025");
    const preview = await getAffectationEges(scopeOf(t.db(), u));
    expect(preview.idDossier).toBe(t.demo().dossiers.beauce);
    expect(preview.libelleDossier).toBe("Groupe Grandes cultures Beauce");
    expect(preview.canAssign).toBe(true);
    expect(preview.categories.map((c) => c.code)).toContain("AMMONITRATE");
    const by = Object.fromEntries(preview.lignes.map((l) => [l.libelle, [l.categorieEges, l.proposee, l.motif]]));
    expect(by).toEqual({
      "Ammonitrate 33,5": [null, "AMMONITRATE", "libelle"],
      "Bore foliaire": [null, null, "sans-majeur"],
      "Chlorure de potasse 60": [null, "POTASSIQUE", "composition"],
      "Engrais NPK 15-15-15": [null, "ENGRAIS_COMPOSE", "composition"],
      "Engrais foliaire de la coopérative": [null, null, "sans-composition"],
      "Fumier de bovins": [null, "ORGANIQUE", "libelle"],
      "Solution azotée 390": [null, "SOLUTION_AZOTEE", "libelle"],
      "Sulfate d'ammoniaque 21": ["AZOTE_AUTRE", null, "deja-affectee"],
      "Superphosphate 45": [null, "PHOSPHATE", "composition"],
      "Urée 46": [null, "UREE", "libelle"],
    });
    // Numbers come back as numbers on both databases.
    expect(preview.lignes.find((l) => l.libelle === "Ammonitrate 33,5")?.composition?.n).toBe(33.5);
  });

  test("[B-PLOT-04] [C-UNREF-24] an animator assigns the categories of the selected folder (PATCH dossier/{id}/affectation_eges): empty ones filled, set ones kept, other folders untouched", async () => {
    const u = await selectTilleuls(t, "animateur", "tilleuls2025");
    const { beauce, bocage } = t.demo().dossiers;
    const bocageBefore = await categories(bocage);
    const result = await affecterEges(scopeOf(t.db(), u), beauce);
    expect(result).toEqual({ affectees: 7, conservees: 1, nonClassees: ["Bore foliaire", "Engrais foliaire de la coopérative"] });
    expect(await categories(beauce)).toEqual({
      "Ammonitrate 33,5": "AMMONITRATE",
      "Urée 46": "UREE",
      "Solution azotée 390": "SOLUTION_AZOTEE",
      "Engrais NPK 15-15-15": "ENGRAIS_COMPOSE",
      "Superphosphate 45": "PHOSPHATE",
      "Chlorure de potasse 60": "POTASSIQUE",
      "Fumier de bovins": "ORGANIQUE",
      "Sulfate d'ammoniaque 21": "AZOTE_AUTRE",
      "Bore foliaire": null,
      "Engrais foliaire de la coopérative": null,
    });
    expect(await categories(bocage)).toEqual(bocageBefore);

    // A second run has nothing left to do; a fertiliser added since gets its category.
    await createFertilisantDossier(t.db(), { idDossier: beauce, libelle: "Produit azoté 27", composition: { n: 27 } });
    expect(await affecterEges(scopeOf(t.db(), u), beauce)).toEqual({
      affectees: 1,
      conservees: 8,
      nonClassees: ["Bore foliaire", "Engrais foliaire de la coopérative"],
    });
    expect((await categories(beauce))["Produit azoté 27"]).toBe("AMMONITRATE");
  });

  test("[B-PLOT-04] [A-RIGHTS-28] a folder writer, a reader, another folder's id and a locked campaign are refused and change nothing", async () => {
    const { beauce, bocage } = t.demo().dossiers;
    const before = await snapshot(t.db(), ...TABLES);

    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    expect((await getAffectationEges(scopeOf(t.db(), redacteur))).canAssign).toBe(false);
    await expectRefused(affecterEges(scopeOf(t.db(), redacteur), beauce), "errors.forbidden", 403);

    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    expect((await getAffectationEges(scopeOf(t.db(), lecteur))).canAssign).toBe(false);
    await expectRefused(affecterEges(scopeOf(t.db(), lecteur), beauce), "errors.forbidden", 403);

    // The animator of both folders, in Beauce, sends Bocage's id: refused (the folder id must be the selected one).
    const animateur = await selectTilleuls(t, "animateur", "tilleuls2025");
    await expectRefused(affecterEges(scopeOf(t.db(), animateur), bocage), "errors.forbidden", 403);

    // A locked campaign (2024: indicators published) gives no description-write right, hence no assignment.
    await selectInContext(t.db(), animateur, { intent: "campagne", id: t.demo().campagnes.tilleuls2024 });
    await expectRefused(affecterEges(scopeOf(t.db(), animateur), beauce), "errors.forbidden", 403);

    expect(await snapshot(t.db(), ...TABLES)).toEqual(before);
  });
});
