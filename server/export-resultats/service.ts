import { GROUPES_SERIE } from "~/domain/calc/serie";
import { campagneLibelle } from "~/domain/partage";
import { doublonsSeries, ExportResultatsSchema, NATURE_CALCUL, nomClasseurResultats, type ExportResultats } from "~/domain/export-resultats";
import { ROLE_TEST } from "~/domain/access/abilities";
import { droitsCampagne, listerSeries, serieVisible } from "../calcul-serie/service";
import { campagnesOuvertes, choixCampagnes } from "../resultats/selection";
import { instantaneCampagne } from "../calcul/instantane";
import { bool } from "../db/dialect";
import type { Db } from "../db/knex";
import { parse, ServiceError } from "../errors";
import { TACHE_EXPORT_CALCUL } from "../session-export/natures";
import { creerSessionExport, ecrireSessionExport, sessionsInterrompues, type ParametresSessionExport, type SessionAEcrire } from "../session-export/service";
import { definirTache } from "../jobs/runner";
import { findUtilisateurById, toPublic, type Utilisateur } from "../utilisateur/repo";
import { verifierLignesExport, type Classeur } from "../exports/classeur";
import {
  COLONNES_MAX_FEUILLE,
  ecrireClasseurResultats,
  planClasseurResultats,
  verifierCapacite,
  type LigneSerie,
  type OptionsClasseur,
  type Realisation,
  type SerieExport,
} from "./classeur-resultats";
import type { Scope } from "../access/scope";
import {
  countResultatsByNiveau,
  findSerieWithCampagne,
  listCulturesOfIds,
  listGroupesOfSerie,
  listGroupesOfSeries,
  listLotsOfCampagne,
  listModesConduiteOfCampagne,
  listParcellesLotsOfCampagne,
  listRecoltesOfCampagne,
  listResultatsOfSerie,
} from "./repo";

/**
 * The result export (spec 3 §3.15, §5, §7 POST session_exports nature 1; C-REXP-01..20, A-PUB-09; decisions 0057,
 * 0058): the checks before a session is recorded, and the job that writes its workbook.
 *
 * Rights (spec 3 §6; decision 0118): a user exports only the series he sees — all of them with
 * canExportAllCalculations on the campaign's farm (whoever may write the campaign: the writers and the animators
 * of a folder that writes it), published ones with canExportPublishedCalculations, published and validated ones
 * otherwise — and, without canExportAllCalculations, only the indicator groups the series publishes. The series'
 * author exports his own series before publication, all its groups, as long as he still reads the farm. The job
 * checks them again with the rights of the moment it runs.
 */

/** A ticked series as the export reads it. */
export type SerieCocheeExport = {
  id: number;
  idCampagne: number;
  idExploitation: number;
  exploitation: string;
  campagne: string;
  simulation: boolean;
  /** The group ids (GROUPES_SERIE) this user may export from it. */
  groupesPermis: number[];
};

const idGroupe = (code: string) => GROUPES_SERIE.find((g) => g.code === code)!.id;
const codeGroupe = (id: number) => GROUPES_SERIE.find((g) => g.id === id)?.code;

/**
 * The ticked series the user sees, in the order ticked; any other (unknown, not his to see, not finished) refuses
 * the export (404 exportResultats.serie-inconnue: the answer does not tell a hidden series from a missing one).
 */
export async function seriesExportables(db: Db, user: Utilisateur, ids: readonly number[]): Promise<SerieCocheeExport[]> {
  const out: SerieCocheeExport[] = [];
  for (const id of [...new Set(ids)]) {
    const r = await findSerieWithCampagne(db, id);
    if (!r || r.statut !== "termine") throw new ServiceError("exportResultats.serie-inconnue", 404);
    const droits = await droitsCampagne(db, user, Number(r.idCampagne));
    // The author of the series, still a reader of its farm, exports it whole before publication (decision 0118).
    const auteur = r.idUtilisateur != null && Number(r.idUtilisateur) === user.id && droits.idDossier !== null;
    if (!auteur && !serieVisible(droits, { publication: bool(r.publication), visaAnimateur: bool(r.visaAnimateur) }))
      throw new ServiceError("exportResultats.serie-inconnue", 404);
    const publies =
      droits.voirTout || auteur
        ? GROUPES_SERIE.map((g) => g.id)
        : (await listGroupesOfSerie(db, id)).filter((g) => bool(g.publie)).map((g) => Number(g.idGroupe));
    out.push({
      id,
      idCampagne: Number(r.idCampagne),
      idExploitation: Number(r.idExploitation),
      exploitation: String(r.exploitation),
      campagne: campagneLibelle({ prefixeCampagne: String(r.prefixeCampagne ?? ""), apiLibelle: String(r.apiLibelle ?? "") }),
      simulation: bool(r.simulation),
      groupesPermis: publies,
    });
  }
  return out;
}

