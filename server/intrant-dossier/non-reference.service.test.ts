import { describe, expect, test } from "vitest";
import { IntrantDossierSchema } from "~/domain/intrant-dossier";
import { expectRefused, selectTilleuls, snapshot, withBrokenTable, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { parse } from "../errors";
import { createIntrantDossier, getIntrantDossier, INTRANT_DOSSIER_CREATE_ERROR, updateIntrantDossier } from "./non-reference";

/** Unreferenced inputs of a folder (spec 3 §3.5, §4.2, §5; decision 0032), on the demo folder Beauce. */
const t = useTestDb();

async function insertId(table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await t.db()(table).insert(row).returning("id");
  return typeof r === "object" ? (r as { id: number }).id : (r as number);
}

const PHYTO_AUTRE = 5399;

/** Two interventions of Tilleuls 2025 whose inputs are made from the folder input `id` (origin 777). */
async function linkedInputs(id: number, libelle: string, idCategorie: number) {
  const idCampagne = t.demo().campagnes.tilleuls2025;
  const plot = Number((await t.db()("parcelle").where({ idCampagne }).orderBy("id").first("id")).id);
  const out: number[] = [];
  for (const date of ["2025-04-02", "2025-05-02"]) {
    const action = await insertId("action", {
      idCampagne,
      idParcelle: plot,
      date,
      anneeRecolte: 2025,
      frequence: 1,
      tauxSurface: 1,
      realisee: true,
      prevue: false,
    });
    out.push(
      await insertId("intrant", {
        idAction: action,
        idCategorie,
        idIntrant: id,
        dicIdOrigineIntrant: 777,
        idDossier: t.demo().dossiers.beauce,
        libelleIntrant: libelle,
        quantite: 2,
        dicLlUnite: "l/ha",
      }),
    );
  }
  return out;
}

describe(`unreferenced inputs (${dialect})`, () => {
  test("[C-UNREF-01] [C-UNREF-02] [C-UNREF-03] [C-UNREF-23] a writer creates one of each kind in the selected folder", async () => {
    const db = t.db();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const phyto = await createIntrantDossier(
      scopeOf(db, redacteur),
      parse(IntrantDossierSchema, {
        dicIdTypeIntrant: "539",
        libelle: "Purin d'ortie",
        idCategorie: String(PHYTO_AUTRE),
        code: "2190001",
        matiereActive: "12,5",
        uniteMatActive: "g/L",
        biocontrole: "on",
      }),
    );
    const row = await db("intrant_dossier").where({ id: phyto }).first();
    expect(row).toMatchObject({
      idDossier: t.demo().dossiers.beauce,
      dicIdTypeIntrant: 539,
      libelle: "Purin d'ortie",
      code: "2190001",
      uniteMatActive: "g/L",
      idUser: redacteur.id,
      idCategorie: PHYTO_AUTRE,
    });
    expect(Number(row.matiereActive)).toBe(12.5);
    for (const k of [
      "id",
      "dicIdTypeIntrant",
      "libelle",
      "code",
      "matiereActive",
      "uniteMatActive",
      "remarque",
      "idUser",
      "biocontrole",
      "idDossier",
      "dicLlUnite",
    ])
      expect(row).toHaveProperty(k);
    const seed = await createIntrantDossier(
      scopeOf(db, redacteur),
      parse(IntrantDossierSchema, { dicIdTypeIntrant: "538", libelle: "Blé de pays", idCulture: "1" }),
    );
    const fert = await createIntrantDossier(
      scopeOf(db, redacteur),
      parse(IntrantDossierSchema, { dicIdTypeIntrant: "540", libelle: "Engrais maison", idCategorie: "655", n: "40", p2o5: "30", k2o: "30" }),
    );
    const other = await createIntrantDossier(scopeOf(db, redacteur), parse(IntrantDossierSchema, { dicIdTypeIntrant: "543", libelle: "Filet de protection" }));
    expect(await db("intrant_dossier").whereIn("id", [seed, fert, other]).orderBy("id").select("dicIdTypeIntrant")).toEqual([
      { dicIdTypeIntrant: 538 },
      { dicIdTypeIntrant: 540 },
      { dicIdTypeIntrant: 543 },
    ]);
    const compo = await db("fertilisant_compo_dossier").where({ idIntrantDossier: fert }).first();
    expect([Number(compo.n), Number(compo.p2o5), Number(compo.k2o)]).toEqual([40, 30, 30]);
    // A category of another input type is a field error.
    await expectRefused(
      createIntrantDossier(scopeOf(db, redacteur), parse(IntrantDossierSchema, { dicIdTypeIntrant: "540", libelle: "x", idCategorie: String(PHYTO_AUTRE) })),
      "warning.invalid-form",
      400,
      { fieldErrors: { idCategorie: ["warning.invalid"] } },
    );
    // A reader may not create.
    const lecteur = await selectTilleuls(t, "lecteur", "tilleuls2025");
    await expectRefused(
      createIntrantDossier(scopeOf(db, lecteur), parse(IntrantDossierSchema, { dicIdTypeIntrant: "543", libelle: "Intrus" })),
      "errors.forbidden",
      403,
    );
    await withBrokenTable(db, "intrant_dossier", (trx) =>
      expectRefused(
        createIntrantDossier(scopeOf(trx, redacteur), parse(IntrantDossierSchema, { dicIdTypeIntrant: "543", libelle: "x" })),
        INTRANT_DOSSIER_CREATE_ERROR,
        500,
      ),
    );
  });

  test("[C-UNREF-08] [C-UNREF-09] [C-UNREF-12] [C-UNREF-13] [C-RIGHTS-09] an animator's edit relabels every linked input and rewrites their composition in one go; a writer, another folder's input are refused", async () => {
    const db = t.db();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const fert = await createIntrantDossier(
      scopeOf(db, redacteur),
      parse(IntrantDossierSchema, { dicIdTypeIntrant: "540", libelle: "Engrais de ferme", idCategorie: "655", n: "50", p2o5: "50" }),
    );
    const inputs = await linkedInputs(fert, "Engrais de ferme", 655);
    await insertId("caracteristique_intrant", { idIntrant: inputs[0], n: 50, p2o5: 50 });
    const animateur = await selectTilleuls(t, "animateur", "tilleuls2025");
    const stored = await getIntrantDossier(scopeOf(db, animateur), fert);
    expect(stored.modifiable).toBe(true);
    const input = parse(IntrantDossierSchema, {
      dicIdTypeIntrant: "540",
      libelle: "Engrais de ferme 20-10-70",
      idCategorie: "655",
      n: "20",
      p2o5: "10",
      k2o: "70",
    });

    // The writer (folder right 'ecriture') may not edit: only an animator.
    expect((await getIntrantDossier(scopeOf(db, redacteur), fert)).modifiable).toBe(false);
    const before = await snapshot(db, "intrant", "caracteristique_intrant", "intrant_dossier", "fertilisant_compo_dossier");
    await expectRefused(updateIntrantDossier(scopeOf(db, redacteur), { id: fert, updatedAt: stored.updatedAt }, input), "errors.forbidden", 403);
    expect(await snapshot(db, "intrant", "caracteristique_intrant", "intrant_dossier", "fertilisant_compo_dossier")).toEqual(before);

    const { relabelled } = await updateIntrantDossier(scopeOf(db, animateur), { id: fert, updatedAt: stored.updatedAt }, input);
    expect(relabelled).toBe(2);
    expect((await db("intrant").whereIn("id", inputs).orderBy("id").select("libelleIntrant")).map((r) => r.libelleIntrant)).toEqual([
      "Engrais de ferme 20-10-70",
      "Engrais de ferme 20-10-70",
    ]);
    const car = await db("caracteristique_intrant").whereIn("idIntrant", inputs).orderBy("idIntrant").select("idIntrant", "n", "p2o5", "k2o");
    expect(car.map((c) => [c.idIntrant, Number(c.n), Number(c.p2o5), Number(c.k2o)])).toEqual([
      [inputs[0], 20, 10, 70],
      [inputs[1], 20, 10, 70],
    ]);
    // The stale token is refused; another folder's input is not found in the selected folder.
    await expectRefused(updateIntrantDossier(scopeOf(db, animateur), { id: fert, updatedAt: stored.updatedAt }, input), "errors.stale", 409);
    const bocageInput = await insertId("intrant_dossier", {
      idDossier: t.demo().dossiers.bocage,
      dicIdTypeIntrant: 543,
      libelle: "Du Bocage",
      biocontrole: false,
    });
    const foreign = await db("intrant_dossier").where({ id: bocageInput }).first("updatedAt");
    await expectRefused(
      updateIntrantDossier(
        scopeOf(db, animateur),
        { id: bocageInput, updatedAt: new Date(foreign.updatedAt).toISOString() },
        parse(IntrantDossierSchema, { dicIdTypeIntrant: "543", libelle: "Pris" }),
      ),
      "errors.forbidden",
      403,
    );
    expect((await db("intrant_dossier").where({ id: bocageInput }).first("libelle")).libelle).toBe("Du Bocage");
  });

  test("[C-UNREF-10] [C-UNREF-11] a failing characteristic update during the edit is ignored: the relabelling completes", async () => {
    const db = t.db();
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const fert = await createIntrantDossier(
      scopeOf(db, redacteur),
      parse(IntrantDossierSchema, { dicIdTypeIntrant: "540", libelle: "Vinasse", idCategorie: "655", n: "100" }),
    );
    const inputs = await linkedInputs(fert, "Vinasse", 655);
    const animateur = await selectTilleuls(t, "animateur", "tilleuls2025");
    const { updatedAt } = await getIntrantDossier(scopeOf(db, animateur), fert);
    await withBrokenTable(db, "caracteristique_intrant", async (trx) => {
      const r = await updateIntrantDossier(
        scopeOf(trx, animateur),
        { id: fert, updatedAt },
        parse(IntrantDossierSchema, { dicIdTypeIntrant: "540", libelle: "Vinasse de betterave", idCategorie: "655", n: "100" }),
      );
      expect(r.relabelled).toBe(2);
      expect((await trx("intrant").whereIn("id", inputs).select("libelleIntrant")).map((x) => x.libelleIntrant)).toEqual([
        "Vinasse de betterave",
        "Vinasse de betterave",
      ]);
      expect((await trx("intrant_dossier").where({ id: fert }).first("libelle")).libelle).toBe("Vinasse de betterave");
    });
  });

  test("[C-UNREF-14] [C-UNREF-15] [C-UNREF-16] [C-UNREF-17] [C-UNREF-18] [C-UNREF-19] [C-UNREF-20] [C-UNREF-21] [C-UNREF-22] the dialog's rules", () => {
    const errors = (v: Record<string, string>) => {
      const r = IntrantDossierSchema.safeParse(v);
      return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
    };
    expect(errors({ dicIdTypeIntrant: "543" })).toEqual({ libelle: "warning.required" });
    expect(errors({ dicIdTypeIntrant: "538", libelle: "x" })).toEqual({ idCulture: "warning.required" });
    expect(errors({ dicIdTypeIntrant: "539", libelle: "x" })).toEqual({ idCategorie: "warning.required" });
    expect(errors({ dicIdTypeIntrant: "540", libelle: "x" })).toEqual({ idCategorie: "warning.required" });
    expect(errors({ dicIdTypeIntrant: "539", libelle: "x", idCategorie: "5399", code: "21A" })).toEqual({ code: "warning.numeric" });
    expect(errors({ dicIdTypeIntrant: "539", libelle: "x", idCategorie: "5399", matiereActive: "beaucoup" })).toEqual({ matiereActive: "warning.numeric" });
    expect(errors({ dicIdTypeIntrant: "540", libelle: "x", idCategorie: "655", k2o: "vingt" })).toEqual({ k2o: "warning.numeric" });
    expect(errors({ dicIdTypeIntrant: "540", libelle: "x", idCategorie: "655", n: "46" })).toEqual({ n: "intrants-dossier.composition-100" });
    expect(errors({ dicIdTypeIntrant: "540", libelle: "x", idCategorie: "655", n: "46", cao: "54" })).toEqual({});
    expect(errors({ dicIdTypeIntrant: "539", libelle: "x", idCategorie: "5399", uniteMatActive: "mg" })).toEqual({ uniteMatActive: "warning.invalid" });
    for (const u of ["g/L", "%", "g/kg", "autre"])
      expect(errors({ dicIdTypeIntrant: "539", libelle: "x", idCategorie: "5399", uniteMatActive: u })).toEqual({});
  });
});
