import { describe, expect, test } from "vitest";
import { INT_MAX } from "~/domain/validation";
import { action as loginAction } from "../../app/routes/login";
import { action as mesuresFichiers } from "../../app/routes/au-champs/mesures-fichiers";
import { action as mesures } from "../../app/routes/au-champs/mesures";
import { action as interventions } from "../../app/routes/au-champs/interventions";
import { action as mainOeuvre } from "../../app/routes/description/main-oeuvre";
import { action as parcelle, loader as parcelleLoader } from "../../app/routes/description/parcelle";
import { action as sessionExports } from "../../app/routes/resultats/session-exports";
import { getRoute, postForm } from "../helpers/route-call";
import { countRows, selectTilleuls } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import type { RouterArgs } from "../../server/http/context.server";

/**
 * Input that cannot hurt (issue 23, decision 0091), through the route actions as the browser posts them: a NUL in a
 * text, an id of 2^31 and a date of year 9999 are a 400 naming the field, and nothing is stored (before: a 500 on
 * PostgreSQL, the NUL or the date stored on SQLite).
 */
const t = useTestDb();
const TOO_BIG = String(INT_MAX + 1);

async function animateur() {
  const db = t.db();
  const user = await selectTilleuls(t, "animateur", "tilleuls2025");
  return { db, user, idCampagne: t.demo().campagnes.tilleuls2025 };
}

const fieldErrorsOf = (body: unknown): Record<string, string[]> => {
  const b = body as { fieldErrors?: Record<string, string[]>; submission?: { error?: Record<string, string[] | null> } };
  if (b.fieldErrors) return b.fieldErrors;
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(b.submission?.error ?? {})) if (v) out[k] = v;
  return out;
};

