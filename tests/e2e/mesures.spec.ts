import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { e2eDb, expect, navigate, test } from "./fixtures";
import { apiAs, demoIds, setContext, signIn, insertId, pasteText as paste } from "./helpers";

/**
 * The measures screen (spec 2 "Observation measures", issue 15): a writer creates series of each type family and sees
 * their fields, pastes 15 observations from a spreadsheet and saves, attaches a PDF and downloads it back identical,
 * copies two series to another plot; a reader sees it all read-only and is refused the writes at HTTP level.
 */

const SHOTS = "/tmp/shots-mesures";
mkdirSync(SHOTS, { recursive: true });
const SCREEN = "/home/description/au_champs/mesures";
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** Two plots of their own in Tilleuls 2025 (removed after), the users' context on that campaign. */
async function prepare() {
  const ids = await demoIds();
  const idCampagne = ids.tilleuls2025;
  const a = await insertId("parcelle", { idCampagne, libelle: "AAA E2E mesures", surface: 4 });
  const b = await insertId("parcelle", { idCampagne, libelle: "AAB E2E mesures cible", surface: 3 });
  for (const user of ["redacteur", "lecteur"] as const)
    await setContext(user, { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne });
  return { ids, idCampagne, a, b, cleanup: () => e2eDb()("parcelle").whereIn("id", [a, b]).delete() };
}

async function openScreen(page: Page, user: "redacteur" | "lecteur", query = "") {
  await signIn(page, user);
  await navigate(page, `${SCREEN}${query}`);
  await expect(page.getByRole("heading", { name: "Mesures et observations", level: 1 })).toBeVisible();
}

const axeSerious = async (page: Page) =>
  (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);

