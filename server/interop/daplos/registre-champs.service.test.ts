import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { demoUser, scopeOf } from "../../../tests/helpers/service";
import { dialect, useTestDb } from "../../../tests/helpers/test-db";
import { appliquerImportDaplos } from "./service";

/** The register's fields through the Daplos import (issue 28, decision 0125): stage, times; what the file cannot give, listed. */
const t = useTestDb();

const SAMPLE = new TextDecoder().decode(readFileSync(new URL("../../../tests/fixtures/daplos/sample-v0.94.dap", import.meta.url)));

/** A PV line with some of its fields replaced (1-based positions of the v0.95 layout), each padded to its length. */
function pv(line: string, fields: [start: number, length: number, value: string][]): string {
  let out = line.padEnd(494);
  for (const [start, length, value] of fields) out = out.slice(0, start - 1) + value.padEnd(length).slice(0, length) + out.slice(start - 1 + length);
  return out;
}

describe(`the register's fields in the Daplos import (${dialect})`, () => {
  test(
    "[issue28-champs] a BBCH stage of the crop's scale reaches idStadeCulture, another stays free text; one-day times are taken; a contractor without SIRET and multi-day times are listed",
    { timeout: 120_000 },
    async () => {
      const db = t.db();
      const user = await demoUser(db, "redacteur");
      const lignes = SAMPLE.replaceAll("08900000000000", "11111111110028").split("\r\n");
      // Plot 00248 is winter oilseed rape (ZBE ZFB: scale 3, whose BBCH 57 is "Boutons séparés (E)"); its treatments of the sample.
      const [matched, unmatched, multiDay] = [897, 915, 910].map((n) => n - 1);
      expect(lignes[matched].slice(164, 167)).toBe("SEX");
      lignes[matched] = pv(lignes[matched], [
        [89, 12, "202401030830"],
        [101, 12, "202401031015"],
        [130, 35, "Boutons séparés"],
        [241, 3, "ZHN"],
        [244, 18, "IF01234"],
        [262, 37, "ETA DU BOCAGE"],
        [485, 10, "BBCH 57"],
      ]);
      lignes[unmatched] = pv(lignes[unmatched], [[485, 10, "87"]]);
      lignes[multiDay] = pv(lignes[multiDay], [
        [89, 12, "202308100800"],
        [101, 12, "202308111000"],
      ]);
      const r = await appliquerImportDaplos(scopeOf(db, user), {
        idOad: t.demo().oads.reseauDemo,
        nomFichier: "Export_28.dap",
        octets: new TextEncoder().encode(lignes.join("\r\n")),
      });
      const [idCampagne] = await db("campagne").where({ idExploitation: r.exploitation.id! }).pluck("id");
      const action = (date: string) =>
        db("action")
          .where({ idCampagne, date, idCultureConcernee: 14 })
          .first("idStadeCulture", "precisionStade", "heureDebut", "heureFin", "siretPrestataire");
      const stage = await db("stade_culture").where({ idEchelleStadeAee: 3, code: "57" }).first("id");

      const first = await action("2024-01-03");
      expect(first).toMatchObject({ precisionStade: "Boutons séparés", heureDebut: "08:30", heureFin: "10:15", siretPrestataire: null });
      expect(Number(first.idStadeCulture)).toBe(Number(stage.id));
      // BBCH 87 is not a stage of the oilseed rape scale: the file's stage is kept as text.
      expect(await action("2024-06-21")).toMatchObject({ idStadeCulture: null, precisionStade: "87" });
      expect(await action("2023-08-10")).toMatchObject({ heureDebut: null, heureFin: null });

      // What cannot be taken is listed with its line and reason, never dropped silently.
      expect(r.avertissements).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            ligne: 897,
            type: "PV",
            cle: "daplos.avertissement.prestataire-sans-siret",
            params: { nom: "ETA DU BOCAGE", agrement: "IF01234" },
          }),
          expect.objectContaining({ ligne: 910, type: "PV", cle: "daplos.avertissement.heures-non-prises" }),
        ]),
      );
      expect(r.interventions.creees).toBe(138);
    },
  );
});