describe(`input that cannot hurt (${dialect})`, () => {
  test("[issue23-input] a NUL or another control character in a text is a field error; nothing is stored", async () => {
    const { db, user, idCampagne } = await animateur();
    const labours = await countRows(db, "main_oeuvre", { idCampagne });
    const plots = await countRows(db, "parcelle", { idCampagne });
    const labour = { intent: "save", libelle: "Salarié", idTypeUser: "951", uta: "1" };
    for (const [form, field] of [
      [{ ...labour, libelle: "Salarié\u0000" }, "libelle"],
      [{ ...labour, remarque: "Première ligne\nseconde\u0000" }, "remarque"],
      [{ ...labour, libelle: "Sala\u0007rié" }, "libelle"],
    ] as const) {
      const a = await postForm(mainOeuvre, { db, user, path: "home/description/exploitation/main_oeuvre", form });
      expect(a.status, JSON.stringify(form)).toBe(400);
      expect(fieldErrorsOf(a.body)[field]).toEqual(["warning.control-character"]);
    }
    const plot = await postForm(parcelle, {
      db,
      user,
      path: "home/description/exploitation/parcelle",
      form: { intent: "save", libelle: "Parcelle\u0000", surface: "1" },
    });
    expect([plot.status, fieldErrorsOf(plot.body).libelle]).toEqual([400, ["warning.control-character"]]);
    // A multi-line text keeps its line breaks and tabs.
    const ok = await postForm(mainOeuvre, {
      db,
      user,
      path: "home/description/exploitation/main_oeuvre",
      form: { ...labour, libelle: "Salarié multi", remarque: "Ligne 1\r\nLigne 2\tfin" },
    });
    expect(ok.status).toBe(200);
    expect(await countRows(db, "main_oeuvre", { idCampagne })).toBe(labours + 1);
    expect(await countRows(db, "parcelle", { idCampagne })).toBe(plots);
  });

  test("[issue23-input] a NUL in the sign-in name answers 400 with its field error, never a database error", async () => {
    for (const username of ["admin\u0000", "\u0000"]) {
      const form = new FormData();
      form.append("username", username);
      form.append("password", "demo1234");
      const request = new Request("http://sillon.test/sillon/login", { method: "POST", body: form });
      const { RouterContextProvider } = await import("react-router");
      const answer = await loginAction({ request, params: {}, context: new RouterContextProvider() } as unknown as Parameters<typeof loginAction>[0] &
        RouterArgs);
      const d = answer as unknown as { init: ResponseInit; data: { fieldErrors: Record<string, string[]> } };
      expect(d.init.status).toBe(400);
      expect(d.data.fieldErrors.username).toEqual(["warning.control-character"]);
    }
  });

  test("[issue23-input] an id of 2^31 is a 400 naming its field: file upload, series copy, raw-export groups, an id of the address", async () => {
    const { db, user, idCampagne } = await animateur();
    const files = await countRows(db, "fichier_attache_serie");
    const form = new FormData();
    form.append("file", new File([new Uint8Array([37, 80, 68, 70, 45])], "note.pdf", { type: "application/pdf" }));
    form.append("idObservationSerie", TOO_BIG);
    const upload = await postForm(mesuresFichiers, { db, user, path: "home/description/au_champs/mesures/fichiers", form });
    expect([upload.status, fieldErrorsOf(upload.body).idObservationSerie]).toEqual([400, ["warning.invalid"]]);
    expect(await countRows(db, "fichier_attache_serie")).toBe(files);

    const idParcelle = (await db("parcelle").where({ idCampagne }).first("id")).id as number;
    const series = await countRows(db, "observation_serie");
    const copy = await postForm(mesures, {
      db,
      user,
      path: "home/description/au_champs/mesures",
      form: { intent: "copy", idParcelle: String(idParcelle), dossierDestination: String(t.demo().dossiers.beauce), seriesSource: TOO_BIG },
    });
    expect(copy.status).toBe(400);
    expect(Object.keys(fieldErrorsOf(copy.body))).toEqual(["seriesSource[0]"]);
    expect(await countRows(db, "observation_serie")).toBe(series);

    const sessions = await countRows(db, "session_export");
    const exported = await postForm(sessionExports, {
      db,
      user,
      path: "home/resultats/session_exports",
      form: { nature: "0", campagnes: JSON.stringify([idCampagne]), groupes: JSON.stringify([Number(TOO_BIG)]) },
    });
    expect(exported.status).toBe(400);
    expect(Object.keys(fieldErrorsOf(exported.body))).toEqual(["groupes[0]"]);
    expect(await countRows(db, "session_export")).toBe(sessions);

    const tree = await getRoute(parcelleLoader, { db, user, path: `home/description/exploitation/parcelle?arbre=${TOO_BIG}` });
    expect(tree.status).toBe(400);
  });

  test("[issue23-input] a date of year 9999, or outside its campaign's window, is a field error; nothing is stored", async () => {
    const { db, user, idCampagne } = await animateur();
    const idParcelle = (await db("parcelle").where({ idCampagne }).first("id")).id as number;
    const idOperationCulturale = (await db("operation_culturale").where({ idCampagne }).first("id")).id as number;
    const actions = await countRows(db, "action", { idCampagne });
    const form = {
      intent: "save",
      idParcelle: String(idParcelle),
      idOperationCulturale: String(idOperationCulturale),
      frequence: "1",
      tauxSurface: "1",
      realisee: "on",
    };
    const path = "home/description/au_champs/interventions";
    for (const [date, key] of [
      ["9999-12-31", "warning.date-window"],
      ["31/12/9999", "warning.date-window"],
      ["2022-12-31", "warning.date-campaign"],
      ["2027-01-01", "warning.date-campaign"],
    ] as const) {
      const a = await postForm(interventions, { db, user, path, form: { ...form, date } });
      expect([a.status, fieldErrorsOf(a.body).date], date).toEqual([400, [key]]);
    }
    // The grid's save follows the same rule, row by row.
    const grid = await postForm(interventions, {
      db,
      user,
      path,
      form: {
        intent: "grid",
        patches: JSON.stringify([{ id: -1, updatedAt: null, values: { ...form, intent: undefined, date: "9999-12-31", realisee: true } }]),
      },
    });
    expect(grid.status).toBe(400);
    expect(JSON.stringify(grid.body)).toContain("warning.date-window");
    // A series of the measures screen too.
    const serie = await postForm(mesures, {
      db,
      user,
      path: "home/description/au_champs/mesures",
      form: { intent: "save", idParcelle: String(idParcelle), date: "2030-06-01", dicIdTypeSerie: "1", nom: "Série hors campagne" },
    });
    expect([serie.status, fieldErrorsOf(serie.body).date]).toEqual([400, ["warning.date-campaign"]]);
    expect(await countRows(db, "action", { idCampagne })).toBe(actions);
    // The window's edges are accepted: 1 January N-2 and 31 December N+1.
    for (const date of ["2023-01-01", "2026-12-31"]) {
      const a = await postForm(interventions, { db, user, path, form: { ...form, date } });
      expect(a.status, date).toBe(200);
    }
    expect(await countRows(db, "action", { idCampagne })).toBe(actions + 2);
  });
});
