import { describe, expect, test } from "vitest";
import { pairesFormFields } from "~/domain/copie";
import { action as interventionsAction } from "../../app/routes/au-champs/interventions";
import { duplicateCampaignInterventions } from "../../server/copie/service";
import { sourcePlotIn, tree } from "../helpers/copie";
import { postForm } from "../helpers/route-call";
import { countRows, expectRefused, scopeOf, selectTilleuls, snapshot } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";

/**
 * The duplication dialog's several plots in one request (issue 30, decision 0123), through the interventions route's
 * action as the browser posts it: the rows made equal those of the dialog's one-plot requests, and a refusal writes nothing.
 */
const t = useTestDb();
const sourcePlot = (n: number) => sourcePlotIn(t, n);

const COPIED = ["action", "intrant", "intrant_cible", "intrant_cible_cible", "caracteristique_intrant", "recolte", "caracteristique_recolte"];
const SCREEN = "home/description/au_champs/interventions";

/** The duplication dialog's request for several plots (issue 30): one post of the pairs, as the dialog builds it. */
function severalPlotsForm(o: {
  dossier: number;
  source: number;
  destination: number;
  paires: { parcelleSource: number; parcellesDestination: number[] }[];
  suppression?: boolean;
}): FormData {
  const form = new FormData();
  form.append("intent", "duplicationCampagneInterventions");
  form.append("dossierSource", String(o.dossier));
  form.append("campagneSource", String(o.source));
  form.append("dossierDestination", String(o.dossier));
  form.append("campagneDestination", String(o.destination));
  if (o.suppression) form.append("suppressionInterventionsParcellesDst", "on");
  for (const [k, v] of pairesFormFields(o.paires)) form.append(k, v);
  return form;
}

