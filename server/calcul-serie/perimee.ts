/**
 * A series out of date (decision 0072): one of its campaign's counters moved on since the series was created —
 * `version_interventions` (interventions, inputs, harvests; decision 0063) or `version_donnees_calcul` (plots, modes,
 * operations, machinery, labour, characteristics, prices, the inputs' targets and composition; migration
 * 20261129_0025_serie_perimee). Read as one more column of the series' own query, `s` the calcul_serie alias; the
 * series made before that migration (no counters stored) are never out of date.
 */
export const PERIMEE_SQL =
  "(s.version_donnees IS NOT NULL AND (" +
  "COALESCE((SELECT vi.version FROM version_interventions vi WHERE vi.id_campagne = s.id_campagne), 0) <> s.version_interventions OR " +
  "COALESCE((SELECT vd.version FROM version_donnees_calcul vd WHERE vd.id_campagne = s.id_campagne), 0) <> s.version_donnees))";