/** Refuses two series of the same farm and campaign label (C-REXP-08, A-PUB-09) and groups none of them may give. */
function verifierSelection(series: SerieCocheeExport[], groupes: readonly string[]): void {
  const doublons = doublonsSeries(series);
  if (doublons.length) throw new ServiceError("exportResultats.doublons", 400, undefined, { doublons: doublons.join(", ") });
  const ids = groupes.map(idGroupe);
  if (!series.some((s) => s.groupesPermis.some((g) => ids.includes(g)))) throw new ServiceError("exportResultats.aucun-groupe-publie", 400);
}

/**
 * The rows each sheet would get, counted in the database before the session is recorded (C-REXP-09: refused before
 * work starts): per level, the rows of the chosen groups; the plot-group level has no more rows than the plot
 * level; the raw data, every row; the pivot with indicators in rows, one column per entity.
 */
async function verifierCapaciteAvant(db: Db, series: SerieCocheeExport[], v: ExportResultats): Promise<void> {
  const choisis = v.groupes.map(idGroupe);
  const parNiveau = new Map<string, number>();
  let entites = 0;
  let brutes = 0;
  for (const s of series) {
    const groupes = s.groupesPermis.filter((g) => choisis.includes(g));
    if (!groupes.length) continue;
    const realisation: Realisation = s.simulation ? "prevue" : "realisee";
    if (!(realisation === "prevue" ? v.prevu : v.realise)) continue;
    const comptes = await countResultatsByNiveau(db, s.id, groupes);
    for (const c of comptes) {
      brutes += Number(c.n);
      if (c.niveau === "intervention") continue;
      if (v[c.niveau as "parcelle"]) {
        parNiveau.set(c.niveau, (parNiveau.get(c.niveau) ?? 0) + Number(c.n));
        entites += Number(c.e);
      }
      if (c.niveau === "parcelle" && v.lot) {
        parNiveau.set("lot", (parNiveau.get("lot") ?? 0) + Number(c.n));
        entites += Number(c.e);
      }
    }
  }
  const niveaux = Object.fromEntries(parNiveau);
  verifierLignesExport({
    ...niveaux,
    alertes: v.alertes ? [...parNiveau.values()].reduce((a, b) => a + b, 0) : 0,
    donneesBrutes: v.donneesBrutes ? brutes : 0,
    tcd1: v.tcd1 ? entites : 0,
  });
  if (v.tcd2 && entites + 3 > COLONNES_MAX_FEUILLE) throw new ServiceError("exportResultats.trop-de-colonnes", 413, undefined, { max: COLONNES_MAX_FEUILLE });
}

/**
 * POST of the export-result dialog: checks the form, the ticked series (rights, duplicates) and the spreadsheet's
 * capacity, then records the session (nature 1, linked to the series, their campaigns and the groups) and starts
 * its job. The session's name is the form's libelle, else the workbook name of spec 3 §9 (C-REXP-19).
 */
export async function lancerExportResultats(scope: Scope, input: unknown, maintenant = new Date()): Promise<{ id: number; idTache: number }> {
  const { db, user } = scope;
  const v = parse(ExportResultatsSchema, input);
  const series = await seriesExportables(db, user, v.calculsSeries);
  verifierSelection(series, v.groupes);
  await verifierCapaciteAvant(db, series, v);
  return creerSessionExport(
    scope,
    {
      nature: NATURE_CALCUL,
      libelle: v.libelle ?? nomClasseurResultats(maintenant, v.anglais),
      version: v.version,
      anglais: v.anglais,
      campagnes: [...new Set(series.map((s) => s.idCampagne))],
      groupes: v.groupes.map(idGroupe),
      series: series.map((s) => s.id),
      options: {
        prevu: v.prevu,
        realise: v.realise,
        alertes: v.alertes,
        rendements: v.rendements,
        donneesBrutes: v.donneesBrutes,
        tcd1: v.tcd1,
        tcd2: v.tcd2,
        parcelle: v.parcelle,
        lot: v.lot,
        modeConduite: v.modeConduite,
        culture: v.culture,
        exploitation: v.exploitation,
      },
    },
    TACHE_EXPORT_CALCUL,
  );
}

