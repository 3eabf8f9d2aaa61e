import { describe, expect, test } from "vitest";
import { countRows, demoUser, expectRefused, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { selectInContext } from "../contexte/service";
import type { Db } from "../db/knex";
import { createCampagne } from "../demo/factories";
import { LIGNES_MAX_EXPORT } from "../exports/classeur";
import { creerExportDonneesBrutes } from "./donnees-brutes";

/** Adds `n` bare plots to a campaign in one statement (generate_series on PostgreSQL, a recursive CTE on SQLite). */
async function ajouterParcelles(db: Db, idCampagne: number, n: number) {
  if (dialect === "postgres") {
    await db.raw("insert into parcelle (id_campagne, libelle) select ?, 'P' || g from generate_series(1, ?) g", [idCampagne, n]);
  } else {
    await db.raw(
      "with recursive g(i) as (select 1 union all select i + 1 from g where i < ?) insert into parcelle (id_campagne, libelle) select ?, 'P' || i from g",
      [n, idCampagne],
    );
  }
}

const t = useTestDb();

describe(`raw export over the spreadsheet limit (${dialect})`, () => {
  test(
    "[A-EXPORT-25] [C-REXP-09] the rows of every sheet are counted before anything is created: the 1,048,576th row is refused with 413, no session, no job",
    { timeout: 120_000 },
    async () => {
      const db = t.db();
      const redacteur = await demoUser(db, "redacteur");
      await selectInContext(db, redacteur, { intent: "oad", id: t.demo().oads.reseauDemo });
      const { campagnes, exploitations } = t.demo();
      // A campaign of EARL des Tilleuls with one plot more than a sheet holds below its header row.
      const idCampagne = await createCampagne(db, { idExploitation: exploitations.tilleuls, anneeRecolte: 2030, apiLibelle: "Limite" });
      await ajouterParcelles(db, idCampagne, LIGNES_MAX_EXPORT + 1);
      expect(await countRows(db, "parcelle", { idCampagne })).toBe(1_048_576);
      const avant = { sessions: await countRows(db, "session_export"), taches: await countRows(db, "tache") };
      await expectRefused(
        creerExportDonneesBrutes(scopeOf(db, redacteur), { libelle: "", version: 2, anglais: false, campagnes: [idCampagne], groupes: [1] }),
        "exports.trop-de-lignes",
        413,
        { params: { lignes: 1_048_576, max: 1_048_575 } },
      );
      expect({ sessions: await countRows(db, "session_export"), taches: await countRows(db, "tache") }).toEqual(avant);
      // Under the limit it is accepted.
      const ok = await creerExportDonneesBrutes(scopeOf(db, redacteur), {
        libelle: "",
        version: 2,
        anglais: false,
        campagnes: [campagnes.tilleuls2025],
        groupes: [1],
      });
      expect(ok.idTache).toBeGreaterThan(0);
    },
  );
});
