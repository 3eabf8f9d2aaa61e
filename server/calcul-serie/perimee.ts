/**
 * A series out of date (decision 0072): one of its campaign's counters moved on since the series was created —
 * `version_interventions` (interventions, inputs, harvests; decision 0063) or `version_donnees_calcul` (plots, modes,
 * operations, machinery, labour, characteristics, prices, the inputs' targets and composition; migration
 * 20261129_0025_serie_perimee) — or the reference data its IFT read moved on (`version_referentiels`: the official
 * reference-dose list and the phyto catalogue, shared by every campaign; decision 0085, migration
 * 20261202_0027_referentiels_perimee). Read as one more column of the series' own query, `s` the calcul_serie alias;
 * the series made before a migration (no counter stored) are not marked by what it follows.
 */
export const PERIMEE_SQL =
  "((s.version_donnees IS NOT NULL AND (" +
  "COALESCE((SELECT vi.version FROM version_interventions vi WHERE vi.id_campagne = s.id_campagne), 0) <> s.version_interventions OR " +
  "COALESCE((SELECT vd.version FROM version_donnees_calcul vd WHERE vd.id_campagne = s.id_campagne), 0) <> s.version_donnees)) OR " +
  "(s.version_referentiels IS NOT NULL AND COALESCE((SELECT vr.version FROM version_referentiels vr WHERE vr.id = 1), 0) <> s.version_referentiels))";