describe(`duplication of several plots from the dialog (${dialect})`, () => {
  test("[issue30-duplication] [C-COPY-08] [C-COPY-09] [C-COPY-10] several plots in one request give the same rows as the dialog's one-plot requests did, field by field", async () => {
    const db = t.db();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const { beauce } = t.demo().dossiers;
    const tilleuls = t.demo().campagnes.tilleuls2025;
    const moulin = t.demo().campagnes.moulin2025;
    // The first source plot with many rows (inputs, characteristics, harvests); the others as the demo has them.
    await sourcePlot(5);
    const sources = (await db("parcelle").where({ idCampagne: tilleuls }).orderBy("id").pluck("id")).map(Number);
    const targets = (await db("parcelle").where({ idCampagne: moulin }).orderBy("id").pluck("id")).map(Number);
    const n = Math.min(sources.length, targets.length);
    expect(n).toBeGreaterThanOrEqual(3);
    const paires = sources.slice(0, n).map((s, k) => ({ parcelleSource: s, parcellesDestination: [targets[k]] }));
    expect((await Promise.all(paires.map((p) => tree(db, p.parcelleSource, tilleuls)))).filter((x) => x.length).length).toBeGreaterThanOrEqual(2);

    // Before: the dialog's one-plot requests, one per source plot, each with the deletion option.
    for (const p of paires) {
      const form = new FormData();
      for (const [k, v] of Object.entries({
        intent: "duplicationInterventions",
        dossierSource: beauce,
        campagneSource: tilleuls,
        parcelleSource: p.parcelleSource,
        dossierDestination: beauce,
        campagneDestination: moulin,
        parcellesDestination: p.parcellesDestination[0],
        suppressionInterventionsParcellesDst: "on",
      }))
        form.append(k, String(v));
      const one = await postForm(interventionsAction, { db, user: redacteur, path: SCREEN, form });
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ ok: true, notice: "copie.duplication-faite" });
    }
    const perPlot = await Promise.all(paires.map((p) => tree(db, p.parcellesDestination[0], moulin)));
    const copiesPerPlot = perPlot.reduce((a, x) => a + x.length, 0);

    // Now: the same plots in one request (the deletion option replaces the copies made above).
    const lastId = Number((await db("action").max({ m: "id" }).first())?.m);
    const answer = await postForm(interventionsAction, {
      db,
      user: redacteur,
      path: SCREEN,
      form: severalPlotsForm({ dossier: beauce, source: tilleuls, destination: moulin, paires, suppression: true }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, notice: "copie.duplication-faite", copies: copiesPerPlot });
    const atOnce = await Promise.all(paires.map((p) => tree(db, p.parcellesDestination[0], moulin)));
    // Every column of every created row (inputs, characteristics, targets, harvests), ids aside, is the same.
    expect(atOnce).toEqual(perPlot);
    // They are new rows, and only the destination plots got any.
    expect(await countRows(db, "action", { idCampagne: moulin })).toBeGreaterThanOrEqual(copiesPerPlot);
    const made = await db("action").where("id", ">", lastId).select("idParcelle", "idCampagne");
    expect(made).toHaveLength(copiesPerPlot);
    expect(made.every((a) => Number(a.idCampagne) === moulin && paires.some((p) => p.parcellesDestination[0] === Number(a.idParcelle)))).toBe(true);
  });

  test("[issue30-duplication] [C-RIGHTS-21] [C-ERR-31] the request for several plots is refused whole for a reader, a locked destination campaign, a destination farm read-only through the folder, or a destination taken twice; nothing is written", async () => {
    const db = t.db();
    const { beauce, bocage } = t.demo().dossiers;
    const tilleuls = t.demo().campagnes.tilleuls2025;
    const moulin = t.demo().campagnes.moulin2025;
    await sourcePlot(2);
    const sources = (await db("parcelle").where({ idCampagne: tilleuls }).orderBy("id").limit(2).pluck("id")).map(Number);
    const targets = (await db("parcelle").where({ idCampagne: moulin }).orderBy("id").limit(2).pluck("id")).map(Number);
    const paires = sources.map((s, k) => ({ parcelleSource: s, parcellesDestination: [targets[k]] }));
    const form = (o: Partial<Parameters<typeof severalPlotsForm>[0]> = {}) =>
      severalPlotsForm({ dossier: beauce, source: tilleuls, destination: moulin, paires, suppression: true, ...o });
    const before = await snapshot(db, ...COPIED);

    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    expect((await postForm(interventionsAction, { db, user: lecteur, path: SCREEN, form: form() })).status).toBe(403);
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    // The destination campaign is locked (its series validated), then only readable through the folder (Bocage).
    await db("campagne").where({ id: moulin }).update({ serieValide: true });
    expect((await postForm(interventionsAction, { db, user: redacteur, path: SCREEN, form: form() })).status).toBe(403);
    await db("campagne").where({ id: moulin }).update({ serieValide: false });
    const viaBocage = form();
    viaBocage.set("dossierDestination", String(bocage));
    expect((await postForm(interventionsAction, { db, user: redacteur, path: SCREEN, form: viaBocage })).status).toBe(403);
    // A destination plot for two source plots: a field error on the pairs.
    const twice = await postForm(interventionsAction, {
      db,
      user: redacteur,
      path: SCREEN,
      form: form({ paires: sources.map((s) => ({ parcelleSource: s, parcellesDestination: [targets[0]] })) }),
    });
    expect(twice.status).toBe(400);
    expect((twice.body as { submission?: { error?: Record<string, string[] | null> } }).submission?.error?.paires).toEqual(["warning.invalid"]);
    // The service refuses the same way when called directly (the route's service).
    await expectRefused(
      duplicateCampaignInterventions(scopeOf(db, lecteur), {
        dossierSource: beauce,
        campagneSource: tilleuls,
        dossierDestination: beauce,
        campagneDestination: moulin,
        paires,
      }),
      "errors.forbidden",
      403,
    );
    expect(await snapshot(db, ...COPIED)).toEqual(before);
  });
});