test.describe("measures screen", () => {
  test("[B-OBS-01] [B-OBS-04] [B-OBS-12] [B-OBS-29] [B-OBS-32] [B-OBS-33] [B-OBS-34] [B-OBS-13] [B-OBS-16] [B-OBS-17] [B-OBS-18] [B-OBS-19] [B-OBS-20] [B-OBS-22] [B-OBS-23] [B-OBS-24] [B-OBS-28] [B-OBS-39] [B-OBS-45] [B-FILE-01] a writer creates series of each type family with the fields of the type, then pastes 15 observations and saves them in one go", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      await openScreen(page, "redacteur", `?parcelleId=${s.a}`);
      await expect(page.getByTestId("mesures-parcelle")).toHaveValue(String(s.a));
      await page.getByTestId("list-new").click();
      const form = page.getByTestId("serie-form");
      await expect(page.getByTestId("serie-fichiers-apres")).toBeVisible();
      await expect(page.getByTestId("observations-after-create")).toBeVisible();
      // Fields per type (spec 2 §9): organ, stage and laboratory shown or not; the name follows the type.
      const shown = async () => [
        await form.getByTestId("serie-organe").count(),
        await form.getByTestId("serie-stade").count(),
        await form.getByTestId("serie-laboratoire").count(),
      ];
      for (const [type, label, fields] of [
        ["1130", "Analyse de plante", [1, 1, 1]],
        ["1126", "Maladies", [1, 1, 0]],
        ["1124", "Analyse de sol", [0, 1, 1]],
        ["1125", "Stade de la culture", [0, 1, 0]],
        ["1131", "Adventices", [0, 0, 0]],
        ["1128", "Récolte", [1, 1, 1]],
      ] as const) {
        await page.getByTestId("serie-type").selectOption(type);
        await expect(page.getByTestId("serie-nom")).toHaveValue(label);
        expect(await shown()).toEqual(fields);
      }
      await page.getByTestId("serie-type").selectOption("1130");
      // The stage waits for the crop; clearing the crop clears the stage.
      await expect(page.getByTestId("serie-stade")).toBeDisabled();
      await page.getByTestId("serie-culture").selectOption({ label: "Interculture" });
      await page.getByTestId("serie-stade").selectOption({ index: 1 });
      await page.getByTestId("serie-culture").selectOption("");
      await expect(page.getByTestId("serie-stade")).toHaveValue("");
      await page.getByTestId("serie-date").fill("32/13/2025");
      await page.getByTestId("serie-date").blur();
      await expect(form.getByText("Date invalide")).toBeVisible();
      await expect(page.getByTestId("list-save")).toBeDisabled();
      await page.getByTestId("serie-date").fill("15/04/2025");
      await page.getByTestId("serie-laboratoire").fill("Labo E2E");
      await page.getByTestId("list-save").click();
      await expect(page.getByTestId("observations-panel")).toBeVisible();
      // The list is reloaded with the new series; the table's columns: element, value (second), unit, comment.
      await expect(page.getByRole("row", { name: /Analyse de plante/ })).toBeVisible();
      const headers = await page.locator('table[role="grid"] thead').first().textContent();
      expect(headers?.replace(/\s+/g, " ")).toMatch(/Élément observé.*Valeur.*Unité.*Commentaire/);
      const serie = await e2eDb()("observation_serie").where({ idParcelle: s.a }).first("id", "dicIdTypeSerie", "nom", "date");
      expect(serie).toMatchObject({ dicIdTypeSerie: 1130, nom: "Analyse de plante" });
      // Edit mode: the type is read-only; files may now be attached.
      await expect(page.getByTestId("serie-type")).toBeDisabled();
      await expect(page.getByTestId("serie-fichiers")).toBeVisible();
      await expect(page.getByTestId("observations-required")).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/new-series.png`, fullPage: true });

      // 15 observations pasted from a spreadsheet (element by label or by code, French decimals), then Ctrl+S.
      await page.getByTestId("grid-add-row").click();
      const names = ["Matière sèche aérienne", "Teneur en azote", "2102", "Teneur en phosphore", "Teneur en potassium"];
      const units = ["t MS/ha", "% MS", "kg N/ha", "% MS", "% MS"];
      const block = Array.from({ length: 15 }, (_, i) => `${names[i % 5]}\t${(i + 1).toString()},5\t${units[i % 5]}\tplacette ${i + 1}`).join("\r\n") + "\r\n";
      await paste(page, block);
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("15 lignes modifiées");
      await page.keyboard.press("Control+s");
      await expect(page.getByTestId("grid-dirty-count")).toHaveText("Aucune modification");
      const rows = await e2eDb()("observation")
        .where({ idObservationSerie: serie.id })
        .whereNotIn("dicoIdEltObserve", [1701, 1702])
        .orderBy("ordre")
        .select("dicoIdEltObserve", "obsValNum", "dicLlUnite", "remarque");
      expect(rows).toHaveLength(15);
      expect(rows.map((r) => Number(r.dicoIdEltObserve)).slice(0, 5)).toEqual([2100, 2101, 2102, 2103, 2104]);
      expect(Number(rows[14].obsValNum)).toBe(15.5);
      expect(rows[2]).toMatchObject({ dicLlUnite: "kg N/ha", remarque: "placette 3" });
      await expect(page.getByTestId("observations-required")).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/observations.png`, fullPage: true });
      expect(await axeSerious(page)).toEqual([]);
      // Validate saves a change and closes the panel.
      await page.getByTestId("serie-nom").fill("Analyse de plante E2E");
      await page.getByTestId("list-save").click();
      await expect(page.getByTestId("serie-details")).toHaveCount(0);
      await expect(page.getByRole("row", { name: /Analyse de plante E2E/ })).toBeVisible();
    } finally {
      await s.cleanup();
    }
  });

  test("[B-FILE-02] [B-FILE-03] [B-FILE-05] [B-FILE-06] [B-FILE-07] [B-FILE-04] a writer attaches a PDF, downloads it back identical, is refused a disguised file, deletes the PDF", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      const id = await insertId("observation_serie", {
        idCampagne: s.idCampagne,
        idExploitation: s.ids.tilleuls,
        idParcelle: s.a,
        nom: "E2E fichiers",
        date: "2025-04-01",
        dicIdTypeSerie: 1130,
      });
      await openScreen(page, "redacteur", `?parcelleId=${s.a}&id=${id}`);
      await page.getByTestId("serie-fichiers").click();
      const dialog = page.getByTestId("fichiers-dialog");
      await expect(dialog.getByTestId("fichiers-empty")).toBeVisible();
      await dialog.getByTestId("fichier-input").setInputFiles({ name: "Résultats labo.pdf", mimeType: "application/pdf", buffer: PDF });
      await dialog.getByTestId("fichier-send").click();
      await expect(dialog.getByTestId("fichiers-table")).toContainText("Résultats labo.pdf");
      await expect(dialog.getByTestId("fichiers-table")).toContainText("Claire Lefèvre");
      const fid = Number((await e2eDb()("fichier_attache_serie").where({ idObservationSerie: id }).first("id")).id);
      const download = page.waitForEvent("download");
      await dialog.getByTestId(`fichier-download-${fid}`).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("Résultats labo.pdf");
      const path = `${SHOTS}/downloaded.pdf`;
      await file.saveAs(path);
      expect(Buffer.compare(readFileSync(path), PDF)).toBe(0);
      // A file named .pdf that is not a PDF is refused with the reason.
      await dialog.getByTestId("fichier-input").setInputFiles({ name: "faux.pdf", mimeType: "application/pdf", buffer: Buffer.from("MZ\0\0binary") });
      await dialog.getByTestId("fichier-send").click();
      await expect(dialog.getByTestId("fichier-error")).toContainText("n'est pas accepté");
      await page.screenshot({ path: `${SHOTS}/file-refused.png` });
      await page.screenshot({ path: `${SHOTS}/files.png` });
      expect(await axeSerious(page)).toEqual([]);
      await dialog.getByTestId(`fichier-delete-${fid}`).click();
      await expect(dialog.getByTestId("fichiers-empty")).toBeVisible();
      expect(await e2eDb()("fichier_attache_serie").where({ idObservationSerie: id }).select("id")).toHaveLength(0);
    } finally {
      await s.cleanup();
    }
  });

  test("[B-OBS-02] [B-OBS-09] [B-OBS-10] [B-OBS-11] [B-OBS-08] a writer copies two ticked series to another plot, filters by type and deletes two series at once", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      const serie = (nom: string, type: number) =>
        insertId("observation_serie", {
          idCampagne: s.idCampagne,
          idExploitation: s.ids.tilleuls,
          idParcelle: s.a,
          nom,
          date: "2025-04-01",
          dicIdTypeSerie: type,
        });
      const one = await serie("E2E copie un", 1126);
      const two = await serie("E2E copie deux", 1127);
      await insertId("observation", {
        idObservationSerie: one,
        idParcelle: s.a,
        dicoIdEltObserve: 2050,
        obsValNum: 12,
        dicLlUnite: "% plantes atteintes",
        ordre: 1,
      });
      await openScreen(page, "redacteur", `?parcelleId=${s.a}`);
      await expect(page.getByTestId("mesures-copy")).toBeDisabled();
      await expect(page.getByTestId("mesures-export")).toBeDisabled();
      // The type filter.
      await page.getByTestId("mesures-type-filter").selectOption("1126");
      await expect(page.getByRole("row", { name: /E2E copie deux/ })).toHaveCount(0);
      await page.getByTestId("mesures-type-filter").selectOption("");
      for (const name of ["E2E copie un", "E2E copie deux"])
        await page
          .getByRole("row", { name: new RegExp(name) })
          .getByRole("checkbox")
          .check();
      await page.getByTestId("mesures-copy").click();
      const dialog = page.getByTestId("copie-dialog");
      await expect(dialog).toBeVisible();
      expect(Math.round((await dialog.boundingBox())!.width)).toBeLessThanOrEqual(500);
      await dialog.getByTestId("copie-cible").selectOption(String(s.b));
      await page.screenshot({ path: `${SHOTS}/copy.png` });
      await dialog.getByTestId("copie-send").click();
      await expect(page.getByText("Séries copiées")).toBeVisible();
      const copies = await e2eDb()("observation_serie").where({ idParcelle: s.b }).orderBy("nom").select("id", "nom", "dicIdTypeSerie");
      expect(copies.map((c) => c.nom)).toEqual(["E2E copie deux", "E2E copie un"]);
      const copied = await e2eDb()("observation").where({ idObservationSerie: copies[1].id }).first("dicoIdEltObserve", "obsValNum");
      expect(Number(copied.obsValNum)).toBe(12);
      // Delete both at once.
      await page.getByTestId("list-delete").click();
      await page.getByTestId("delete-dialog").getByRole("button", { name: "Supprimer" }).click();
      await expect(page.getByRole("row", { name: /E2E copie/ })).toHaveCount(0);
      expect(await e2eDb()("observation_serie").whereIn("id", [one, two]).select("id")).toEqual([]);
    } finally {
      await s.cleanup();
    }
  });

  test("[B-RIGHTS-03] [B-RIGHTS-05] [B-RIGHTS-07] [B-RIGHTS-08] [B-RIGHTS-09] [B-RIGHTS-13] [B-OBS-36] a reader sees the series, observations and files read-only, and is refused uploads, deletes and another folder's file at HTTP level; a path or a forbidden type in an upload is refused", async ({
    page,
  }) => {
    const s = await prepare();
    try {
      const redacteur = Number((await e2eDb()("utilisateur").where({ username: "redacteur" }).first("id")).id);
      const id = await insertId("observation_serie", {
        idCampagne: s.idCampagne,
        idExploitation: s.ids.tilleuls,
        idParcelle: s.a,
        nom: "E2E lecture",
        date: "2025-04-01",
        dicIdTypeSerie: 1130,
      });
      await insertId("observation", { idObservationSerie: id, idParcelle: s.a, dicoIdEltObserve: 2100, obsValNum: 4.2, dicLlUnite: "t MS/ha", ordre: 1 });
      const chemin = "e2e-lecture.pdf";
      const fid = await insertId("fichier_attache_serie", {
        idObservationSerie: id,
        nom: "lecture.pdf",
        date: new Date(),
        creePar: redacteur,
        chemin,
        typeMime: "application/pdf",
        taille: PDF.length,
      });
      await openScreen(page, "lecteur", `?parcelleId=${s.a}&id=${id}`);
      await expect(page.getByTestId("list-new")).toBeDisabled();
      await expect(page.getByTestId("mesures-copy")).toBeDisabled();
      await expect(page.getByTestId("mesures-import")).toBeDisabled();
      await expect(page.getByText("Tableau en lecture seule")).toBeVisible();
      await expect(page.getByTestId("observations-delete-row")).toHaveCount(0);
      await expect(page.getByTestId("observations-dossier-obs")).toBeDisabled();
      await expect(page.getByTestId("list-save")).toHaveCount(0);
      await page.getByTestId("serie-fichiers").click();
      await expect(page.getByTestId("fichier-upload")).toHaveCount(0);
      await expect(page.getByTestId(`fichier-delete-${fid}`)).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/reader.png`, fullPage: true });
      expect(await axeSerious(page)).toEqual([]);

      // At HTTP level: no upload, no file delete, no series delete; nothing written.
      const api = await apiAs("lecteur");
      const up = await api.post(`${SCREEN.slice(1)}/fichiers`, {
        multipart: { idObservationSerie: String(id), file: { name: "a.pdf", mimeType: "application/pdf", buffer: PDF } },
      });
      expect(up.status()).toBe(403);
      const del = await api.post(SCREEN.slice(1), { form: { intent: "deleteFichier", id: String(fid) } });
      expect(del.status()).toBe(403);
      const delSerie = await api.post(SCREEN.slice(1), { form: { intent: "delete", ids: JSON.stringify([id]) } });
      expect(delSerie.status()).toBe(403);
      expect(await e2eDb()("fichier_attache_serie").where({ idObservationSerie: id }).select("id")).toHaveLength(1);
      expect(await e2eDb()("observation_serie").where({ id }).select("id")).toHaveLength(1);
      // A file of a folder the reader cannot read (Bocage) is not downloaded.
      const vallee2025 = Number((await e2eDb()("campagne").where({ idExploitation: s.ids.vallee, anneeRecolte: 2025, simulation: false }).first("id")).id);
      const valleePlot = Number((await e2eDb()("parcelle").where({ idCampagne: vallee2025 }).first("id")).id);
      const foreign = await insertId("observation_serie", {
        idCampagne: vallee2025,
        idExploitation: s.ids.vallee,
        idParcelle: valleePlot,
        nom: "E2E autre dossier",
        date: "2025-04-01",
        dicIdTypeSerie: 1130,
      });
      const foreignFile = await insertId("fichier_attache_serie", {
        idObservationSerie: foreign,
        nom: "secret.pdf",
        date: new Date(),
        creePar: redacteur,
        chemin: "e2e-secret.pdf",
        typeMime: "application/pdf",
        taille: 1,
      });
      const down = await api.get(`${SCREEN.slice(1)}/fichiers/${foreignFile}`, { maxRedirects: 0 });
      expect(down.status()).toBe(404);
      await e2eDb()("observation_serie").where({ id: foreign }).delete();
      await api.dispose();
      // A writer's upload named with a path, or of a forbidden type, is refused and nothing is written.
      const writer = await apiAs("redacteur");
      for (const [name, buffer, key] of [
        ["../../x.pdf", PDF, "nom-refuse"],
        ["x.exe", Buffer.from("MZ\0\0"), "type-refuse"],
      ] as const) {
        const res = await writer.post(`${SCREEN.slice(1)}/fichiers`, {
          multipart: { idObservationSerie: String(id), file: { name, mimeType: "application/octet-stream", buffer } },
        });
        expect(res.status()).toBe(400);
        expect(await res.text()).toContain(`observations.fichiers.${key}`);
      }
      expect(await e2eDb()("fichier_attache_serie").where({ idObservationSerie: id }).select("id")).toHaveLength(1);
      await writer.dispose();
      writeFileSync(`${SHOTS}/.done`, "");
    } finally {
      await s.cleanup();
    }
  });

  test("[B-PLAC-08] [B-OBS-35] [B-OBS-37] [B-OBS-38] [B-PLAC-01] [B-PLAC-02] [B-PLAC-04] [B-HOR-01] [B-HOR-02] [B-HOR-03] [B-HOR-06] [B-HOR-08] [B-HOR-10] the demo plot's series: values per placette, horizons of a soil series with their dialog, weed stage column; the placettes dialog and its map", async ({
    page,
  }) => {
    const ids = await demoIds();
    const db = e2eDb();
    await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
    // The demo plot with placettes (other journeys may add plots that sort before it).
    const withPlacettes = await db("observation_serie as s")
      .join("placette as p", "p.idParcelle", "s.idParcelle")
      .where({ "s.idCampagne": ids.tilleuls2025, "s.dicIdTypeSerie": 1130 })
      .orderBy("s.id")
      .first("s.idParcelle");
    const plot = { id: Number(withPlacettes.idParcelle) };
    const of = async (type: number) => Number((await db("observation_serie").where({ idParcelle: plot.id, dicIdTypeSerie: type }).first("id")).id);
    // Values per placette: one value column per placette, after the element.
    await openScreen(page, "redacteur", `?parcelleId=${plot.id}&id=${await of(1130)}`);
    const grid = page.locator('table[role="grid"]');
    await expect(grid).toContainText("Valeur Placette témoin");
    await expect(grid).toContainText("Valeur Placette bande fleurie");
    await page.screenshot({ path: `${SHOTS}/per-placette.png`, fullPage: true });
    // Unticking a placette with values asks first (B-PLAC-08); cancelled, it stays ticked.
    const first = page.getByTestId("serie-placettes").getByRole("checkbox").first();
    await first.click();
    await expect(page.getByTestId("untick-dialog")).toContainText("seront supprimées");
    await page.getByTestId("untick-dialog").getByRole("button", { name: "Annuler" }).click();
    await expect(first).toBeChecked();
    await page.getByTestId("observations-placettes").click();
    const placettes = page.getByTestId("placettes-dialog");
    await expect(placettes).toContainText("Placette témoin");
    expect(Math.round((await placettes.boundingBox())!.width)).toBe(800);
    await placettes.getByRole("button", { name: "Modifier" }).first().click();
    const edit = page.getByTestId("placette-edit-dialog");
    await expect(edit.getByTestId("placette-libelle")).toHaveValue(/Placette/);
    await expect(edit.getByTestId("plot-map-canvas").locator("canvas.maplibregl-canvas")).toBeVisible();
    expect(Math.round((await edit.getByTestId("plot-map-canvas").boundingBox())!.height)).toBe(400);
    await page.screenshot({ path: `${SHOTS}/placette-edit.png` });
    await edit.getByRole("button", { name: "Annuler" }).click();
    await page.keyboard.press("Escape");

    // Soil series: the horizon column and table; the dialog saves only when valid.
    await navigate(page, `${SCREEN}?parcelleId=${plot.id}&id=${await of(1129)}`);
    await expect(grid).toContainText("Horizon");
    const horizons = page.getByTestId("horizons");
    await expect(horizons).toContainText("30-60 cm");
    // An unsaved horizon is known by a client-only temporary id (B-HOR-03): cancelled, nothing is kept, and the next
    // New is a fresh row with its own id, which the save does not send.
    const horizonCount = async () => Number((await db("horizon").count({ n: "*" }).first())!.n);
    const countBefore = await horizonCount();
    await horizons.getByTestId("horizon-new").click();
    const dialog = page.getByTestId("horizon-dialog");
    const draftId = await dialog.locator("form").getAttribute("data-local-id");
    expect(draftId).toMatch(/^local-\d+$/);
    await dialog.getByTestId("horizon-name").fill("Brouillon");
    await dialog.getByRole("button", { name: "Annuler" }).click();
    await expect(dialog).toHaveCount(0);
    expect(await horizonCount()).toBe(countBefore);
    await horizons.getByTestId("horizon-new").click();
    await expect(dialog.getByTestId("horizon-name")).toHaveValue("");
    await expect(dialog.locator("form")).not.toHaveAttribute("data-local-id", draftId!);
    await dialog.getByTestId("horizon-name").fill("90-120 cm");
    await dialog.getByTestId("horizon-sup").fill("90");
    await dialog.getByTestId("horizon-inf").fill("120");
    await expect(dialog).toContainText("La limite supérieure ne peut pas être inférieure à la limite inférieure");
    await expect(dialog.getByTestId("horizon-save")).toBeDisabled();
    await dialog.getByTestId("horizon-sup").fill("120");
    await dialog.getByTestId("horizon-inf").fill("90");
    await expect(dialog.getByTestId("horizon-save")).toBeEnabled();
    const posted = page.waitForRequest((r) => r.method() === "POST");
    await dialog.getByTestId("horizon-save").click();
    expect((await posted).postData()).not.toContain("local-");
    await expect(horizons).toContainText("90-120 cm");
    await page.screenshot({ path: `${SHOTS}/soil.png`, fullPage: true });
    await db("horizon").where({ name: "90-120 cm" }).delete();

    // Weed series: the weed's stage in place of the unit.
    await navigate(page, `${SCREEN}?parcelleId=${plot.id}&id=${await of(1131)}`);
    await expect(grid).toContainText("Stade");
    await expect(grid).not.toContainText("Unité");
    await page.screenshot({ path: `${SHOTS}/weeds.png`, fullPage: true });
    expect(await axeSerious(page)).toEqual([]);
  });
});
