import { controlerCampagne } from "~/domain/calc/indicateurs/controle";
import { agregerCampagne, preparerCampagne, type NiveauResultat, type ResultatParcelle } from "~/domain/calc/indicateurs/moteur";
import { nombreManquants, premiersManquants } from "~/domain/calc/indicateurs/resultat";
import type { Explication, Indicateur, Indicateurs, InstantaneCampagne, Manquant } from "~/domain/calc/indicateurs/types";
import { campagneLibelle } from "~/domain/partage";
import {
  CODES_GRAPHIQUES,
  CODES_IFT_SEGMENTS,
  etatSerie,
  groupeDuCode,
  GROUPES_SERIE,
  publierGroupes,
  refusModification,
  severiteControle,
  type ControleSerie,
  type EtatSerie,
} from "~/domain/calc/serie";
import { abilitiesFor, ensure } from "../access/abilities";
import { recordAudit } from "../audit/repo";
import { bool, toIso } from "../db/dialect";
import type { Db } from "../db/knex";
import { failingWith, ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";
import { instantaneCampagne } from "../calcul/instantane";
import { optionsCampagne } from "../calcul/options";
import { definirTache, lancerTache } from "../jobs/runner";
import { complementsControle } from "./complements";
import * as repo from "./repo";
import type { LignesStockees } from "./repo";

/**
 * Calculation series (spec 3 §3.14, §4.7, §6, §7 calculs_series; issue 14; decision 0054): the pre-check, the forced
 * run (plot by plot, progress, rows stored in batches), the list by campaign with the visibility of spec 3 §6, the
 * detail with its charts' figures and explanations, publication by group, remark, visa and un-visa. The campaign's
 * flags follow its series: indicateur_publie when one is published, serie_valide when one is validated; the one lock
 * check (server/access/abilities.ts campaignLock, the write gate) then refuses the raw-data writes of the campaign.
 */

// ---------------------------------------------------------------------------------------------
// Rights: the best right the user has on the campaign's farm through any folder that links it.

export type DroitsSerie = { idExploitation: number; idDossier: number | null; calculer: boolean; valider: boolean; voirTout: boolean; voirPublies: boolean };

export async function droitsCampagne(db: Db, user: Utilisateur, idCampagne: number): Promise<DroitsSerie> {
  const idExploitation = await repo.exploitationDeCampagne(db, idCampagne);
  if (idExploitation == null) throw new ServiceError("errors.not-found", 404);
  const dossiers = await repo.dossiersVersExploitation(db, user.id, idExploitation);
  const d: DroitsSerie = { idExploitation, idDossier: null, calculer: false, valider: false, voirTout: false, voirPublies: false };
  for (const idDossier of dossiers) {
    const a = await abilitiesFor(db, user, { idDossier, idExploitation });
    if (a.canCalculate && (!d.calculer || (a.canValidateResults && !d.valider))) d.idDossier = idDossier;
    d.idDossier ??= a.canReadFarm ? idDossier : null;
    d.calculer ||= a.canCalculate;
    // Validating is done from the detail, which needs the write right: the animation right of a folder that writes the farm.
    d.valider ||= a.canValidateResults && a.canCalculate;
    d.voirTout ||= a.canExportAllCalculations;
    d.voirPublies ||= a.canExportPublishedCalculations;
  }
  return d;
}

/** Which series a user sees (C-RIGHTS-17..19): all, published ones, or published and validated ones. */
export function serieVisible(d: Pick<DroitsSerie, "voirTout" | "voirPublies">, s: { publication: boolean; visaAnimateur: boolean }): boolean {
  return d.voirTout || (d.voirPublies ? s.publication : s.publication && s.visaAnimateur);
}

// ---------------------------------------------------------------------------------------------
// Check and run

async function campagneOf(db: Db, idCampagne: number) {
  const c = await repo.campagneDeCalcul(db, idCampagne);
  if (!c) throw new ServiceError("errors.not-found", 404);
  return c;
}

/** Done interventions count, planned ones for a simulation (decision 0044). */
// The live plot panel's options too (server/calcul/options.ts).
const optionsDe = optionsCampagne;

/**
 * The error keys of the calculation services (spec 3 §8; C-ERR-20): an unexpected failure (database, bug) of a
 * check or a launch, of reading a series' indicators or explanations, of a change of a series.
 */
export const CALCUL_ERROR = "errors.services.calcul-service-error";
export const CALCUL_INDICATEURS_ERROR = "errors.services.calcul-service-indicateurs-error";
export const CALCUL_UPDATE_ERROR = "errors.services.calcul-update-service-error";

/** The pre-check of one campaign (GET calculs_series/check; C-CALC-09): write right on the farm (C-RIGHTS-13). */
export async function controlerSerie(db: Db, user: Utilisateur, idCampagne: number): Promise<ControleSerie> {
  return failingWith(CALCUL_ERROR, async () => {
    ensure((await droitsCampagne(db, user, idCampagne)).calculer);
    return controlerSansDroits(db, idCampagne);
  });
}

export async function controlerSansDroits(db: Db, idCampagne: number): Promise<ControleSerie> {
  return (await controlerAvecInstantane(db, idCampagne)).controle;
}

/** The pre-check and the snapshot it read (the launch job runs the series on the same snapshot: ./lancement.ts). */
export async function controlerAvecInstantane(db: Db, idCampagne: number): Promise<{ controle: ControleSerie; instantane: InstantaneCampagne }> {
  const c = await campagneOf(db, idCampagne);
  const instantane = await instantaneCampagne(db, idCampagne);
  const complements = await complementsControle(db, idCampagne);
  // The snapshot's reads were many awaits; the check itself is one synchronous pass: a slice of its own (decision 0102).
  await new Promise<void>((r) => setImmediate(r));
  return { controle: severiteControle(controlerCampagne(instantane, complements, optionsDe(c))), instantane };
}

export type Progression = (fait: number, total: number) => void | Promise<void>;

/** A slice of a job's work between two yields to the event loop (decision 0102): a request waits at most about this long. */
export const TRANCHE_MS = 10;

/**
 * Cooperative yielding (decision 0102): `await cede()` between two units of work goes back to the event loop
 * (setImmediate: the requests waiting are served) once the slice has run TRANCHE_MS, and costs nothing otherwise.
 */
export function cederParTranches(trancheMs = TRANCHE_MS): () => Promise<void> {
  let debut = performance.now();
  return async () => {
    if (performance.now() - debut < trancheMs) return;
    await new Promise<void>((r) => setImmediate(r));
    debut = performance.now();
  };
}

/**
 * Launches the forced run of a campaign (GET calculs_series/calc force; C-CALC-10, 11): write right on the farm,
 * a check that does not refuse, then the earlier unpublished series of the campaign are deleted and a new series
 * is created and its run is handed to the job runner (`executer` runs it in place instead: tests, seed, bench).
 */
export async function lancerSerie(
  db: Db,
  user: Utilisateur,
  idCampagne: number,
  options: { executer?: (idSerie: number) => Promise<void> } = {},
): Promise<{ id: number; execution: Promise<void> }> {
  return failingWith(CALCUL_ERROR, () => lancer(db, user, idCampagne, options));
}

async function lancer(
  db: Db,
  user: Utilisateur,
  idCampagne: number,
  options: { executer?: (idSerie: number) => Promise<void> },
): Promise<{ id: number; execution: Promise<void> }> {
  const droits = await droitsCampagne(db, user, idCampagne);
  ensure(droits.calculer);
  const controle = await controlerSansDroits(db, idCampagne);
  if (controle.codeRetour === "Erreur") throw new ServiceError(CALCUL_ERROR, 409);
  const id = await creerSerieAuditee(db, user, droits, idCampagne);
  if (options.executer) return { id, execution: options.executer(id) };
  // The job runner runs it (server/tache, decision 0051); the series names its job.
  const tache = await lancerTache(db, { type: TACHE_CALCUL_SERIE, idUtilisateur: user.id, parametres: { idSerie: id } });
  await repo.majSerie(db, id, { idTache: tache.id });
  return { id, execution: Promise.resolve() };
}

/** A new series of the campaign (its earlier unpublished ones deleted) and its audit row; `idTache`: the job running it. */
export async function creerSerieAuditee(db: Db, user: Utilisateur, droits: DroitsSerie, idCampagne: number, idTache?: number): Promise<number> {
  const id = await creerSerie(db, idCampagne, user.id);
  if (idTache !== undefined) await repo.majSerie(db, id, { idTache });
  await recordAudit(db, {
    idUser: user.id,
    userLabel: user.username,
    action: "calcul-serie.lancer",
    entite: "calcul_serie",
    idEntite: id,
    idDossier: droits.idDossier,
    idExploitation: droits.idExploitation,
  });
  return id;
}

/** The job type of a series run. */
export const TACHE_CALCUL_SERIE = "calcul-serie";

/** Deletes the campaign's unpublished series that are not running, and creates the new one (in one transaction). */
export const creerSerie = repo.creerSerie;

/** The codes whose explanation keeps its entries (the charted figures): storing every entry of every figure weighs ~0.5 MB per plot. */
const AVEC_ENTREES = new Set<string>([...CODES_GRAPHIQUES, ...CODES_IFT_SEGMENTS]);

/** Missing data kept per figure (their count is nb_manquants): an aggregated figure repeats those of every plot. */
export const MANQUANTS_GARDES = 50;

/**
 * The stored explanation of a figure (decision 0055): formula, remarks and the first missing data for all, the
 * entries for the figures the detail charts. Crop, mode and farm rows keep it; plot rows keep none, their
 * explanation is computed again from the plot's data when opened (decision 0070), equal to this one.
 */
export function explicationStockee(ind: Indicateur): Explication & { manquants: Manquant[] } {
  return {
    formule: ind.explication.formule,
    entrees: AVEC_ENTREES.has(ind.code) ? ind.explication.entrees : [],
    ...(ind.explication.remarques ? { remarques: ind.explication.remarques } : {}),
    manquants: premiersManquants(ind, MANQUANTS_GARDES),
  };
}

function lignesDe(idSerie: number, niveau: NiveauResultat, id: number | string, indicateurs: Indicateurs, idParcelle: number | null, out: LignesStockees) {
  const idEntite = String(id);
  for (const code in indicateurs) {
    const ind = indicateurs[code];
    let idGroupe = out.groupes.get(ind.code);
    if (idGroupe === undefined) out.groupes.set(ind.code, (idGroupe = groupeDuCode(ind.code)));
    out.valeurs.push(
      idSerie,
      niveau,
      idEntite,
      idParcelle,
      ind.code,
      idGroupe,
      ind.valeur != null && Number.isFinite(ind.valeur) ? ind.valeur : null,
      ind.unite,
      ind.completude,
      nombreManquants(ind),
      niveau === "parcelle" ? null : JSON.stringify(explicationStockee(ind)),
    );
    out.nombre++;
  }
}

/**
 * The run of a series (the job's body: `definirTache('calcul-serie', ({db, tache, progression}) => executerSerie(db, tache.parametres.idSerie, progression))`):
 * the campaign's snapshot, each plot computed alone (a failing plot is counted and skipped), progress after each
 * plot, then crop, mode and farm levels and every row stored in batches in one transaction. A failure marks the
 * series `erreur` with its message; it never stays running.
 */
export async function executerSerie(
  db: Db,
  idSerie: number,
  progression?: Progression,
  phases?: Record<string, number>,
  options: { instantane?: InstantaneCampagne } = {},
): Promise<void> {
  // Wall and CPU time of each step, when the caller asks (bench/calcul-serie.ts).
  let t0 = performance.now();
  let c0 = process.cpuUsage();
  const phase = (nom: string) => {
    if (!phases) return;
    const t = performance.now();
    const c = process.cpuUsage(c0);
    phases[nom] = (phases[nom] ?? 0) + t - t0;
    phases[`${nom}.cpu`] = (phases[`${nom}.cpu`] ?? 0) + (c.user + c.system) / 1000;
    t0 = t;
    c0 = process.cpuUsage();
  };
  const idCampagne = await repo.campagneDeSerie(db, idSerie);
  if (idCampagne == null) throw new ServiceError("errors.not-found", 404);
  let dernier = 0;
  const enregistrer = async (fait: number, total: number, fin = false) => {
    await progression?.(fait, total);
    // The screen reads the series row: written at most every half second, and at the end.
    if (!fin && Date.now() - dernier < 500) return;
    dernier = Date.now();
    await repo.majSerie(db, idSerie, { nbParcellesTraitees: fait });
  };
  try {
    const c = await campagneOf(db, idCampagne);
    // The one loader of the live panel and the series: catalogue rows and the reference list included (decision 0085).
    // The launch job's pre-check read it just before (./lancement.ts): the same rows, not read twice.
    const instantane = options.instantane ?? (await instantaneCampagne(db, idCampagne));
    phase("instantane");
    const total = instantane.parcelles.length;
    await repo.majSerie(db, idSerie, { nbParcellesATraiter: total });
    // Without explanation entries: the plot rows store none (decision 0070), the aggregated ones are built from values.
    const calculer = preparerCampagne(instantane, { ...optionsDe(c), explications: false });
    const parcelles: ResultatParcelle[] = [];
    const cede = cederParTranches();
    for (const [k, p] of instantane.parcelles.entries()) {
      try {
        parcelles.push(calculer(p));
      } catch (e) {
        console.warn(`[calcul-serie ${idSerie}] parcelle ${p.id}`, e);
      }
      await enregistrer(k + 1, total);
      await cede();
    }
    phase("parcelles");
    const resultat = agregerCampagne(parcelles);
    phase("agregation");
    const lignes: LignesStockees = { nombre: 0, valeurs: [], groupes: new Map() };
    for (const p of resultat.parcelles) lignesDe(idSerie, "parcelle", p.parcelle.id, p.indicateurs, p.parcelle.id, lignes);
    for (const [id, ind] of Object.entries(resultat.cultures)) lignesDe(idSerie, "culture", id, ind, null, lignes);
    for (const [id, ind] of Object.entries(resultat.modesConduite)) lignesDe(idSerie, "modeConduite", id, ind, null, lignes);
    lignesDe(idSerie, "exploitation", c.idExploitation, resultat.exploitation, null, lignes);
    phase("lignes");
    await repo.stockerResultats(db, idSerie, lignes, { total, reussies: parcelles.length });
    phase("stockage");
    await progression?.(total, total);
  } catch (e) {
    console.warn(`[calcul-serie ${idSerie}]`, e);
    await repo.majSerie(db, idSerie, {
      statut: "erreur",
      erreur: e instanceof Error ? e.message.slice(0, 500) : String(e),
      dtFin: new Date(),
      updatedAt: new Date(),
    });
  }
}

definirTache<{ idSerie: number }>(TACHE_CALCUL_SERIE, ({ db, tache, progression }) => executerSerie(db, tache.parametres.idSerie, progression));

/** On start-up: a run left 'en_cours' by a stopped server is marked failed (DESIGN "Long work"). */
export const marquerSeriesInterrompues = repo.marquerSeriesInterrompues;

// ---------------------------------------------------------------------------------------------
// Reading

export type SerieListee = {
  id: number;
  idCampagne: number;
  campagne: string;
  exploitation: string;
  idExploitation: number;
  createdAt: string;
  updatedAt: string;
  dtFin: string | null;
  nbParcellesATraiter: number;
  nbParcellesTraitees: number;
  nbParcellesTraiteesReussies: number;
  statut: "en_cours" | "termine" | "erreur";
  etat: EtatSerie;
  publication: boolean;
  visaAnimateur: boolean;
  remarque: string | null;
  archive: boolean;
  idUtilisateur: number | null;
  idTache: number | null;
  ouvrable: boolean;
  /** The campaign's data changed since the series was created (decision 0072). */
  perimee: boolean;
};

const iso = (v: unknown) => (v == null ? null : toIso(v));

function serieDe(r: Record<string, unknown>, ouvrable: boolean): SerieListee {
  const publication = bool(r.publication);
  const visaAnimateur = bool(r.visaAnimateur);
  return {
    id: Number(r.id),
    idCampagne: Number(r.idCampagne),
    idExploitation: Number(r.idExploitation),
    campagne: campagneLibelle({ prefixeCampagne: String(r.prefixeCampagne ?? ""), apiLibelle: String(r.apiLibelle ?? "") }),
    exploitation: String(r.exploitation),
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
    dtFin: iso(r.dtFin),
    nbParcellesATraiter: Number(r.nbParcellesATraiter),
    nbParcellesTraitees: Number(r.nbParcellesTraitees),
    nbParcellesTraiteesReussies: Number(r.nbParcellesTraiteesReussies),
    statut: r.statut as SerieListee["statut"],
    etat: etatSerie({ publication, visaAnimateur }),
    publication,
    visaAnimateur,
    remarque: (r.remarque as string | null) ?? null,
    archive: bool(r.archive),
    idUtilisateur: r.idUtilisateur == null ? null : Number(r.idUtilisateur),
    idTache: r.idTache == null ? null : Number(r.idTache),
    ouvrable,
    perimee: bool(r.perimee),
  };
}

/** The series of the given campaigns the user may see (GET calculs_series campagne[]; C-CALC-04, C-RIGHTS-17..19), newest first. */
export async function listerSeries(db: Db, user: Utilisateur, idCampagnes: number[]): Promise<SerieListee[]> {
  const out: SerieListee[] = [];
  for (const idCampagne of [...new Set(idCampagnes)]) {
    if (!(await repo.campagneExiste(db, idCampagne))) continue;
    const d = await droitsCampagne(db, user, idCampagne);
    for (const r of await repo.seriesQuery(db).where("s.idCampagne", idCampagne)) {
      const s = serieDe(r, d.calculer);
      if (serieVisible(d, s)) out.push(s);
    }
  }
  return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
}

export async function serieOuRefus(db: Db, user: Utilisateur, idSerie: number) {
  const r = await repo.seriesQuery(db).where("s.id", idSerie).first();
  if (!r) throw new ServiceError("errors.not-found", 404);
  const droits = await droitsCampagne(db, user, Number(r.idCampagne));
  // Opening a detail needs the write right on the farm (C-RIGHTS-14).
  ensure(droits.calculer);
  return { serie: serieDe(r, true), droits };
}

export type ValeurResultat = {
  niveau: NiveauResultat;
  idEntite: string;
  code: string;
  valeur: number | null;
  unite: string;
  completude: number;
  nbManquants: number;
};
export type DetailSerie = {
  serie: SerieListee;
  groupes: { id: number; ginNom: string; code: string; publie: boolean }[];
  peutValider: boolean;
  parcelles: { id: number; libelle: string; surface: number | null; idCulture: string | null }[];
  cultures: { id: string; libelle: string }[];
  resultats: ValeurResultat[];
};

/** One series with its groups and the figures its charts show (GET calculs_series/{id}; C-CALC-06, C-RIGHTS-14). */
export async function lireSerie(db: Db, user: Utilisateur, idSerie: number): Promise<DetailSerie> {
  return failingWith(CALCUL_INDICATEURS_ERROR, () => lire(db, user, idSerie));
}

async function lire(db: Db, user: Utilisateur, idSerie: number): Promise<DetailSerie> {
  const { serie, droits } = await serieOuRefus(db, user, idSerie);
  const groupes = await groupesDe(db, idSerie);
  const rows = await repo.resultatsDe(db, idSerie, ["parcelle", "culture", "exploitation"], [...CODES_GRAPHIQUES, ...CODES_IFT_SEGMENTS]);
  const resultats = rows.map((r) => ({
    niveau: r.niveau as NiveauResultat,
    idEntite: String(r.idEntite),
    code: String(r.code),
    valeur: r.valeur == null ? null : Number(r.valeur),
    unite: String(r.unite),
    completude: Number(r.completude),
    nbManquants: Number(r.nbManquants),
  }));
  // Plots and crops as they are now (a deleted plot keeps its figures under its id).
  const plotIds = [...new Set(resultats.filter((r) => r.niveau === "parcelle").map((r) => Number(r.idEntite)))];
  const plots = await repo.parcellesParId(db, plotIds);
  const cropOfPlot = new Map<number, string | null>();
  const cropIds = [...new Set(resultats.filter((r) => r.niveau === "culture").map((r) => r.idEntite))];
  const cropLabels = await repo.libellesCultures(db, cropIds.filter((c) => c !== "null").map(Number));
  // The plot's crop of the run: read from the farm-level explanation would be heavy; the crop rows name their plots.
  for (const r of await repo.explicationsCultures(db, idSerie, CODES_GRAPHIQUES[0])) {
    const e = JSON.parse(String(r.explication ?? "{}")) as Explication;
    for (const x of e.entrees ?? []) if (x.objet === "parcelle") cropOfPlot.set(Number(x.id), String(r.idEntite));
  }
  return {
    serie,
    groupes,
    peutValider: droits.valider,
    parcelles: plotIds.map((id) => ({
      id,
      libelle: plots.get(id)?.libelle ?? `#${id}`,
      surface: plots.get(id)?.surface ?? null,
      idCulture: cropOfPlot.get(id) ?? null,
    })),
    cultures: cropIds.map((id) => ({ id, libelle: cropLabels.get(id) ?? "" })),
    resultats,
  };
}

export async function groupesDe(db: Db, idSerie: number) {
  const rows = await repo.groupesStockes(db, idSerie);
  return GROUPES_SERIE.map((g) => ({ id: g.id, ginNom: g.ginNom, code: g.code, publie: bool(rows.find((r) => Number(r.idGroupe) === g.id)?.publie) }));
}

export type ExplicationResultat = ValeurResultat & { manquants: Manquant[]; explication: Explication };

/** The explanation of one figure of a series: formula, entries, missing data (the detail's charts open it). */
export async function expliquerResultat(
  db: Db,
  user: Utilisateur,
  idSerie: number,
  q: { niveau: string; idEntite: string; code: string },
): Promise<ExplicationResultat> {
  return failingWith(CALCUL_INDICATEURS_ERROR, () => expliquer(db, user, idSerie, q));
}

async function expliquer(db: Db, user: Utilisateur, idSerie: number, q: { niveau: string; idEntite: string; code: string }): Promise<ExplicationResultat> {
  const { serie } = await serieOuRefus(db, user, idSerie);
  const r = await repo.resultat(db, idSerie, q);
  if (!r) throw new ServiceError("errors.not-found", 404);
  const valeur: ValeurResultat = {
    niveau: r.niveau as NiveauResultat,
    idEntite: String(r.idEntite),
    code: String(r.code),
    valeur: r.valeur == null ? null : Number(r.valeur),
    unite: String(r.unite),
    completude: Number(r.completude),
    nbManquants: Number(r.nbManquants),
  };
  const stockee =
    r.explication == null && valeur.niveau === "parcelle"
      ? await explicationRecalculee(db, serie.idCampagne, valeur)
      : (JSON.parse(String(r.explication ?? "{}")) as Explication & { manquants?: Manquant[] });
  const { manquants, ...explication } = stockee;
  return {
    ...valeur,
    manquants: manquants ?? [],
    explication: { formule: explication.formule, entrees: explication.entrees ?? [], ...(explication.remarques ? { remarques: explication.remarques } : {}) },
  };
}

/** The remark added to a plot figure's explanation computed again when the plot's data no longer give the stored figure. */
export const REMARQUE_DONNEES_MODIFIEES = "donnees-modifiees-depuis-le-calcul";

/**
 * A plot figure's explanation computed again from the plot's data (decision 0070): the campaign's snapshot for that
 * plot (every plot for the farm's area, that plot's interventions), the series' options, the engine with its entries.
 * Every entry is given (not only the charted figures'), and the first missing data as stored before. When the data
 * changed since the run (the figure computed now differs in value, completeness or missing count from the stored
 * one), the explanation is today's and says so with a remark.
 */
export async function explicationRecalculee(
  db: Db,
  idCampagne: number,
  v: Pick<ValeurResultat, "idEntite" | "code" | "valeur" | "completude" | "nbManquants">,
): Promise<Explication & { manquants: Manquant[] }> {
  const idParcelle = Number(v.idEntite);
  const c = await campagneOf(db, idCampagne);
  const instantane = await instantaneCampagne(db, idCampagne, { idParcelle, toutesLesParcelles: true });
  const parcelle = instantane.parcelles.find((p) => p.id === idParcelle);
  const ind = parcelle ? preparerCampagne(instantane, optionsDe(c))(parcelle).indicateurs[v.code] : undefined;
  if (!ind) return { formule: "", entrees: [], remarques: [REMARQUE_DONNEES_MODIFIEES], manquants: [] };
  const proche = (a: number | null, b: number | null) => (a == null || b == null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a)));
  const valeur = ind.valeur != null && Number.isFinite(ind.valeur) ? ind.valeur : null;
  const meme = proche(valeur, v.valeur) && proche(ind.completude, v.completude) && nombreManquants(ind) === v.nbManquants;
  const e = { ...explicationStockee(ind), entrees: ind.explication.entrees };
  return meme ? e : { ...e, remarques: [...(e.remarques ?? []), REMARQUE_DONNEES_MODIFIEES] };
}

