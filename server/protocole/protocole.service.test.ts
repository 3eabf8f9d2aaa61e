import { describe, expect, test } from "vitest";
import { chapitresAffiches, CHAPITRE_OBJECTIFS, IndicateurObjectifSchema, ProtocoleSchema } from "~/domain/protocole";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { expectRefused, selectTilleuls, snapshot, withBrokenTable, scopeOf } from "../../tests/helpers/service";
import en from "~/locales/en/translation";
import fr from "~/locales/fr/translation";
import {
  getDescriptionSysteme,
  OBJECTIFS_ERROR,
  PROTOCOLE_CREATE_ERROR,
  PROTOCOLE_DELETE_ERROR,
  PROTOCOLE_LOAD_ERROR,
  PROTOCOLE_UPDATE_ERROR,
  removeObjectif,
  removeProtocole,
  saveObjectif,
  saveProtocole,
} from "./service";
import { listProtocoles } from "./repo";

const t = useTestDb();
const ctx = (username: string, campagne: "tilleuls2025" | "tilleuls2024" = "tilleuls2025") => selectTilleuls(t, username, campagne);

describe(`system description (${dialect})`, () => {
  test("[C-PROTO-02] [C-PROTO-03] [C-OBJ-07] the chapters are the reference list without its last; the indicator reference holds its fields", async () => {
    const redacteur = await ctx("redacteur");
    const d = await getDescriptionSysteme(scopeOf(t.db(), redacteur));
    const all = await t
      .db()("chapitre_protocole")
      .orderBy([{ column: "ordre" }, { column: "id" }])
      .select("id");
    expect(d.chapitres.map((c) => c.id)).toEqual(all.slice(0, -1).map((c) => Number(c.id)));
    expect(d.chapitres.map((c) => c.id)).toContain(CHAPITRE_OBJECTIFS);
    expect(chapitresAffiches([1, 2, 3])).toEqual([1, 2]);
    expect(Object.keys(d.indicateurs[0]).sort()).toEqual(
      expect.arrayContaining([
        "idIndicateur",
        "indNom",
        "dicLlUnite",
        "pDtCrea",
        "idIndicateurPere",
        "idGroupeIndicateur",
        "indOrdre",
        "indCode",
        "indEchelle",
        "idDicoPackage",
      ]),
    );
  });

  test("[C-PROTO-04] [C-PROTO-05] [C-PROTO-06] [C-PROTO-07] [C-PROTO-08] a writer creates, updates and deletes a protocol of a chapter; read per campaign and chapter", async () => {
    const redacteur = await ctx("redacteur");
    const { campagnes } = t.demo();
    const id = await saveProtocole(
      scopeOf(t.db(), redacteur),
      ProtocoleSchema.parse({ dicIdChapitreProtocole: "2247", pexLibelle: "Semis direct", pexValTexte: "Sur toutes les céréales" }),
    );
    const rows = await listProtocoles(t.db(), campagnes.tilleuls2025, 2247);
    expect(rows[0]).toMatchObject({
      idProtocoleExploitation: id,
      dicIdChapitreProtocole: 2247,
      pexLibelle: "Semis direct",
      pexValTexte: "Sur toutes les céréales",
      campagne: campagnes.tilleuls2025,
    });
    expect(rows.every((r) => r.dicIdChapitreProtocole === 2247)).toBe(true);
    expect((await listProtocoles(t.db(), campagnes.tilleuls2024)).map((r) => r.id)).not.toContain(id);
    await saveProtocole(scopeOf(t.db(), redacteur), ProtocoleSchema.parse({ dicIdChapitreProtocole: "2247", pexLibelle: "Semis direct sous couvert" }), {
      id,
      updatedAt: rows[0].updatedAt,
    });
    expect((await listProtocoles(t.db(), campagnes.tilleuls2025, 2247))[0]).toMatchObject({ id, pexLibelle: "Semis direct sous couvert", pexValTexte: null });
    await removeProtocole(scopeOf(t.db(), redacteur), id);
    expect((await listProtocoles(t.db(), campagnes.tilleuls2025)).map((r) => r.id)).not.toContain(id);
    expect(ProtocoleSchema.safeParse({ dicIdChapitreProtocole: "2247", pexLibelle: " " }).error?.issues[0]).toMatchObject({
      path: ["pexLibelle"],
      message: "warning.required",
    });
    // The hidden last chapter is refused.
    const last = await t.db()("chapitre_protocole").orderBy("ordre", "desc").first("id");
    await expectRefused(
      saveProtocole(scopeOf(t.db(), redacteur), ProtocoleSchema.parse({ dicIdChapitreProtocole: String(last.id), pexLibelle: "x" })),
      "warning.invalid-form",
      400,
    );
  });

  test("[C-OBJ-04] [C-OBJ-05] [C-OBJ-06] objective indicators: indicator required, value numeric or empty, read per campaign", async () => {
    const redacteur = await ctx("redacteur");
    const ind = await t.db()("indicateur").where({ indCode: "GES" }).first("id");
    const id = await saveObjectif(scopeOf(t.db(), redacteur), IndicateurObjectifSchema.parse({ idIndicateur: String(ind.id), value: "1 250,5" }));
    let d = await getDescriptionSysteme(scopeOf(t.db(), redacteur));
    expect(d.objectifs[0]).toMatchObject({ id, indicateur: Number(ind.id), value: 1250.5, campagne: t.demo().campagnes.tilleuls2025 });
    await saveObjectif(scopeOf(t.db(), redacteur), IndicateurObjectifSchema.parse({ idIndicateur: String(ind.id), value: "" }), {
      id,
      updatedAt: d.objectifs[0].updatedAt,
    });
    d = await getDescriptionSysteme(scopeOf(t.db(), redacteur));
    expect(d.objectifs[0]).toMatchObject({ id, value: null });
    const errors = (v: Record<string, unknown>) =>
      Object.fromEntries((IndicateurObjectifSchema.safeParse(v).error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
    expect(errors({})).toEqual({ idIndicateur: "warning.required" });
    expect(errors({ idIndicateur: "1", value: "beaucoup" })).toEqual({ value: "warning.numeric" });
    await removeObjectif(scopeOf(t.db(), redacteur), id);
    expect((await getDescriptionSysteme(scopeOf(t.db(), redacteur))).objectifs.map((o) => o.id)).not.toContain(id);
  });

  test("a reader and a locked campaign are refused protocol and objective writes", async () => {
    const lecteur = await ctx("lecteur");
    const before = await snapshot(t.db(), "protocole_exploitation", "indicateur_objectif");
    expect((await getDescriptionSysteme(scopeOf(t.db(), lecteur))).canWrite).toBe(false);
    await expectRefused(
      saveProtocole(scopeOf(t.db(), lecteur), ProtocoleSchema.parse({ dicIdChapitreProtocole: "2245", pexLibelle: "x" })),
      "errors.forbidden",
      403,
    );
    await expectRefused(saveObjectif(scopeOf(t.db(), lecteur), IndicateurObjectifSchema.parse({ idIndicateur: "1" })), "errors.forbidden", 403);
    const animateur = await ctx("animateur", "tilleuls2024");
    await expectRefused(
      saveProtocole(scopeOf(t.db(), animateur), ProtocoleSchema.parse({ dicIdChapitreProtocole: "2245", pexLibelle: "x" })),
      "errors.forbidden",
      403,
    );
    expect(await snapshot(t.db(), "protocole_exploitation", "indicateur_objectif")).toEqual(before);
  });

  test("[C-ERR-16] [C-ERR-17] protocol and objective failures use their catalogued keys (translated in French and English), and change nothing", async () => {
    const db = t.db();
    const redacteur = await ctx("redacteur");
    const id = await saveProtocole(scopeOf(db, redacteur), ProtocoleSchema.parse({ dicIdChapitreProtocole: "2245", pexLibelle: "Protocole essai" }));
    const [row] = (await listProtocoles(db, t.demo().campagnes.tilleuls2025)).filter((p) => p.id === id);
    const idObjectif = await saveObjectif(scopeOf(db, redacteur), IndicateurObjectifSchema.parse({ idIndicateur: "1", valeur: "3" }));
    const before = await snapshot(db, "protocole_exploitation", "indicateur_objectif");
    // One failure per broken-table transaction (PostgreSQL refuses anything after an error in a transaction).
    const protocole = (fn: (trx: typeof db) => Promise<void>) => withBrokenTable(db, "protocole_exploitation", fn);
    const objectif = (fn: (trx: typeof db) => Promise<void>) => withBrokenTable(db, "indicateur_objectif", fn);
    await protocole((trx) => expectRefused(getDescriptionSysteme(scopeOf(trx, redacteur)), PROTOCOLE_LOAD_ERROR, 500));
    await protocole((trx) =>
      expectRefused(
        saveProtocole(scopeOf(trx, redacteur), ProtocoleSchema.parse({ dicIdChapitreProtocole: "2245", pexLibelle: "x" })),
        PROTOCOLE_CREATE_ERROR,
        500,
      ),
    );
    await protocole((trx) =>
      expectRefused(
        saveProtocole(scopeOf(trx, redacteur), ProtocoleSchema.parse({ dicIdChapitreProtocole: "2245", pexLibelle: "x" }), { id, updatedAt: row.updatedAt }),
        PROTOCOLE_UPDATE_ERROR,
        500,
      ),
    );
    await protocole((trx) => expectRefused(removeProtocole(scopeOf(trx, redacteur), id), PROTOCOLE_DELETE_ERROR, 500));
    await objectif((trx) => expectRefused(getDescriptionSysteme(scopeOf(trx, redacteur)), OBJECTIFS_ERROR, 500));
    await objectif((trx) => expectRefused(saveObjectif(scopeOf(trx, redacteur), IndicateurObjectifSchema.parse({ idIndicateur: "1" })), OBJECTIFS_ERROR, 500));
    await objectif((trx) => expectRefused(removeObjectif(scopeOf(trx, redacteur), idObjectif), OBJECTIFS_ERROR, 500));
    expect(await snapshot(db, "protocole_exploitation", "indicateur_objectif")).toEqual(before);
    expect([PROTOCOLE_LOAD_ERROR, PROTOCOLE_CREATE_ERROR, PROTOCOLE_UPDATE_ERROR, PROTOCOLE_DELETE_ERROR, OBJECTIFS_ERROR]).toEqual([
      "errors.services.protocoles_exploitations-service-error",
      "errors.services.protocoles_exploitations-create-service-error",
      "errors.services.protocoles_exploitations-update-service-error",
      "errors.services.protocoles_exploitations-delete-service-error",
      "errors.services.indicateur_objectifs-service-error",
    ]);
    const services = (l: typeof fr) => (l.errors as unknown as { services: Record<string, string> }).services;
    for (const key of [PROTOCOLE_LOAD_ERROR, PROTOCOLE_CREATE_ERROR, PROTOCOLE_UPDATE_ERROR, PROTOCOLE_DELETE_ERROR, OBJECTIFS_ERROR]) {
      const k = key.replace("errors.services.", "");
      expect(services(fr)[k]).toBeTruthy();
      expect(services(en as typeof fr)[k]).toBeTruthy();
    }
  });
});
