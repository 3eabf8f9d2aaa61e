import { describe, expect, test } from "vitest";
import { CODES_GRAPHIQUES, CODES_IFT_SEGMENTS } from "~/domain/calc/serie";
import { calculerCampagne } from "~/domain/calc/indicateurs/moteur";
import type { Indicateur } from "~/domain/calc/indicateurs/types";
import { demoUser } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { instantaneCampagne } from "../calcul/instantane";
import { executerSerie, expliquerResultat, lancerSerie, MANQUANTS_GARDES, REMARQUE_DONNEES_MODIFIEES } from "./service";

/**
 * Decision 0070: a series stores no explanation for its plot rows; opening a plot figure computes it again from the
 * plot's data. It must be what decision 0055 stored: formula, remarks, the first 50 missing data, the entries of the
 * charted figures (and now the entries of every other figure too).
 */
const t = useTestDb();
const CHARTES = new Set<string>([...CODES_GRAPHIQUES, ...CODES_IFT_SEGMENTS]);

/** What decision 0055 stored for a figure, written out here apart from the service's own function. */
const stockeAvant = (ind: Indicateur) => ({
  formule: ind.explication.formule,
  entrees: CHARTES.has(ind.code) ? ind.explication.entrees : [],
  ...(ind.explication.remarques ? { remarques: ind.explication.remarques } : {}),
  manquants: ind.manquants.slice(0, MANQUANTS_GARDES),
});

describe(`series explanations computed again (${dialect})`, () => {
  test("[issue14-explication] a plot figure's explanation, computed when opened, equals the one stored before decision 0070; the plot rows store none", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.tilleuls2025;
    const redacteur = await demoUser(db, "redacteur");
    const { id, execution } = await lancerSerie(db, redacteur, idCampagne, { executer: (idSerie) => executerSerie(db, idSerie) });
    await execution;

    expect(
      await db("calcul_resultat")
        .where({ idCalculSerie: id, niveau: "parcelle" })
        .whereNotNull("explication")
        .count({ n: "*" })
        .then((r) => Number(r[0].n)),
    ).toBe(0);
    expect(
      await db("calcul_resultat")
        .where({ idCalculSerie: id, niveau: "culture" })
        .whereNull("explication")
        .count({ n: "*" })
        .then((r) => Number(r[0].n)),
    ).toBe(0);

    // The run's figures as the engine gives them with their explanations (the demo campaign counts done interventions).
    const avant = calculerCampagne(await instantaneCampagne(db, idCampagne));
    const lignes = await db("calcul_resultat")
      .where({ idCalculSerie: id, niveau: "parcelle" })
      .orderBy("id")
      .select("idEntite", "code", "valeur", "nbManquants");
    const premiere = lignes[0].idEntite;
    // One figure in three of the first plot and its charted ones, the main charted ones of every plot (each opening
    // reads the plot's snapshot again).
    const ouvertes = lignes.filter(
      (l, k) => (l.idEntite === premiere && (k % 3 === 0 || CHARTES.has(String(l.code)))) || (CODES_GRAPHIQUES as readonly string[]).includes(String(l.code)),
    );
    expect(ouvertes.length).toBeGreaterThan(40);
    let avecEntrees = 0;
    let avecManquants = 0;
    for (const l of ouvertes) {
      const ind = avant.parcelles.find((p) => String(p.parcelle.id) === l.idEntite)!.indicateurs[String(l.code)];
      const e = await expliquerResultat(db, redacteur, id, { niveau: "parcelle", idEntite: String(l.idEntite), code: String(l.code) });
      const stocke = stockeAvant(ind);
      const titre = `${l.idEntite} ${l.code}`;
      expect(e.explication.formule, titre).toBe(stocke.formule);
      expect(e.explication.remarques, titre).toEqual(stocke.remarques);
      expect(e.manquants, titre).toEqual(stocke.manquants);
      expect(e.nbManquants, titre).toBe(ind.manquants.length);
      // Charted figures: the entries stored before; the others now give theirs too (they stored none).
      if (CHARTES.has(String(l.code))) expect(e.explication.entrees, titre).toEqual(stocke.entrees);
      else expect(e.explication.entrees, titre).toEqual(ind.explication.entrees);
      expect(e.explication.remarques ?? [], titre).not.toContain(REMARQUE_DONNEES_MODIFIEES);
      avecEntrees += e.explication.entrees.length > 0 ? 1 : 0;
      avecManquants += e.manquants.length > 0 ? 1 : 0;
    }
    expect(avecEntrees).toBeGreaterThan(5);
    expect(avecManquants).toBeGreaterThan(0);
  });

  test("[issue14-explication] when the plot's data changed since the run, the figure stays the stored one and its explanation says it is today's", async () => {
    const db = t.db();
    const idCampagne = t.demo().campagnes.vallee2025;
    const redacteur = await demoUser(db, "redacteur");
    const { id, execution } = await lancerSerie(db, redacteur, idCampagne, { executer: (idSerie) => executerSerie(db, idSerie) });
    await execution;
    const ligne = await db("calcul_resultat")
      .where({ idCalculSerie: id, niveau: "parcelle", code: "travail.passages" })
      .orderBy("id")
      .first("idEntite", "valeur");
    const q = { niveau: "parcelle", idEntite: String(ligne.idEntite), code: "travail.passages" };
    expect((await expliquerResultat(db, redacteur, id, q)).explication.remarques ?? []).not.toContain(REMARQUE_DONNEES_MODIFIEES);

    // One more pass on the plot: its figure now differs from the run's.
    const action = await db("action")
      .where({ idCampagne, idParcelle: Number(ligne.idEntite), realisee: true })
      .orderBy("id")
      .first("id", "frequence");
    await db("action")
      .where({ id: action.id })
      .update({ frequence: Number(action.frequence ?? 1) + 1 });
    const e = await expliquerResultat(db, redacteur, id, q);
    expect(e.valeur).toBe(Number(ligne.valeur));
    expect(e.explication.remarques).toContain(REMARQUE_DONNEES_MODIFIEES);
    expect(e.explication.entrees.length).toBeGreaterThan(0);
  });
});