// ---------------------------------------------------------------------------------------------
// Reading a series for the workbook

const num = (v: unknown): number | null => (v == null || v === "" ? null : Number(v));

/**
 * One series' rows of the permitted groups, with the campaign's plots, plot groups, crops, modes and harvests; with
 * `anglais`, the crops and output types by their English names where the reference data has one (libelle_en), else
 * their French ones (plot groups and management modes are the user's own labels).
 */
export async function chargerSerie(db: Db, s: SerieCocheeExport, anglais = false): Promise<SerieExport> {
  const realisation: Realisation = s.simulation ? "prevue" : "realisee";
  const rows = s.groupesPermis.length ? await listResultatsOfSerie(db, s.id, s.groupesPermis) : [];
  const lignes: LigneSerie[] = rows.map((r) => ({
    niveau: r.niveau as LigneSerie["niveau"],
    id: /^\d+$/.test(String(r.idEntite)) ? Number(r.idEntite) : String(r.idEntite),
    ...(r.idParcelle != null ? { idParcelle: Number(r.idParcelle) } : {}),
    code: String(r.code),
    valeur: num(r.valeur),
    unite: String(r.unite),
    completude: Number(r.completude),
    nbManquants: Number(r.nbManquants),
    realisation,
  }));
  // Plots as they are now: their crop is the engine's (the cost centre, else the mode's main crop).
  const instantane = await instantaneCampagne(db, s.idCampagne);
  const lotsDesParcelles = new Map((await listParcellesLotsOfCampagne(db, s.idCampagne)).map((p) => [Number(p.id), num(p.idLot)]));
  const lots = Object.fromEntries((await listLotsOfCampagne(db, s.idCampagne)).map((l) => [String(l.id), String(l.libelle)]));
  const modesConduite = Object.fromEntries((await listModesConduiteOfCampagne(db, s.idCampagne)).map((m) => [String(m.id), String(m.libelle)]));
  const nom = (r: { libelle: unknown; libelleEn?: unknown }) => String((anglais && r.libelleEn) || r.libelle);
  const idsCultures = [
    ...new Set([
      ...lignes.filter((l) => l.niveau === "culture" && l.id !== "null").map((l) => Number(l.id)),
      ...instantane.parcelles.flatMap((p) => (p.idCulture != null ? [Number(p.idCulture)] : [])),
    ]),
  ].filter((id) => Number.isFinite(id));
  const cultures: Record<string, string> = Object.fromEntries(
    (idsCultures.length ? await listCulturesOfIds(db, idsCultures) : []).map((c) => [String(c.id), nom(c)]),
  );
  for (const p of instantane.parcelles) if (p.idCulture != null && p.libelleCulture) cultures[String(p.idCulture)] ??= p.libelleCulture;
  // Harvests of the campaign's interventions: a planned-and-done intervention counts in both.
  const recoltes = await listRecoltesOfCampagne(db, s.idCampagne);
  const rendements = recoltes.flatMap((r) =>
    (["realisee", "prevue"] as const)
      .filter((k) => bool(r[k]))
      .map((k) => ({
        idParcelle: Number(r.idParcelle),
        culture: ((anglais && r.cultureEn) || r.culture || null) as string | null,
        typeSortie: ((anglais && r.typeSortieEn) || r.typeSortie || null) as string | null,
        rendement: num(r.rendement),
        unite: (r.dicLlUnite as string | null) ?? null,
        realisation: k,
      })),
  );
  return {
    id: s.id,
    exploitation: s.exploitation,
    campagne: s.campagne,
    parcelles: instantane.parcelles.map((p) => ({
      id: p.id,
      libelle: p.libelle,
      surface: p.surface,
      idLot: lotsDesParcelles.get(p.id) ?? null,
      idCulture: p.idCulture,
      idModeConduite: p.idModeConduite ?? null,
    })),
    lots,
    cultures,
    modesConduite,
    lignes,
    rendements,
  };
}

