import { describe, expect, test } from "vitest";
import { preparerCampagne } from "~/domain/calc/indicateurs/moteur";
import { cleManquant } from "~/domain/manquants";
import { demoUser, expectRefused, scopeOf, selectTilleuls } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { instantaneCampagne } from "../calcul/instantane";
import { listerManquants, ouvrirCorrection } from "./service";
import { loadContextView } from "../contexte/service";

/**
 * The missing-data worklist (issue 24; decision 0087): for the selected folder, what keeps each farm's indicators
 * incomplete, read from the engine's missing data of every plot figure, each line linked to the screen and row that
 * fixes it.
 */
const t = useTestDb();

describe(`missing-data worklist (${dialect})`, () => {
  test("[issue24-manquants] the worklist of the Beauce folder lists every datum the engine misses on the demo's 2025 campaigns, once each, the largest gain first", async () => {
    const db = t.db();
    const { campagnes, exploitations } = t.demo();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const w = await listerManquants(scopeOf(db, redacteur));
    expect(w.annee).toBe(2025);
    expect(w.annees).toEqual([2025, 2024]);
    expect(w.exploitations.map((e) => e.id).sort()).toEqual([exploitations.tilleuls, exploitations.moulin].sort());

    // What the engine misses on EARL des Tilleuls 2025, counted here straight from its plot figures.
    const instantane = await instantaneCampagne(db, campagnes.tilleuls2025);
    const calculer = preparerCampagne(instantane);
    const attendues = new Set<string>();
    for (const p of instantane.parcelles)
      for (const ind of Object.values(calculer(p).indicateurs)) for (const m of ind.manquants) if (ind.attendus > 0) attendues.add(cleManquant(m));
    const tilleuls = w.lignes.filter((l) => l.idCampagne === campagnes.tilleuls2025);
    expect(tilleuls.length).toBe(attendues.size);
    expect(new Set(tilleuls.map((l) => l.cle))).toEqual(attendues);
    expect(attendues.size).toBeGreaterThan(0);

    // Sorted by gain; every gain is a share of the farm's figures (0–100 points).
    for (let k = 1; k < w.lignes.length; k++) expect(w.lignes[k - 1].gain).toBeGreaterThanOrEqual(w.lignes[k].gain);
    for (const l of w.lignes) expect(l.gain > 0 && l.gain <= 100).toBe(true);
    // The farm's mean completeness plus every line's gain makes 100 (fixing everything completes every figure).
    const ferme = w.exploitations.find((e) => e.id === exploitations.tilleuls)!;
    expect(ferme.completude! + tilleuls.reduce((s, l) => s + l.gain, 0)).toBeCloseTo(100, 6);

    // Links: an input or harvest opens its own intervention on its plot; a plot its row; a price the price screen.
    const interventions = new Map<string, (typeof instantane.interventions)[number]>(
      instantane.interventions.flatMap((i) => [
        ...i.intrants.map((x) => [`intrant|${x.id}`, i] as const),
        ...i.recoltes.map((x) => [`recolte|${x.id}`, i] as const),
      ]),
    );
    for (const l of tilleuls) {
      if (l.objet === "intrant" || l.objet === "recolte") {
        const i = interventions.get(`${l.objet}|${l.id}`)!;
        expect(l.adresse, l.cle).toBe(`/home/description/au_champs/interventions?parcelleId=${i.idParcelle}&id=${i.id}`);
      }
      if (l.objet === "parcelle") expect(l.adresse).toBe(`/home/description/exploitation/parcelle?id=${l.id}`);
      if (l.objet === "prix") expect(l.adresse).toMatch(/^\/home\/description\/prix\/prix_(approvisionnement|vente)$/);
      expect(l.libellesParcelles.length).toBe(l.parcelles.length);
    }
    expect(w.exploitations.every((e) => e.peutEcrire)).toBe(true);
  });

  test("[issue24-manquants] a reader of the folder sees the same list but may write none of its farms", async () => {
    const db = t.db();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    const w = await listerManquants(scopeOf(db, lecteur));
    expect(w.lignes.map((l) => l.cle)).toEqual((await listerManquants(scopeOf(db, redacteur))).lignes.map((l) => l.cle));
    expect(w.exploitations.length).toBeGreaterThan(0);
    expect(w.exploitations.every((e) => !e.peutEcrire)).toBe(true);
    // 2024: EARL des Tilleuls 2024 is published, hence locked: read-only for the writer too.
    const w2024 = await listerManquants(scopeOf(db, redacteur), { annee: 2024 });
    expect(w2024.exploitations.find((e) => e.id === t.demo().exploitations.tilleuls)?.peutEcrire).toBe(false);
  });

  test("[issue24-manquants] a user without the folder is refused; opening a line of another campaign selects it in the context", async () => {
    const db = t.db();
    const lecteur = await demoUser(db, "lecteur");
    await expectRefused(listerManquants(scopeOf(db, lecteur), { idDossier: t.demo().dossiers.bocage }), "errors.forbidden", 403);

    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const moulin = t.demo().campagnes.moulin2025;
    expect(await ouvrirCorrection(scopeOf(db, redacteur), moulin, "/home/description/exploitation/parcelle?id=1")).toBe(
      "/home/description/exploitation/parcelle?id=1",
    );
    expect((await loadContextView(db, redacteur)).campagne?.id).toBe(moulin);
    await expectRefused(ouvrirCorrection(scopeOf(db, redacteur), moulin, "https://example.org/"), "warning.invalid-form", 400);
    await expectRefused(
      ouvrirCorrection(scopeOf(db, redacteur), t.demo().campagnes.vallee2025, "/home/description/exploitation/parcelle"),
      "errors.forbidden",
      403,
    );
  });
});
