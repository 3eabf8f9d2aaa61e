import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { e2eDb, expect, userId } from "./fixtures";
import { demoIds, setContext, signIn } from "./helpers";

/** What the interop journeys (Daplos import, eDaplos export and import) share. */

/** The demo writer signed in on EARL des Tilleuls 2025 of the Beauce folder: the demo's ids. */
export async function ouvrirInterop(page: Page) {
  const ids = await demoIds();
  await setContext("redacteur", { idOad: ids.reseauDemo, idDossier: ids.beauce, exploitations: [ids.tilleuls], idCampagne: ids.tilleuls2025 });
  await signIn(page, "redacteur");
  return ids;
}

/** No serious or critical WCAG 2.1 AA violation on the page. */
export async function axeInterop(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
}

/**
 * What a Daplos or eDaplos import writes, removed once no import runs: the farms it made (found by their keys; their
 * campaigns, plots and interventions go with them), the folder's inputs, its keys, rows and jobs; `exportsEdaplos`:
 * the writer's eDaplos export sessions too.
 */
export async function nettoyerImports({ exportsEdaplos = false } = {}) {
  const db = e2eDb();
  const ids = await demoIds();
  const idUser = await userId("redacteur");
  const enCours = async () =>
    Number((await db("tache").where({ type: "import-daplos" }).whereIn("etat", ["en_attente", "en_cours"]).count({ n: "*" }).first())?.n);
  await expect.poll(enCours, { timeout: 120_000 }).toBe(0);
  const fermes = (await db("import_daplos_cle").where({ idOad: ids.reseauDemo, nature: "exploitation" }).select("idCible")).map((r) => r.idCible as number);
  // A key may name a demo farm an import updated (found by its SIRET, decision 0138): only the farms imports made go.
  const demo = [ids.tilleuls, ids.moulin, ids.vallee];
  if (fermes.length) await db("exploitation").whereIn("id", fermes).whereNotIn("id", demo).delete();
  await db("intrant_dossier").where({ remarque: "Import Daplos" }).delete();
  await db("import_daplos_cle").where({ idOad: ids.reseauDemo }).delete();
  await db("import_daplos").where({ idUser }).delete();
  await db("tache").where({ type: "import-daplos", idUtilisateur: idUser }).delete();
  if (exportsEdaplos) await db("session_export").where({ idUtilisateur: idUser, nature: 2 }).delete();
}