// ---------------------------------------------------------------------------------------------
// The job

/** The options the session recorded, as the workbook reads them. */
export function optionsDeSession(session: SessionAEcrire): OptionsClasseur {
  const groupes = session.groupes.map(codeGroupe).filter((g): g is NonNullable<typeof g> => !!g);
  return { ...session.options, libelle: session.libelle, version: session.version === 1 ? 1 : 2, groupes, anglais: session.anglais };
}

/**
 * The job of a result-export session: the rights of its user now, the series, the plan (its capacity checked
 * again), the workbook. A refusal or failure marks the session in error (statut 2, 'Une erreur est survenue').
 */
export async function executerExportResultats(
  db: Db,
  session: SessionAEcrire,
  idUtilisateur: number,
  classeur: Classeur,
  progression: (fait: number, total: number) => Promise<void>,
): Promise<void> {
  const row = await findUtilisateurById(db, idUtilisateur);
  if (!row) throw new ServiceError("errors.forbidden", 403);
  const user = toPublic(row);
  const options = optionsDeSession(session);
  const series = await seriesExportables(db, user, session.series);
  verifierSelection(series, options.groupes);
  const donnees: SerieExport[] = [];
  for (const s of series) donnees.push(await chargerSerie(db, s, options.anglais));
  const plan = await planClasseurResultats(donnees, options, new Date(session.dtDebSession));
  verifierCapacite(plan);
  await ecrireClasseurResultats(plan, classeur, progression);
}

definirTache<ParametresSessionExport>(
  TACHE_EXPORT_CALCUL,
  (ctx) =>
    ecrireSessionExport(ctx, ({ classeur, session, progression, db }) => executerExportResultats(db, session, ctx.tache.idUtilisateur, classeur, progression)),
  { siInterrompue: sessionsInterrompues },
);

// ---------------------------------------------------------------------------------------------
// The published-indicators screen (resultats/indicateurs)

export type SeriePubliee = {
  id: number;
  idCampagne: number;
  idExploitation: number;
  exploitation: string;
  campagne: string;
  dtFin: string | null;
  visaAnimateur: boolean;
  remarque: string | null;
  /** Codes of the published indicator groups. */
  groupes: string[];
  /** The campaign's data changed since the calculation (decision 0072). */
  perimee: boolean;
};

/**
 * What the published-indicators screen shows (spec 1 §2; A-PUB-01..08): the selection panel (farms the user reads),
 * the published series of the chosen campaigns (A-PUB-05: an unpublished series is never listed, whatever the
 * user's rights); the calculation export sessions of these campaigns are read by the sessions panel (nature 1).
 * Campaigns of the address the user may no longer choose are dropped; with none in the address, the context's campaign.
 */
export async function ecranIndicateursPublies(scope: Scope, demandees: readonly number[] | null) {
  const { db, user } = scope;
  const choix = await choixCampagnes(scope, "indicateurs");
  const campagnes = await campagnesOuvertes(scope, choix, demandees);
  const listees = (await listerSeries(db, user, campagnes)).filter((s) => s.publication && s.statut === "termine");
  const groupes = listees.length
    ? await listGroupesOfSeries(
        db,
        listees.map((s) => s.id),
      )
    : [];
  const series: SeriePubliee[] = listees.map((s) => ({
    id: s.id,
    idCampagne: s.idCampagne,
    idExploitation: s.idExploitation,
    exploitation: s.exploitation,
    campagne: s.campagne,
    dtFin: s.dtFin,
    visaAnimateur: s.visaAnimateur,
    remarque: s.remarque,
    groupes: GROUPES_SERIE.filter((g) => groupes.some((x) => Number(x.idCalculSerie) === s.id && Number(x.idGroupe) === g.id && bool(x.publie))).map(
      (g) => g.code,
    ),
    perimee: s.perimee,
  }));
  return { choix, campagnes, series, versionSelectable: user.roles.includes(ROLE_TEST) };
}
