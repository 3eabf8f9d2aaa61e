import type { Knex } from "knex";
import {
  DuplicationCampagneInterventionsSchema,
  DuplicationInterventionsSchema,
  ExportInterventionsSchema,
  ImportInterventionsSchema,
  type DuplicationCampagneInterventionsInput,
} from "~/domain/copie";
import { ORIGINE_INTRANT } from "~/domain/intrant";
import { campaignContext, ensureWrite, writableCampaign } from "../access/description";
import { abilitiesFor, ensure } from "../access/abilities";
import { copyRows } from "../campagne/duplication";
import { listCampagnesOfExploitations, listExploitationsOfDossier } from "../contexte/repo";
import { isPostgres, type Db } from "../db/knex";
import { failingWith, invalidField, parse, ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";
import { inChunks } from "../db/chunks";
import type { Scope } from "../access/scope";
import {
  actionIdsOfCampagne,
  analyse,
  analysedTables,
  campagneOfAction,
  compositionsOf,
  countCopiedActions,
  clearWorkTables,
  deleteTargetActions,
  fill,
  fillSourcesOfPlots,
  insertAllCopies,
  mapCopyIds,
  sourceFolderInputs,
  sourceOperationsOutside,
  sourceQualifiers,
  findCampagneAnnee,
  findCampagneExploitation,
  findParcelleCampagne,
  intrantsDossierHorsDossier,
  intrantsDossierOf,
  listActionsOfCampagnes,
  listParcellesOfCampagnes,
  operationsOfCampagne,
  parcelleOfCampagneExists,
  parcellesOfCampagne,
  qualifiantDuDossier,
  qualifiantsHorsDossier,
  workTables,
} from "./repo";
import type { CopieCampagne, CopieChoices, CopieParcelle } from "~/domain/contracts/copie";

/** Error keys: ours, in the interventions family (spec 3 §8 names none for these dialogs; decision 0047). */
export const COPY_ERROR = "errors.services.actions-copy-service-error";

const fold = (s: unknown) =>
  String(s ?? "")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

/**
 * Folder-scoped references of the copied rows (decision 0047, 0061): an unreferenced input (origin 777) names a row of
 * its folder's `intrant_dossier`, a harvest its folder's qualifier. Copied into another folder, each becomes the
 * destination folder's row of the same type and label (qualifier: same name), created there (with its fertiliser
 * composition) when the folder has none. Rows already of the destination folder are kept. `unref`: the unreferenced
 * inputs' `intrant_dossier` ids, `quals`: the qualifiers' ids, named by the copied rows. Returns old id → id to use.
 */
async function folderReferences(trx: Knex.Transaction, idDossier: number | null, unref: number[], quals: number[]) {
  const intrantsDossier = new Map<number, number>();
  const qualifiants = new Map<number, number>();
  if (idDossier == null) return { intrantsDossier, qualifiants };
  const sources = unref.length ? await intrantsDossierHorsDossier(trx, unref, idDossier) : [];
  if (sources.length) {
    const own = await intrantsDossierOf(trx, idDossier);
    const byKey = new Map<string, number>();
    for (const o of own) if (!byKey.has(`${o.dicIdTypeIntrant}|${fold(o.libelle)}`)) byKey.set(`${o.dicIdTypeIntrant}|${fold(o.libelle)}`, Number(o.id));
    const compos = await compositionsOf(
      trx,
      sources.map((r) => r.id),
    );
    for (const src of sources) {
      const key = `${src.dicIdTypeIntrant}|${fold(src.libelle)}`;
      let id = byKey.get(key);
      if (id == null) {
        const ids = new Map<string, Map<number, number>>();
        id = (await copyRows(trx, "intrant_dossier", [src], { ids, transform: (row) => ({ ...row, idDossier }) })).get(Number(src.id))!;
        await copyRows(
          trx,
          "fertilisant_compo_dossier",
          compos.filter((c) => Number(c.idIntrantDossier) === Number(src.id)),
          { ids, references: { idIntrantDossier: "intrant_dossier" } },
        );
        byKey.set(key, id);
      }
      intrantsDossier.set(Number(src.id), id);
    }
  }
  const qSources = quals.length ? await qualifiantsHorsDossier(trx, quals, idDossier) : [];
  for (const src of qSources) {
    const found = await qualifiantDuDossier(trx, idDossier, src.qrdNom);
    const id = found
      ? Number(found.id)
      : (await copyRows(trx, "qualifiant_recolte", [src], { ids: new Map(), transform: (row) => ({ ...row, idDossier }) })).get(Number(src.id))!;
    qualifiants.set(Number(src.id), id);
  }
  return { intrantsDossier, qualifiants };
}

/** One group of a copy: these source interventions, each copied to each of the group's plots. */
type Group = ({ actionIds: number[] } | { sourcePlot: number }) & { targetPlots: number[] };

type Plan = {
  /** The campaign of the groups that name a source plot (their source interventions are the plot's in it). */
  sourceCampagne?: number;
  groups: Group[];
  targetCampagne: number;
  /** The folder the copies are made in: folder-scoped references (unreferenced inputs, harvest qualifiers) are mapped to its rows. */
  targetDossier: number | null;
  /** Delete the destination plots' interventions first (C-COPY-03, 10). */
  suppression: boolean;
};

/**
 * Copies the interventions of each group to each of its plots with their inputs (characteristics, targets) and
 * harvests (with their characteristics), in one set-based pass: the source rows are never read into the process,
 * each table is copied by one INSERT … SELECT over working tables that give every copy its id first (decision 0078).
 * Runs inside the caller's transaction: a failure leaves nothing. Another campaign's copy takes that campaign's
 * operation of the same name (none when it has none) and harvest year; dates are kept (the date update moves them);
 * a harvest's observation series stays with the source (decision 0031). Returns the number of interventions made.
 */
export async function copyInterventions(trx: Knex.Transaction, plan: Plan): Promise<number> {
  const pg = isPostgres(trx as unknown as Db);
  const target = await findCampagneAnnee(trx, plan.targetCampagne);
  if (!target) throw new ServiceError("errors.not-found", 404);
  // Destination plots: of the destination campaign, each in one group only (a repeated plot within a group counts once).
  const targets = plan.groups.map((g) => [...new Set(g.targetPlots.map(Number))]);
  const allTargets = targets.flat();
  if (new Set(allTargets).size !== allTargets.length) throw invalidField("parcellesDestination");
  const found = new Set<number>();
  for (const chunk of inChunks(allTargets, 5000)) {
    for (const id of await parcellesOfCampagne(trx, plan.targetCampagne, chunk)) found.add(id);
  }
  if (found.size !== allTargets.length) throw invalidField("parcellesDestination");
  const sourcePlots = plan.groups.flatMap((g, grp) => ("sourcePlot" in g ? [[grp, g.sourcePlot]] : []));
  if (sourcePlots.length && plan.sourceCampagne == null) throw new Error("a source plot needs its campaign");

  await workTables(trx, pg);
  const analysed = pg ? await analysedTables(trx) : null;
  let rang = 0;
  await fill(
    trx,
    "copie_cible",
    ["grp", "id_parcelle", "rang"],
    targets.flatMap((plots, grp) => plots.map((p) => [grp, p, rang++])),
  );
  await fill(
    trx,
    "copie_source",
    ["grp", "id_action"],
    plan.groups.flatMap((g, grp) => ("actionIds" in g ? [...new Set(g.actionIds)].map((id) => [grp, id]) : [])),
  );
  if (sourcePlots.length) {
    await fillSourcesOfPlots(trx, sourcePlots, plan.sourceCampagne!);
  }

  await analyse(trx, analysed, "copie_cible", "copie_source");

  // Operations of the destination campaign by name (kind 0); the folder's unreferenced inputs (1) and qualifiers (2).
  const sourceOps = await sourceOperationsOutside(trx, pg, plan.targetCampagne);
  const targetOps = await operationsOfCampagne(trx, plan.targetCampagne);
  const ops = sourceOps.filter((o) => targetOps.has(String(o.libelle))).map((o) => [0, Number(o.id), targetOps.get(String(o.libelle))!]);
  const refs = await folderReferences(trx, plan.targetDossier, await sourceFolderInputs(trx, pg, ORIGINE_INTRANT.DOSSIER), await sourceQualifiers(trx, pg));
  await fill(
    trx,
    "copie_ref",
    ["kind", "old", "new"],
    [...ops, ...[...refs.intrantsDossier].map(([o, n]) => [1, o, n]), ...[...refs.qualifiants].map(([o, n]) => [2, o, n])],
  );

  // The deletion option: the destination plots' interventions (never a source of this copy) go first.
  if (plan.suppression) await deleteTargetActions(trx, plan.targetCampagne);

  // The copies' ids, per destination plot in order: interventions by date, then inputs (seeds before their treatments), targets, harvests.
  await mapCopyIds(trx, pg, analysed);

  await insertAllCopies(trx, pg, {
    tc: plan.targetCampagne,
    annee: Number(target.anneeRecolte),
    dossier: plan.targetDossier,
    origine: ORIGINE_INTRANT.DOSSIER,
  });

  const n = await countCopiedActions(trx);
  await clearWorkTables(trx, pg);
  return n;
}

/** The user may read this campaign through this folder (source of an import or a duplication). */
async function ensureRead(db: Db, user: Utilisateur, idDossier: number, idCampagne: number) {
  const c = await findCampagneExploitation(db, idCampagne);
  if (!c) throw new ServiceError("errors.not-found", 404);
  const a = await abilitiesFor(db, user, { idDossier, idExploitation: Number(c.idExploitation), idCampagne });
  ensure(a.canReadFarm);
}

/** Interventions of this campaign among these ids (all, else a field error: never another campaign's rows). */
async function actionsOf(db: Db, idCampagne: number, ids: number[], idParcelle?: number): Promise<number[]> {
  const found = await actionIdsOfCampagne(db, idCampagne, ids, idParcelle);
  if (found.length !== new Set(ids).size) throw invalidField("actionsSource");
  return found;
}

/** Export of ticked interventions of the selected campaign to plots of a campaign the user may write (C-COPY-01..04, C-RIGHTS-21). */
export async function exportInterventions(scope: Scope, payload: unknown): Promise<number> {
  const { db } = scope;
  const input = parse(ExportInterventionsSchema, payload);
  const ctx = await campaignContext(scope);
  await ensureWrite(scope, { dossier: input.dossierDestination, campagne: input.campagneDestination });
  const actionIds = await actionsOf(db, ctx.idCampagne, input.actionsSource);
  return failingWith(COPY_ERROR, () =>
    db.transaction((trx) =>
      copyInterventions(trx, {
        groups: [{ actionIds, targetPlots: input.parcellesDestination }],
        targetCampagne: input.campagneDestination,
        targetDossier: input.dossierDestination,
        suppression: input.suppressionInterventionsParcellesDst,
      }),
    ),
  );
}

/** Import into a plot of the selected campaign of ticked interventions of a campaign of the same farm (C-COPY-05..07). */
export async function importInterventions(scope: Scope, payload: unknown): Promise<number> {
  const { db } = scope;
  const input = parse(ImportInterventionsSchema, payload);
  const ctx = await writableCampaign(scope);
  const source = await findCampagneExploitation(db, input.campagneSource);
  if (!source || Number(source.idExploitation) !== ctx.idExploitation) throw invalidField("campagneSource");
  const actionIds = await actionsOf(db, input.campagneSource, input.actionsSource);
  return failingWith(COPY_ERROR, () =>
    db.transaction((trx) =>
      copyInterventions(trx, {
        groups: [{ actionIds, targetPlots: [input.idParcelle] }],
        targetCampagne: ctx.idCampagne,
        targetDossier: ctx.view.selected.idDossier,
        suppression: false,
      }),
    ),
  );
}

/** Duplication of a plot's interventions to plots of a campaign the user may write (C-COPY-08..13, C-RIGHTS-21). */
export async function duplicateInterventions(scope: Scope, payload: unknown): Promise<number> {
  const input = parse(DuplicationInterventionsSchema, payload);
  return duplicatePlots(scope, { ...input, paires: [{ parcelleSource: input.parcelleSource, parcellesDestination: input.parcellesDestination }] });
}

/**
 * Duplication of a campaign's interventions plot by plot (each source plot's to its destination plots) in one
 * transaction and one set-based pass (decision 0078): the same copies, rights and checks as one duplication per
 * source plot, all or nothing. No destination plot is a source plot or the destination of two source plots.
 */
export async function duplicateCampaignInterventions(scope: Scope, payload: unknown): Promise<number> {
  return duplicatePlots(scope, parse(DuplicationCampagneInterventionsSchema, payload));
}

async function duplicatePlots(scope: Scope, input: DuplicationCampagneInterventionsInput): Promise<number> {
  const { db, user } = scope;
  await ensureRead(db, user, input.dossierSource, input.campagneSource);
  await ensureWrite(scope, { dossier: input.dossierDestination, campagne: input.campagneDestination });
  const sources = [...new Set(input.paires.map((p) => p.parcelleSource))];
  const found = await parcellesOfCampagne(db, input.campagneSource, sources);
  if (found.length !== sources.length || sources.length !== input.paires.length) throw invalidField("parcelleSource");
  return failingWith(COPY_ERROR, () =>
    db.transaction((trx) =>
      copyInterventions(trx, {
        sourceCampagne: input.campagneSource,
        groups: input.paires.map((p) => ({ sourcePlot: p.parcelleSource, targetPlots: p.parcellesDestination })),
        targetCampagne: input.campagneDestination,
        targetDossier: input.dossierDestination,
        suppression: input.suppressionInterventionsParcellesDst,
      }),
    ),
  );
}

export type { CopieCampagne, CopieChoices, CopieParcelle };

async function campagnesWithPlots(db: Db, campagnes: { id: number; libelle: string }[]): Promise<CopieCampagne[]> {
  if (!campagnes.length) return [];
  const plots = await listParcellesOfCampagnes(
    db,
    campagnes.map((c) => c.id),
  );
  return campagnes.map((c) => ({
    ...c,
    parcelles: plots.filter((p) => Number(p.idCampagne) === c.id).map((p) => ({ id: Number(p.id), libelle: String(p.libelle) })),
  }));
}

/** The choices of the copy, import and duplication dialogs, read when one opens. */
export async function copyChoices(scope: Scope): Promise<CopieChoices> {
  const { db, user } = scope;
  const ctx = await campaignContext(scope);
  const destinations: CopieChoices["destinations"] = [];
  for (const dossier of ctx.view.dossiers) {
    const farms: CopieChoices["destinations"][number]["exploitations"] = [];
    for (const farm of await listExploitationsOfDossier(db, dossier.id)) {
      const writable = [];
      for (const c of await listCampagnesOfExploitations(db, [farm.id])) {
        const a = await abilitiesFor(db, user, { idDossier: dossier.id, idExploitation: farm.id, idCampagne: c.id });
        if (a.canWriteDescriptif) writable.push({ id: c.id, libelle: c.libelle });
      }
      if (writable.length) farms.push({ id: farm.id, libelle: farm.libelle, campagnes: await campagnesWithPlots(db, writable) });
    }
    if (farms.length) destinations.push({ id: dossier.id, libelle: dossier.libelle, exploitations: farms });
  }
  const sources: CopieChoices["sources"] = [];
  for (const farm of ctx.view.exploitations) {
    const campagnes = (await listCampagnesOfExploitations(db, [farm.id])).map((c) => ({ id: c.id, libelle: c.libelle }));
    sources.push({ id: farm.id, libelle: farm.libelle, campagnes: await campagnesWithPlots(db, campagnes) });
  }
  const own = await campagnesWithPlots(
    db,
    ctx.view.campagnes.filter((c) => c.idExploitation === ctx.idExploitation).map((c) => ({ id: c.id, libelle: c.libelle })),
  );
  const actions = await listActionsOfCampagnes(
    db,
    own.map((c) => c.id),
  );
  const iso = (d: unknown) =>
    d instanceof Date ? `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}` : String(d).slice(0, 10);
  const imports = own.map((c) => ({
    ...c,
    interventions: actions
      .filter((a) => Number(a.idCampagne) === c.id)
      .map((a) => ({ id: Number(a.id), idParcelle: Number(a.idParcelle), date: iso(a.date), operation: (a.operation as string | null) ?? null })),
  }));
  return { idDossier: ctx.view.selected.idDossier, destinations, sources, imports };
}

// ---- The copy calls of the JSON API (spec 3 §7, C-API-32, 33, 35; issue 27): the dialogs' copies, named by a plot.

/** PATCH parcelles/{id}/copie_action: interventions of a campaign of the farm copied into the plot (the import dialog's copy). */
export async function copyActionsToPlot(scope: Scope, idParcelle: number, input: { actionSource: number[]; campagneSource?: number }): Promise<number> {
  const campagneSource = input.campagneSource ?? (await campagneOfAction(scope.db, input.actionSource[0]));
  if (campagneSource == null) throw invalidField("actionSource");
  return importInterventions(scope, { idParcelle, campagneSource: Number(campagneSource), actionsSource: input.actionSource });
}

/**
 * PATCH parcelles/{id}/copie_actions: ticked interventions of the scope's campaign copied to the plot {id} of a campaign
 * the user may write (the export dialog's copy, one destination plot), after deleting its interventions when asked.
 */
export async function copyActionsFromCampaign(
  scope: Scope,
  idParcelle: number,
  input: { actionsSource: number[]; dossierDestination: number; suppressionInterventionsParcellesDst: boolean },
): Promise<number> {
  const plot = await findParcelleCampagne(scope.db, idParcelle);
  if (!plot) throw new ServiceError("errors.not-found", 404);
  return exportInterventions(scope, { ...input, campagneDestination: Number(plot.idCampagne), parcellesDestination: [idParcelle] });
}

/**
 * PATCH parcelles/{id}/duplication_interventions ({id}: the source plot, of the scope's campaign): its interventions
 * duplicated to plots of one campaign (that of the first destination plot unless named), in the destination folder
 * (the scope's folder unless named).
 */
export async function duplicatePlotInterventions(
  scope: Scope,
  idParcelle: number,
  input: { parcellesDestination: number[]; suppressionInterventionsParcellesDst: boolean; dossierDestination?: number; campagneDestination?: number },
): Promise<number> {
  const ctx = await campaignContext(scope);
  if (!(await parcelleOfCampagneExists(scope.db, ctx.idCampagne, idParcelle))) throw new ServiceError("errors.not-found", 404);
  const destination = input.campagneDestination ?? (await findParcelleCampagne(scope.db, input.parcellesDestination[0]))?.idCampagne;
  if (destination == null) throw invalidField("parcellesDestination");
  const campagneDestination = Number(destination);
  return duplicateInterventions(scope, {
    dossierSource: ctx.view.selected.idDossier,
    campagneSource: ctx.idCampagne,
    parcelleSource: idParcelle,
    dossierDestination: input.dossierDestination ?? ctx.view.selected.idDossier,
    campagneDestination,
    parcellesDestination: input.parcellesDestination,
    suppressionInterventionsParcellesDst: input.suppressionInterventionsParcellesDst,
  });
}
