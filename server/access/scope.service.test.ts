import { RouterContextProvider } from "react-router";
import { describe, expect, test } from "vitest";
import { InterventionSchema } from "~/domain/intervention";
import { rowPatchListSchema } from "~/domain/grid-patches";
import { SHOWN_CAMPAIGN_HEADER, shownCampaignOf } from "~/domain/access/shown-campaign";
import { countRows, expectRefused, scopeOf, selectTilleuls, snapshot } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { selectInContext } from "../contexte/service";
import type { Db } from "../db/knex";
import { setRequestScope } from "../http/context.server";
import { intent, jsonField, screenAction } from "../http/route.server";
import { saveInterventionsGrid } from "../intervention/service";
import { saveParcelle } from "../parcelle/service";
import type { Scope } from "./scope";
import { CAMPAIGN_CHANGED, campaignContext, ensureWrite, writableCampaign } from "./description";

const t = useTestDb();

/** The interventions screen's grid intent, as app/routes/au-champs/interventions.tsx declares it (gate: campaign). */
const gridAction = screenAction(
  {
    grid: intent({ patches: jsonField(rowPatchListSchema(InterventionSchema)) }, async ({ scope }, { patches }) => ({
      ok: true as const,
      ...(await saveInterventionsGrid(scope, patches)),
    })),
  },
  { gate: "campaign" },
);

/** One post of the grid through the adapter, on the request's scope; the SQL statements it ran. */
async function postGrid(db: Db, scope: Scope, patches: unknown[]) {
  const context = new RouterContextProvider();
  setRequestScope(context, scope);
  const request = new Request("http://sillon.test/home/au-champs/interventions", {
    method: "POST",
    body: new URLSearchParams({ intent: "grid", patches: JSON.stringify(patches) }),
  });
  const statements: string[] = [];
  const listen = (q: { sql: string }) => statements.push(q.sql);
  db.on("query", listen);
  try {
    const answer = await gridAction({ request, params: {}, context });
    return { answer, statements };
  } finally {
    db.off("query", listen);
  }
}

/** The statements that read the context or the rights (server/contexte, server/access). */
const rightsAndContext = (statements: string[]) =>
  statements.filter((s) => /utilisateur_contexte|utilisateur_dossier|dossier_exploitation|from .campagne. where/.test(s));

async function setUp() {
  const db = t.db();
  const idCampagne = t.demo().campagnes.tilleuls2025;
  const plot = Number((await db("parcelle").where({ idCampagne }).orderBy("libelle").first("id")).id);
  const [r] = await db("operation_culturale").insert({ idCampagne, idTypeAction: 1, libelle: "Comptage", debitReel: 2 }).returning("id");
  const op = typeof r === "object" ? (r as { id: number }).id : (r as number);
  const user = await selectTilleuls(t, "redacteur", "tilleuls2025");
  const rows = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: -(i + 1),
      values: { idParcelle: plot, date: "2025-04-01", idOperationCulturale: op, frequence: 1, tauxSurface: 1, realisee: true, prevue: false },
    }));
  return { db, idCampagne, user, rows };
}

describe(`one request scope (decision 0092, ${dialect})`, () => {
  test("[issue23-scope] an empty and a 50-row interventions grid save read the context and the rights once (statements counted)", async () => {
    const s = await setUp();
    const empty = await postGrid(s.db, scopeOf(s.db, s.user), []);
    expect(empty.answer).toMatchObject({ ok: true, saved: [] });
    const fifty = await postGrid(s.db, scopeOf(s.db, s.user), s.rows(50));
    expect(fifty.answer).toMatchObject({ ok: true });
    expect(await countRows(s.db, "action", { idCampagne: s.idCampagne, idOperationCulturale: s.rows(1)[0].values.idOperationCulturale })).toBe(50);
    for (const run of [empty, fifty]) {
      const reads = rightsAndContext(run.statements);
      // the context row (with the newest post and the context version), the campaign's farm, the folder right,
      // the farm link, the campaign's lock flags, the unlocked campaign: each once
      expect(reads).toHaveLength(6);
      expect(new Set(reads).size).toBe(reads.length);
    }
    // docs/performance.md: 19 and 70 statements before the scope (the gate and the service each read them)
    expect(empty.statements).toHaveLength(13);
    expect(fifty.statements).toHaveLength(64);
  });

  test("[issue23-scope] a second ask of the view, the campaign, a campaign write or a farm write costs no SQL", async () => {
    const s = await setUp();
    const scope = scopeOf(s.db, s.user);
    const ctx = await writableCampaign(scope);
    const farm = { dossier: ctx.view.selected.idDossier!, exploitation: ctx.idExploitation };
    await ensureWrite(scope, farm);
    let n = 0;
    const listen = () => n++;
    s.db.on("query", listen);
    try {
      expect(await writableCampaign(scope)).toBe(ctx);
      expect((await campaignContext(scope)).view).toBe(ctx.view);
      expect(await scope.view()).toBe(ctx.view);
      await ensureWrite(scope, farm);
      await s.db.transaction(async (trx) => expect(await writableCampaign(scope.on(trx))).toBe(ctx));
    } finally {
      s.db.off("query", listen);
    }
    expect(n).toBe(2); // BEGIN and COMMIT of the transaction, nothing read
  });

  test("[issue23-campaign-shown] a create from a page of campaign A after the selection moved to B (another tab) is refused and says so; nothing stored", async () => {
    const s = await setUp();
    const a = s.idCampagne;
    const b = t.demo().campagnes.tilleuls2025Simulation;
    await selectInContext(s.db, s.user, { intent: "campagne", id: b });
    const before = await snapshot(s.db, "parcelle", "action");
    await expectRefused(
      saveParcelle(scopeOf(s.db, s.user, { shownCampaign: a }), { libelle: "Parcelle de l'autre onglet", surface: 2 }),
      CAMPAIGN_CHANGED,
      409,
    );
    const grid = await postGrid(s.db, scopeOf(s.db, s.user, { shownCampaign: a }), s.rows(3));
    expect(grid.answer).toMatchObject({ init: { status: 409 }, data: { ok: false, error: CAMPAIGN_CHANGED } });
    expect(await snapshot(s.db, "parcelle", "action")).toEqual(before);
    // the page of B writes; a post that names no campaign (a script) is judged on the selection, as before
    const onB = await saveParcelle(scopeOf(s.db, s.user, { shownCampaign: b }), { libelle: "Parcelle de B", surface: 2 });
    expect(Number((await s.db("parcelle").where({ id: onB }).first("idCampagne")).idCampagne)).toBe(b);
    await saveParcelle(scopeOf(s.db, s.user), { libelle: "Parcelle du script", surface: 2 });
    expect(await countRows(s.db, "parcelle", { idCampagne: b, libelle: "Parcelle du script" })).toBe(1);
  });

  test("[issue23-campaign-shown] the campaign a request names: a positive id within the database's integers, else none", () => {
    expect(SHOWN_CAMPAIGN_HEADER).toBe("X-Sillon-Campagne");
    expect(shownCampaignOf("42")).toBe(42);
    for (const v of [null, "", "0", "-3", "4.5", "1e3", "0x10", "2147483648", " 42"]) expect(shownCampaignOf(v)).toBeNull();
  });
});