// ---------------------------------------------------------------------------------------------
// Changes

export type ChangementSerie = { groupes?: { id: number; publie: boolean }[]; tous?: boolean; remarque?: string | null; visa?: boolean };

/**
 * PATCH calculs_series/{id} (C-CALC-13..22, C-RIGHTS-10): publication by group (any ticked publishes, none
 * unpublishes, `tous` sets all), the remark (both locked once validated), the visa (animation right, needs the
 * publication) and its removal. The campaign's flags follow in the same transaction.
 */
export async function modifierSerie(db: Db, user: Utilisateur, idSerie: number, changement: ChangementSerie): Promise<void> {
  return failingWith(CALCUL_UPDATE_ERROR, () => modifier(db, user, idSerie, changement));
}

async function modifier(db: Db, user: Utilisateur, idSerie: number, changement: ChangementSerie): Promise<void> {
  const { serie, droits } = await serieOuRefus(db, user, idSerie);
  if (serie.statut !== "termine") throw new ServiceError("calcul-serie.erreurs.serie-non-terminee", 409);
  const publication = changement.groupes !== undefined || changement.tous !== undefined;
  const refus = refusModification(serie, { publication, remarque: changement.remarque !== undefined, visa: changement.visa }, droits.valider);
  if (refus) throw new ServiceError(refus, refus === "errors.forbidden" ? 403 : 409);
  await db.transaction(async (trx) => {
    const maj: Record<string, unknown> = { updatedAt: new Date() };
    if (publication) {
      const avant = await groupesDe(trx, idSerie);
      const r = publierGroupes(avant, { tous: changement.tous, groupes: changement.groupes });
      for (const g of r.groupes) await repo.majGroupe(trx, idSerie, g.id, g.publie);
      maj.publication = r.publication;
    }
    if (changement.remarque !== undefined) maj.remarque = changement.remarque?.trim() ? changement.remarque.trim().slice(0, 2000) : null;
    if (changement.visa !== undefined) maj.visaAnimateur = changement.visa;
    await repo.majSerie(trx, idSerie, maj);
    await synchroniserCampagne(trx, serie.idCampagne);
    const action =
      changement.visa !== undefined
        ? changement.visa
          ? "calcul-serie.visa"
          : "calcul-serie.retrait-visa"
        : publication
          ? "calcul-serie.publication"
          : "calcul-serie.remarque";
    await recordAudit(trx, {
      idUser: user.id,
      userLabel: user.username,
      action,
      entite: "calcul_serie",
      idEntite: idSerie,
      idDossier: droits.idDossier,
      idExploitation: droits.idExploitation,
      details: { ...changement },
    });
  });
}

/** The campaign's flags from its series: indicateur_publie when one is published, serie_valide when one is validated. */
export async function synchroniserCampagne(db: Db, idCampagne: number): Promise<void> {
  await repo.majDrapeauxCampagne(db, idCampagne, bool);
}

/** The running state of a series (the progress bar polls it; it survives a reload). */
export async function etatExecution(db: Db, user: Utilisateur, idSerie: number) {
  const { serie } = await serieOuRefus(db, user, idSerie);
  return { id: serie.id, statut: serie.statut, fait: serie.nbParcellesTraitees, total: serie.nbParcellesATraiter, reussies: serie.nbParcellesTraiteesReussies };
}

/** The campaign of a series (the API's `campaign` of a call naming series; issue 27); null when there is none. */
export const campagneDeSerie = repo.campagneDeSerie;
