import type { Db } from "../db/knex";
import { creerSerie, executerSerie, synchroniserCampagne } from "../calcul-serie/service";

/**
 * The demo's calculation series (issue 14): EARL des Tilleuls 2024, whose indicators the demo shows published, is
 * calculated by the series service itself at seed time (no figure is written by hand) and its groups are published.
 * EARL des Tilleuls 2025 and its simulation ('Simulation réduction phyto') get a finished, unpublished series each,
 * calculated the same way, so that the campaign / simulation comparison of the demo is filled (decision 0069).
 */
export async function seedDemoSeries(trx: Db, campagnes: Record<string, number>, idUtilisateur: number): Promise<number> {
  const idCampagne = campagnes.tilleuls2024;
  if (idCampagne == null) throw new Error("Demo campaign tilleuls2024 missing");
  const id = await creerSerie(trx, idCampagne, idUtilisateur);
  await executerSerie(trx, id);
  const serie = await trx("calcul_serie").where({ id }).first("statut", "erreur");
  if (serie.statut !== "termine") throw new Error(`Demo calculation series failed: ${serie.erreur}`);
  await trx("calcul_serie_groupe").where({ idCalculSerie: id }).update({ publie: true });
  await trx("calcul_serie").where({ id }).update({ publication: true, remarque: "Série de démonstration : indicateurs publiés." });
  await synchroniserCampagne(trx, idCampagne);
  for (const nom of ["tilleuls2025", "tilleuls2025Simulation"]) {
    const idC = campagnes[nom];
    if (idC == null) throw new Error(`Demo campaign ${nom} missing`);
    const idS = await creerSerie(trx, idC, idUtilisateur);
    await executerSerie(trx, idS);
    const s = await trx("calcul_serie").where({ id: idS }).first("statut", "erreur");
    if (s.statut !== "termine") throw new Error(`Demo calculation series of ${nom} failed: ${s.erreur}`);
  }
  return id;
}
