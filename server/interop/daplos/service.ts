import { EauSchema, FertilisantSchema, ORIGINE_INTRANT, PhytoSchema, SemenceSchema, TYPE_INTRANT, AutreSchema } from "~/domain/intrant";
import { estFichierDaplos, etatImport, type EtatImport } from "~/domain/import-daplos";
import { InterventionGrilleSchema } from "~/domain/intervention";
import { ParcelleSchema } from "~/domain/parcelle";
import { NewCampagneSchema } from "~/domain/partage";
import { RecolteSchema } from "~/domain/recolte";
import { isSiret, withinCampaign } from "~/domain/validation";
import type { Abilities } from "~/domain/access/abilities";
import { ensureWrite, type CampaignContext } from "../../access/description";
import { requestScope, type Scope } from "../../access/scope";
import { createCampagne } from "../../campagne/service";
import { isPostgres, type Db } from "../../db/knex";
import { isServiceError, parse, ServiceError } from "../../errors";
import { foldersReadableBy } from "../../dossier/repo";
import { createExploitation } from "../../exploitation/service";
import { campaignLinks, storedIntervention, storedRegistre } from "../../intervention/service";
import { insertIntervention, updateIntervention } from "../../intervention/repo";
import { writeIntrant, type IntrantKind } from "../../intrant/service";
import { definirTache, lancerTache, TACHE_INTERROMPUE } from "../../jobs/runner";
import { writeParcelle } from "../../parcelle/service";
import { writeRecolte } from "../../recolte/service";
import { findUtilisateurById, toPublic } from "../../utilisateur/repo";
import { planifierEdaplos } from "../edaplos/lecteur";
import { decoder, lireDaplos, reconnaitreFormat, TAILLE_MAX_DAPLOS } from "./lecteur";
import {
  apparierParcelles,
  cultureAee,
  planifier,
  texteCle,
  type Attache,
  type NonPris,
  type PlanImport,
  type PlanIntervention,
  type PlanIntrant,
} from "./plan";
import * as repo from "./repo";

/**
 * The Daplos import (issue 25, decision 0094): a file into a network, through the same write paths as the screens.
 *
 *   apercuImportDaplos(scope, demande)   the preview: what will be created or updated, the warnings; nothing written
 *   appliquerImportDaplos(scope, demande) the import in ONE transaction (all or nothing), the report
 *   lancerImportDaplos(scope, demande)   the same as a job of the runner (progress), with its history row
 *   historiqueImportsDaplos(scope, idOad) the history rows of spec 3 §3.13 with their states of §4.5
 *
 * Rights (server/access): the destination folder must be of the network and the user's; a new farm needs
 * canCreateExploitation on the folder, a known farm farm-writing, every campaign written canWriteDescriptif and no
 * lock (validated series, published indicators): `ensureWrite`, the one write gate. A re-import updates in place:
 * the farm by its SIRET, a plot by SIRET | harvest year | order number | plot reference, an event by its GUID
 * (import_daplos_cle). A farm no key names is the destination folder's farm with the file's SIRET (farm writing
 * needed; several such farms are refused), and a plot no key names that campaign's plot of its name or PAC islet
 * (decision 0138).
 */

export const TACHE_IMPORT_DAPLOS = "import-daplos";
export { EXTENSIONS_DAPLOS, etatImport, type EtatImport } from "~/domain/import-daplos";
export const IMPORT_ERROR = "daplos.echec";

export type DemandeImport = { idOad: number; idDossier?: number | null; nomFichier: string; octets: Uint8Array };

export type Action = "creer" | "mettre-a-jour";

export type RapportImport = {
  fichier: { nom: string; encodage: string; version: string };
  ecrit: boolean;
  dossier: number;
  /** `existante`: the farm updated, and how it was found (an earlier import's key, or its SIRET in the folder: decision 0138). */
  exploitation: { siret: string | null; libelle: string; id: number | null; action: Action; existante: { libelle: string; par: "cle" | "siret" } | null };
  campagnes: { anneeRecolte: number; id: number | null; action: Action }[];
  parcelles: { ligne: number; cle: string; libelle: string; id: number | null; action: Action }[];
  interventions: { creees: number; misesAJour: number; supprimees: number };
  intrants: { crees: number; nonReferences: { ligne: number; libelle: string; genre: string }[] };
  recoltes: { creees: number };
  /** Per record type: read, created, updated, not taken. */
  comptes: Record<string, { lus: number; crees: number; misAJour: number; nonPris: number }>;
  nonPris: NonPris[];
  avertissements: PlanImport["avertissements"];
};

/** Accepted by extension first (C-DAP-07), then by content (the reader). */
export function verifierNomFichier(nom: string): void {
  if (!estFichierDaplos(nom)) throw new ServiceError("daplos.extension", 400, { fichier: ["daplos.extension"] });
}

type Cible = {
  idDossier: number;
  idExploitation: number | null;
  cleExploitation: string | null;
  existante: { libelle: string; par: "cle" | "siret" } | null;
};

/** The file's SIRET as the coordinates keep it (its digits without spaces), or null. */
const siretNormalise = (siret: string | null) => siret?.replace(/\s/g, "") || null;

/**
 * The farm of the folder that has the file's SIRET, for a file no key names (decision 0138): none, or the one farm,
 * which the user must be allowed to write (farm writing, the one gate); several are refused, naming them.
 */
async function exploitationParSiret(scope: Scope, idDossier: number, siret: string | null): Promise<{ id: number; libelle: string } | null> {
  const s = siretNormalise(siret);
  if (!s) return null;
  const found = await repo.exploitationsParSiret(scope.db, idDossier, s);
  if (!found.length) return null;
  if (found.length > 1)
    throw new ServiceError("daplos.siret-plusieurs-exploitations", 409, undefined, {
      siret: s,
      exploitations: found.map((e) => `${e.libelle} #${e.id}`).join(", "),
    });
  const [e] = found;
  try {
    await ensureWrite(scope, { dossier: idDossier, exploitation: e.id });
  } catch (err) {
    if (isServiceError(err) && err.status === 403)
      throw new ServiceError("daplos.siret-exploitation-non-modifiable", 403, undefined, { siret: s, exploitation: e.libelle });
    throw err;
  }
  return e;
}

/**
 * The folder and farm the file goes to: of the destination network, reachable by the user (403 otherwise). The farm
 * is the one an earlier import's key names when the folder reaches it, else the folder's farm with the file's SIRET,
 * else a new one.
 */
async function destination(scope: Scope, demande: DemandeImport, plan: PlanImport): Promise<Cible> {
  const { db, user } = scope;
  const dossiers = await repo.dossiersDuReseau(db, user.id, demande.idOad);
  if (!dossiers.length) throw new ServiceError("errors.forbidden", 403);
  const cleExploitation = plan.exploitation.siret;
  let idExploitation: number | null = null;
  if (cleExploitation) {
    const known = (await repo.clesConnues(db, demande.idOad, "exploitation", [cleExploitation])).get(cleExploitation);
    if (known != null && (await repo.existants(db, "exploitation", [known])).has(known)) idExploitation = known;
  }
  let idDossier: number | null = demande.idDossier ?? null;
  if (idDossier != null) {
    if (!(await repo.dossierDuReseau(db, idDossier, demande.idOad)) || !dossiers.includes(idDossier)) throw new ServiceError("errors.forbidden", 403);
  } else if (idExploitation != null) {
    const of = await repo.dossiersDeExploitation(db, idExploitation);
    idDossier = dossiers.find((d) => of.includes(d)) ?? null;
  }
  if (idDossier == null) {
    const selected = (await scope.view()).selected.idDossier;
    idDossier = selected != null && dossiers.includes(selected) ? selected : dossiers[0];
  }
  // A farm known by its key but not reached through this folder is a new farm of this folder.
  if (idExploitation != null && !(await repo.dossiersDeExploitation(db, idExploitation)).includes(idDossier)) idExploitation = null;
  if (idExploitation != null)
    return { idDossier, idExploitation, cleExploitation, existante: { libelle: await repo.libelleExploitation(db, idExploitation), par: "cle" } };
  const parSiret = await exploitationParSiret(scope, idDossier, cleExploitation);
  if (parSiret) return { idDossier, idExploitation: parSiret.id, cleExploitation, existante: { libelle: parSiret.libelle, par: "siret" } };
  return { idDossier, idExploitation: null, cleExploitation, existante: null };
}

const clePlot = (siret: string | null, cle: string) => `${siret ?? ""}|${cle}`;
const cleEvent = (siret: string | null, guid: string) => `${siret ?? ""}|${guid}`;

/** The rights the import needs, asked of the one gate before anything is written (the preview asks them too). */
async function verifierDroits(scope: Scope, cible: Cible, campagnes: (number | null)[]): Promise<Abilities[]> {
  const asked: Abilities[] = [];
  if (cible.idExploitation == null) asked.push(await ensureWrite(scope, { dossier: cible.idDossier }));
  else {
    if (campagnes.some((c) => c == null)) asked.push(await ensureWrite(scope, { dossier: cible.idDossier, exploitation: cible.idExploitation }));
    for (const c of campagnes) if (c != null) asked.push(await ensureWrite(scope, { dossier: cible.idDossier, campagne: c }));
  }
  return asked;
}

type Prepare = { plan: PlanImport; cible: Cible; campagnes: Map<number, number | null>; plots: Map<string, number>; events: Map<string, number> };

/** The plan of a file by its content (decision 0108): an eDaplos XML message by its reader, anything else by the flat reader (which refuses what is not Daplos). */
function planDuFichier(octets: Uint8Array): PlanImport {
  const debut = octets.subarray(0, 4096);
  if (debut.byteLength && reconnaitreFormat(decoder(debut).texte) === "edaplos") return planifierEdaplos(octets, { tailleMax: TAILLE_MAX_DAPLOS });
  return planifier(lireDaplos(octets, { tailleMax: TAILLE_MAX_DAPLOS }));
}

/** Reads, plans and resolves the file against what earlier imports wrote; checks the rights. Nothing written. */
async function preparer(scope: Scope, demande: DemandeImport): Promise<Prepare> {
  const { db } = scope;
  verifierNomFichier(demande.nomFichier);
  const plan = planDuFichier(demande.octets);
  const cible = await destination(scope, demande, plan);
  const campagnes = new Map<number, number | null>();
  for (const annee of plan.annees) campagnes.set(annee, cible.idExploitation == null ? null : await repo.campagneDeAnnee(db, cible.idExploitation, annee));
  await verifierDroits(scope, cible, [...campagnes.values()]);
  const siret = plan.exploitation.siret;
  const plots = new Map<string, number>();
  const events = new Map<string, number>();
  if (cible.idExploitation != null) {
    const pk = plan.parcelles.map((p) => clePlot(siret, texteCle(p.cle)));
    const known = await repo.clesConnues(db, demande.idOad, "parcelle", pk);
    const alive = await repo.existants(db, "parcelle", [...known.values()]);
    for (const [k, id] of known) if (alive.has(id)) plots.set(k, id);
    const ek = plan.parcelles.flatMap((p) => p.interventions.map((i) => cleEvent(siret, i.guid)));
    const knownE = await repo.clesConnues(db, demande.idOad, "action", ek);
    const aliveE = await repo.existants(db, "action", [...knownE.values()]);
    for (const [k, id] of knownE) if (aliveE.has(id)) events.set(k, id);
  }
  return { plan, cible, campagnes, plots, events };
}

function rapportVide(demande: DemandeImport, p: Prepare): RapportImport {
  const comptes: RapportImport["comptes"] = {};
  for (const [type, c] of Object.entries(p.plan.comptes)) comptes[type] = { lus: c.lus, crees: 0, misAJour: 0, nonPris: c.nonPris };
  return {
    fichier: { nom: demande.nomFichier, encodage: p.plan.encodage, version: p.plan.version },
    ecrit: false,
    dossier: p.cible.idDossier,
    exploitation: {
      siret: p.plan.exploitation.siret,
      libelle: p.plan.exploitation.libelle,
      id: p.cible.idExploitation,
      action: p.cible.idExploitation == null ? "creer" : "mettre-a-jour",
      existante: p.cible.existante,
    },
    campagnes: [...p.campagnes].map(([anneeRecolte, id]) => ({ anneeRecolte, id, action: id == null ? "creer" : "mettre-a-jour" })),
    parcelles: [],
    interventions: { creees: 0, misesAJour: 0, supprimees: 0 },
    intrants: { crees: 0, nonReferences: [] },
    recoltes: { creees: 0 },
    comptes,
    nonPris: [...p.plan.nonPris],
    avertissements: [...p.plan.avertissements],
  };
}

function compter(r: RapportImport, type: string, quoi: "crees" | "misAJour") {
  r.comptes[type][quoi]++;
}

/** The plot's own records (area, boundary, remarks) follow the plot: created or updated with it. */
function compterParcelle(r: RapportImport, enfants: Record<string, number>, quoi: "crees" | "misAJour") {
  compter(r, "DP", quoi);
  for (const [type, n] of Object.entries(enfants)) r.comptes[type][quoi] += n;
}

/** The header records (EI, DE, the farm's DA) follow the farm. */
function compterEntete(r: RapportImport, quoi: "crees" | "misAJour") {
  for (const type of ["EI", "DE"]) if (r.comptes[type]) r.comptes[type][quoi] += r.comptes[type].lus - r.comptes[type].nonPris;
  if (r.comptes.DA) r.comptes.DA[quoi] += r.comptes.DA.lus - r.comptes.DA.nonPris;
}

function nonPris(r: RapportImport, ligne: number, type: string, raison: string, detail?: string) {
  r.comptes[type].nonPris++;
  r.nonPris.push({ ligne, type, raison: raison as NonPris["raison"], ...(detail ? { detail } : {}) });
}

/** Records taken into a parent (eDaplos characteristics, qualifiers): created with it, or not taken with it. */
function compterAttaches(r: RapportImport, attaches: Attache[] | undefined, quoi: "crees" | "misAJour" | null) {
  for (const a of attaches ?? []) {
    if (quoi) r.comptes[a.type][quoi]++;
    else nonPris(r, a.ligne, a.type, "parent-absent");
  }
}

/** An intervention not taken: its own records, inputs (with their components) and harvests are not taken either. */
function interventionNonPrise(r: RapportImport, i: PlanIntervention, raison: string, detail?: string) {
  nonPris(r, i.ligne, "PV", raison, detail);
  compterAttaches(r, i.attaches, null);
  for (const x of i.intrants) {
    nonPris(r, x.ligne, "VI", "parent-absent");
    for (const l of x.lignesComposition) nonPris(r, l, "IC", "parent-absent");
    compterAttaches(r, x.attaches, null);
  }
  for (const h of i.recoltes) {
    nonPris(r, h.ligne, "VR", "parent-absent");
    compterAttaches(r, h.attaches, null);
  }
}

class Apercu {
  constructor(public rapport: RapportImport) {}
}

/**
 * What the file will create or update, with the warnings and every record not taken: the import itself, run in a
 * transaction that is rolled back, so that the preview says exactly what the import will do and nothing is written
 * (the ids of rows it would create are not given).
 */
export async function apercuImportDaplos(scope: Scope, demande: DemandeImport): Promise<RapportImport> {
  try {
    await scope.db.transaction(async (trx) => {
      throw new Apercu(await ecrire(scope.on(trx), trx, demande));
    });
  } catch (e) {
    if (!(e instanceof Apercu)) throw e;
    const r = e.rapport;
    return {
      ...r,
      ecrit: false,
      exploitation: { ...r.exploitation, id: r.exploitation.action === "creer" ? null : r.exploitation.id },
      campagnes: r.campagnes.map((c) => ({ ...c, id: c.action === "creer" ? null : c.id })),
      parcelles: r.parcelles.map((x) => ({ ...x, id: x.action === "creer" ? null : x.id })),
    };
  }
  throw new Error("unreachable");
}

/** The context the screens' write paths take, for a campaign the import writes (its rights asked of the gate). */
async function contexte(scope: Scope, idDossier: number, idCampagne: number, abilities: Abilities): Promise<CampaignContext> {
  const c = await repo.findCampagneEnTete(scope.db, idCampagne);
  const view = await scope.view();
  const campagne = { ...(view.campagne ?? {}), ...c, id: Number(c.id), idExploitation: Number(c.idExploitation), anneeRecolte: Number(c.anneeRecolte) };
  return {
    view: { ...view, selected: { ...view.selected, idDossier, idCampagne }, campagne: campagne as NonNullable<typeof view.campagne> },
    idCampagne,
    idExploitation: Number(c.idExploitation),
    abilities,
  };
}

/** The import in one transaction: all of it or, on the first refusal, nothing (the refusal names its line). */
export async function appliquerImportDaplos(
  scope: Scope,
  demande: DemandeImport,
  progression?: (fait: number, total: number) => Promise<void>,
): Promise<RapportImport> {
  const r = await scope.db.transaction((trx) => ecrire(scope.on(trx), trx, demande, progression));
  return { ...r, ecrit: true };
}

async function ecrire(s: Scope, trx: Db, demande: DemandeImport, progression?: (fait: number, total: number) => Promise<void>): Promise<RapportImport> {
  const p = await preparer(s, demande);
  const r = rapportVide(demande, p);
  const siret = p.plan.exploitation.siret;
  const { idOad } = demande;
  const total = p.plan.parcelles.length;
  // Farm
  let idExploitation = p.cible.idExploitation;
  if (idExploitation == null) {
    idExploitation = await createExploitation(s, p.cible.idDossier, { libelle: p.plan.exploitation.libelle.slice(0, 255), idTypeExploitation: 1 });
    // The farm keeps the file's SIRET (when it is one, as the coordinates form would take it): a later import finds it
    // by it, in this folder or another one it is shared with (decision 0138).
    const s14 = siretNormalise(siret);
    if (s14 && isSiret(s14)) await repo.ecrireSiret(trx, idExploitation, s14);
    compterEntete(r, "crees");
  } else compterEntete(r, "misAJour");
  const cles = new repo.TamponCles(idOad);
  if (siret) cles.retenir("exploitation", siret, idExploitation);
  r.exploitation.id = idExploitation;
  // Campaigns
  const contextes = new Map<number, CampaignContext>();
  for (const c of r.campagnes) {
    if (c.id == null)
      c.id = await createCampagne(s, { idDossier: p.cible.idDossier, idExploitation }, parse(NewCampagneSchema, { anneeRecolte: c.anneeRecolte }));
    const abilities = await ensureWrite(s, { dossier: p.cible.idDossier, campagne: c.id });
    contextes.set(c.anneeRecolte, await contexte(s, p.cible.idDossier, c.id, abilities));
  }
  // Plots no key names: the campaign's plot of that name or PAC islet (decision 0138), so that a file imported into a
  // farm whose plots were typed by hand updates them.
  const plots = new Map(p.plots);
  for (const c of r.campagnes)
    if (c.action === "mettre-a-jour") {
      const sansCle = p.plan.parcelles.filter((x) => x.cle.annee === c.anneeRecolte && !plots.has(clePlot(siret, texteCle(x.cle))));
      if (!sansCle.length) continue;
      const pris = new Set(plots.values());
      const { trouvees, ambigues } = apparierParcelles(
        sansCle.map((x) => ({ cle: clePlot(siret, texteCle(x.cle)), libelle: x.libelle, noIlotPac: x.noIlotPac })),
        (await repo.parcellesDeCampagne(trx, c.id!)).filter((x) => !pris.has(x.id)),
      );
      for (const [k, id] of trouvees) plots.set(k, id);
      const douteuses = new Set(ambigues);
      for (const x of sansCle)
        if (douteuses.has(clePlot(siret, texteCle(x.cle))))
          r.avertissements.push({ ligne: x.ligne, type: "DP", cle: "daplos.avertissement.parcelle-ambigue", params: { libelle: x.libelle } });
    }
  // Plots, their crops (a driving mode per crop), then their events
  let fait = 0;
  const liens = new Map<number, Awaited<ReturnType<typeof campaignLinks>>>();
  const cache = new Map<string, number | null>();
  for (const parcelle of p.plan.parcelles) {
    const ctx = contextes.get(parcelle.cle.annee)!;
    const k = clePlot(siret, texteCle(parcelle.cle));
    const existing = plots.get(k);
    const idModeConduite =
      parcelle.idCulture != null
        ? await memo(cache, `mode|${ctx.idCampagne}|${parcelle.idCulture}`, () => repo.modePourCulture(trx, ctx.idCampagne, parcelle.idCulture!))
        : undefined;
    let codeInsee = parcelle.codeInsee;
    if (codeInsee && (await memo(cache, `commune|${codeInsee}`, async () => ((await repo.communeExiste(trx, codeInsee!)) ? 1 : null))) == null) {
      r.avertissements.push({ ligne: parcelle.ligne, type: "DP", cle: "daplos.avertissement.commune-inconnue", params: { codeInsee } });
      codeInsee = null;
    }
    const idParcelle = await enLigne(parcelle.ligne, "DP", async () => {
      const input = parse(ParcelleSchema, {
        libelle: parcelle.libelle.slice(0, 255),
        surface: parcelle.surface && parcelle.surface > 0 ? parcelle.surface : undefined,
        codeInsee: codeInsee ?? undefined,
        noIlotPac: parcelle.noIlotPac?.slice(0, 30) ?? undefined,
        drainee: parcelle.drainee,
        irrigable: parcelle.irrigable ?? false,
        geometrie: parcelle.geometrie ? JSON.stringify(parcelle.geometrie) : undefined,
        remarque: parcelle.remarques.length ? parcelle.remarques.join("\n").slice(0, 4000) : undefined,
        idModeConduite,
      });
      return writeParcelle(trx, ctx, input, existing == null ? undefined : await repo.jetonDe(trx, "parcelle", existing));
    });
    cles.retenir("parcelle", k, idParcelle);
    compterParcelle(r, parcelle.enfants, existing == null ? "crees" : "misAJour");
    r.parcelles.push({
      ligne: parcelle.ligne,
      cle: texteCle(parcelle.cle),
      libelle: parcelle.libelle,
      id: idParcelle,
      action: existing == null ? "creer" : "mettre-a-jour",
    });
    // The campaign's plots, operations and crops, read once per campaign and kept up to date as the import adds to them.
    if (!liens.has(ctx.idCampagne)) liens.set(ctx.idCampagne, await campaignLinks(trx, ctx.idCampagne));
    const known = liens.get(ctx.idCampagne)!;
    known.plots.add(idParcelle);
    if (parcelle.idCulture != null) known.crops.add(parcelle.idCulture);
    for (const i of parcelle.interventions) {
      await ecrireIntervention(s, trx, {
        r,
        ctx,
        idOad,
        siret,
        idParcelle,
        idCulture: parcelle.idCulture,
        intervention: i,
        known: p.events.get(cleEvent(siret, i.guid)),
        liens,
        cache,
        cles,
      });
    }
    fait++;
    if (progression && fait % 20 === 0) await progression(fait, total);
  }
  await cles.ecrire(trx);
  if (progression) await progression(total, total);
  return r;
}

type Ecriture = {
  r: RapportImport;
  ctx: CampaignContext;
  idOad: number;
  siret: string | null;
  idParcelle: number;
  idCulture: number | null;
  intervention: PlanIntervention;
  known: number | undefined;
  liens: Map<number, Awaited<ReturnType<typeof campaignLinks>>>;
  /** Rows found or added once per import: driving modes, operations, catalogue look-ups. */
  cache: Map<string, number | null>;
  /** The file's keys of what is written, stored at the end of the import. */
  cles: repo.TamponCles;
};

async function memo<T extends number | null>(cache: Map<string, number | null>, key: string, load: () => Promise<T>): Promise<T> {
  if (cache.has(key)) return cache.get(key) as T;
  const v = await load();
  cache.set(key, v);
  return v;
}

/** One event: deleted (action 2), created or updated in place with its inputs and harvests written again. */
async function ecrireIntervention(scope: Scope, trx: Db, w: Ecriture): Promise<void> {
  const { r, ctx, intervention: i } = w;
  const k = cleEvent(w.siret, i.guid);
  if (i.suppression) {
    if (w.known == null) return interventionNonPrise(r, i, "suppression-sans-objet");
    await repo.supprimerAction(trx, ctx.idCampagne, w.known);
    w.cles.oublier("action", k);
    r.interventions.supprimees++;
    return;
  }
  if (!withinCampaign(i.date, ctx.view.campagne!.anneeRecolte)) return interventionNonPrise(r, i, "date-hors-campagne", i.date);
  const libelleOperation = i.libelleOperation.slice(0, 255);
  const volume = i.volumeBouillie ?? null;
  const idOperation = await memo(w.cache, `op|${ctx.idCampagne}|${i.idTypeAction}|${libelleOperation}|${volume ?? ""}`, () =>
    repo.operationPour(trx, ctx.idCampagne, i.idTypeAction, libelleOperation, volume),
  );
  const links = w.liens.get(ctx.idCampagne)!;
  if (!links.operations.has(idOperation)) links.operations.set(idOperation, { idTypeAction: i.idTypeAction, debitReel: null, debitCalcule: null });
  // The BBCH code of the file lands on the stage of the crop's scale that has it, else the stage stays free text (decision 0125).
  const idStadeCulture =
    i.stadeBbch && w.idCulture != null
      ? await memo(w.cache, `stade|${w.idCulture}|${i.stadeBbch}`, () => repo.stadeParCode(trx, w.idCulture!, i.stadeBbch!))
      : null;
  const idAction = await enLigne(i.ligne, "PV", async () => {
    // The form's, grid's and API's schema (InterventionGrilleSchema): the register's fields the file carries, checked alike.
    const input = parse(InterventionGrilleSchema, {
      idParcelle: w.idParcelle,
      date: i.date,
      idOperationCulturale: idOperation,
      idCultureConcernee: w.idCulture ?? undefined,
      debit: i.debit ?? undefined,
      frequence: 1,
      tauxSurface: i.tauxSurface,
      realisee: i.realisee,
      prevue: i.prevue,
      heureDebut: i.heureDebut ?? undefined,
      heureFin: i.heureFin ?? undefined,
      idStadeCulture: idStadeCulture ?? undefined,
      precisionStade: (idStadeCulture != null ? i.stadeTexte : i.stade)?.slice(0, 255) ?? undefined,
    });
    const registre = await storedRegistre(trx, input);
    // Only what a Daplos file can say: a re-import keeps the contractor, early re-entry and seed lot entered in Sillon.
    const values = {
      ...(await storedIntervention(trx, ctx, input, links)),
      heureDebut: registre.heureDebut,
      heureFin: registre.heureFin,
      idStadeCulture: registre.idStadeCulture,
      precisionStade: registre.precisionStade,
    };
    if (w.known == null) return insertIntervention(trx, ctx.idCampagne, values);
    await updateIntervention(trx, ctx.idCampagne, await repo.jetonDe(trx, "action", w.known), values);
    await repo.viderIntervention(trx, w.known);
    return w.known;
  });
  await repo.marquerEvenement(trx, idAction, {
    intituleEvenement: i.intitule?.slice(0, 255) ?? null,
    libelleOperationSource: i.libelleOperation.slice(0, 255),
  });
  w.cles.retenir("action", k, idAction);
  if (w.known == null) r.interventions.creees++;
  else r.interventions.misesAJour++;
  compter(r, "PV", w.known == null ? "crees" : "misAJour");
  compterAttaches(r, i.attaches, w.known == null ? "crees" : "misAJour");
  for (const x of i.intrants) await ecrireIntrant(scope, trx, w, idAction, x);
  for (const h of i.recoltes) {
    const idCulture = cultureAee(h.espece, null, null) ?? w.idCulture;
    const typeSortie = idCulture != null ? await memo(w.cache, `sortie|${idCulture}`, () => repo.typeSortieDe(trx, idCulture)) : null;
    if (idCulture == null || typeSortie == null || !links.crops.has(idCulture)) {
      nonPris(r, h.ligne, "VR", "espece-inconnue", h.espece ?? undefined);
      compterAttaches(r, h.attaches, null);
      continue;
    }
    await enLigne(h.ligne, "VR", () =>
      writeRecolte(
        trx,
        ctx,
        scope.user,
        idAction,
        parse(RecolteSchema, {
          idCulture,
          dicIdTypeSortie: typeSortie,
          rendement: h.rendement ?? undefined,
          humiditeReference: h.humidite ?? undefined,
        }),
      ),
    );
    r.recoltes.creees++;
    compter(r, "VR", w.known == null ? "crees" : "misAJour");
    compterAttaches(r, h.attaches, w.known == null ? "crees" : "misAJour");
  }
}

const KINDS: Record<PlanIntrant["genre"], IntrantKind> = { phyto: "phyto", semence: "semence", fertilisant: "fertilisant", eau: "eau", autre: "autre" };
const TYPES: Record<PlanIntrant["genre"], number> = {
  phyto: TYPE_INTRANT.PHYTO,
  semence: TYPE_INTRANT.SEMENCE,
  fertilisant: TYPE_INTRANT.FERTILISANT,
  eau: TYPE_INTRANT.EAU,
  autre: TYPE_INTRANT.AUTRE,
};

/**
 * One input: a phyto by its AMM against the catalogue, a seed by its GNIS code, water as water; what the catalogue
 * does not hold becomes an unreferenced input of the folder (origin 777, a fertiliser with its composition), listed.
 */
async function ecrireIntrant(scope: Scope, trx: Db, w: Ecriture, idAction: number, x: PlanIntrant): Promise<void> {
  const { r, ctx } = w;
  const sansIntrant = (raison: string) => {
    nonPris(r, x.ligne, "VI", raison, x.libelle);
    for (const l of x.lignesComposition) nonPris(r, l, "IC", "parent-absent");
    compterAttaches(r, x.attaches, null);
  };
  if (x.quantite == null) return sansIntrant("quantite-absente");
  if (x.genre === "semence" && w.idCulture == null) return sansIntrant("espece-inconnue");
  const idDossier = ctx.view.selected.idDossier!;
  let reference: number | null = null;
  if (x.genre === "phyto" && x.amm) reference = await memo(w.cache, `amm|${x.amm}`, () => repo.phytoParAmm(trx, x.amm!));
  if (x.genre === "semence" && x.gnis && w.idCulture != null) reference = await repo.semenceParGnis(trx, x.gnis, w.idCulture);
  // A seed without GNIS code: the crop's reference seed its label names (the variety's label, or "<crop> – <variety>").
  if (x.genre === "semence" && reference == null && w.idCulture != null) reference = await repo.semenceParLibelle(trx, x.libelle, w.idCulture);
  let origine: number = ORIGINE_INTRANT.REFERENCE;
  let idIntrant = reference;
  if ((x.genre === "phyto" || x.genre === "semence" || x.genre === "fertilisant") && reference == null) {
    const d = await repo.intrantDuDossier(trx, {
      idDossier,
      idUser: scope.user.id,
      type: TYPES[x.genre],
      libelle: x.libelle.slice(0, 255),
      code: x.amm ?? x.gnis,
      composition: x.genre === "fertilisant" ? x.composition : undefined,
    });
    origine = ORIGINE_INTRANT.DOSSIER;
    idIntrant = d.id;
    r.intrants.nonReferences.push({ ligne: x.ligne, libelle: x.libelle, genre: x.genre });
  }
  await enLigne(x.ligne, "VI", () => {
    const input =
      x.genre === "phyto"
        ? parse(PhytoSchema, { idIntrant, origine, quantite: x.quantite, dicLlUnite: x.unite })
        : x.genre === "semence"
          ? parse(SemenceSchema, {
              idCulture: w.idCulture,
              idIntrant,
              origine,
              quantite: x.quantite,
              dicLlUnite: x.unite,
              semenceCertifiee: x.semence?.certifiee ?? undefined,
              semenceFerme: x.semence?.ferme ?? undefined,
              semenceOgm: x.semence?.ogm ?? undefined,
            })
          : x.genre === "fertilisant"
            ? parse(FertilisantSchema, { idCategorie: x.idCategorie, idIntrant, origine, quantite: x.quantite, dicLlUnite: x.unite, ...x.composition })
            : x.genre === "eau"
              ? parse(EauSchema, { idCategorie: x.idCategorie, quantite: x.quantite, dicLlUnite: "mm" })
              : parse(AutreSchema, { idCategorie: x.idCategorie, libelle: x.libelle.slice(0, 255), quantite: x.quantite, dicLlUnite: "autre" });
    return writeIntrant(trx, ctx, idAction, KINDS[x.genre], input as never);
  });
  r.intrants.crees++;
  compter(r, "VI", w.known == null ? "crees" : "misAJour");
  if (x.lignesComposition.length) r.comptes.IC[w.known == null ? "crees" : "misAJour"] += x.lignesComposition.length;
  compterAttaches(r, x.attaches, w.known == null ? "crees" : "misAJour");
}

/** Runs a write for one line of the file: a refusal names the line (the whole import is refused, nothing written). */
async function enLigne<T>(ligne: number, type: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (isServiceError(e) && e.status < 500) throw new ServiceError("daplos.ligne-refusee", e.status, e.fieldErrors, { ligne, type, cause: e.key });
    throw e;
  }
}

// ---- The job, its history (spec 3 §3.13, §4.5)

export type LigneHistorique = {
  id: number;
  nomFichier: string;
  dtDebImport: string;
  dtFinImport: string | null;
  message: string | null;
  nbparcellescrees: number;
  nbinterventionsimportees: number;
  etat: EtatImport;
  idTache: number | null;
};

/** The destinations the import screen offers: the networks of the folders the user may write, with those folders. */
export async function destinationsImportDaplos(scope: Scope): Promise<{ id: number; libelle: string; dossiers: { id: number; libelle: string }[] }[]> {
  const dossiers = await foldersReadableBy(scope.db, scope.user.id, "Ecriture");
  const ids = [...new Set(dossiers.map((d) => Number(d.idOad)))];
  const oads = ids.length ? await repo.listOadsOfIds(scope.db, ids) : [];
  return oads.map((o: { id: number; libelle: string }) => ({
    id: Number(o.id),
    libelle: o.libelle,
    dossiers: dossiers.filter((d) => Number(d.idOad) === Number(o.id)).map((d) => ({ id: Number(d.id), libelle: d.libelle })),
  }));
}

/** The import history of a network (spec 3 §3.13), newest first: the user's own imports, every import for an administrator. */
export async function historiqueImportsDaplos(scope: Scope, idOad: number): Promise<LigneHistorique[]> {
  const { db, user } = scope;
  if (!(await repo.dossiersDuReseau(db, user.id, idOad)).length && !user.admin) throw new ServiceError("errors.forbidden", 403);
  return (await repo.listerImports(db, idOad, user.admin ? null : user.id)).map((l) => ({
    id: l.id,
    nomFichier: l.nomFichier,
    dtDebImport: l.dtDebImport,
    dtFinImport: l.dtFinImport,
    message: l.message,
    nbparcellescrees: l.nbParcellesCreees,
    nbinterventionsimportees: l.nbInterventionsImportees,
    etat: etatImport(l),
    idTache: l.idTache,
  }));
}

/** The report of one import of the user (the screen's detail, the CLI's output). */
export async function rapportImportDaplos(scope: Scope, idImport: number): Promise<{ ligne: LigneHistorique; rapport: RapportImport | null }> {
  const l = await repo.lireImport(scope.db, idImport);
  if (!l || (l.idUser !== scope.user.id && !scope.user.admin)) throw new ServiceError("errors.not-found", 404);
  return {
    ligne: {
      id: l.id,
      nomFichier: l.nomFichier,
      dtDebImport: l.dtDebImport,
      dtFinImport: l.dtFinImport,
      message: l.message,
      nbparcellescrees: l.nbParcellesCreees,
      nbinterventionsimportees: l.nbInterventionsImportees,
      etat: etatImport(l),
      idTache: l.idTache,
    },
    rapport: l.rapport ? (JSON.parse(l.rapport) as RapportImport) : null,
  };
}

/**
 * Starts an import as a job of the runner (the screen's submit after the preview): the file is read and planned and
 * the rights asked at once (a refusal answers the request, nothing recorded), then the history row and the job are
 * recorded. The writing is the job's: the request does not run the preview again (the screen showed it), so a record
 * refused while writing fails the job, whose history row names the line.
 */
export async function lancerImportDaplos(scope: Scope, demande: DemandeImport): Promise<{ idImport: number; idTache: number }> {
  await preparer(scope, demande);
  const { db, user } = scope;
  return db.transaction(async (trx) => {
    const idImport = await repo.insertImport(trx, {
      idOad: demande.idOad,
      idDossier: demande.idDossier ?? null,
      idUser: user.id,
      nomFichier: demande.nomFichier.slice(0, 255),
      contenu: Buffer.from(demande.octets).toString("base64"),
    });
    const { id } = await lancerTache(trx, { type: TACHE_IMPORT_DAPLOS, idUtilisateur: user.id, parametres: { idImport } });
    await repo.majImport(trx, idImport, { idTache: id });
    return { idImport, idTache: id };
  });
}

/** The message of a failed import: holds the word echec (§4.5), then the key and the line. */
export function messageEchec(e: unknown): string {
  if (isServiceError(e)) {
    const ligne = e.params?.ligne != null ? ` (ligne ${e.params.ligne})` : "";
    const cause = e.params?.cause ? ` ${e.params.cause}` : "";
    return `echec: ${e.key}${cause}${ligne}`;
  }
  return `echec: ${IMPORT_ERROR}`;
}

/** The job's body: the import of the recorded file for the user who launched it; the history row says how it ended. */
export async function executerImportDaplos(db: Db, idImport: number, progression?: (fait: number, total: number) => Promise<void>): Promise<RapportImport> {
  const l = await repo.lireImport(db, idImport);
  if (!l || l.contenu == null) throw new ServiceError("errors.not-found", 404);
  const row = await findUtilisateurById(db, l.idUser);
  if (!row) throw new ServiceError("errors.forbidden", 403);
  const user = toPublic(row);
  const demande: DemandeImport = { idOad: l.idOad, idDossier: l.idDossier, nomFichier: l.nomFichier, octets: new Uint8Array(Buffer.from(l.contenu, "base64")) };
  try {
    const rapport = await appliquerImportDaplos(requestScope(db, user), demande, progression);
    await repo.majImport(db, idImport, {
      dtFinImport: new Date(),
      message: `Import terminé : ${rapport.parcelles.filter((p) => p.action === "creer").length} parcelles créées, ${rapport.interventions.creees + rapport.interventions.misesAJour} interventions importées`,
      nbParcellesCreees: rapport.parcelles.filter((p) => p.action === "creer").length,
      nbInterventionsImportees: rapport.interventions.creees + rapport.interventions.misesAJour,
      rapport: JSON.stringify(rapport),
      contenu: null,
    });
    return rapport;
  } catch (e) {
    await repo.majImport(db, idImport, { dtFinImport: new Date(), message: messageEchec(e), contenu: null });
    throw e;
  }
}

definirTache<{ idImport: number }>(
  TACHE_IMPORT_DAPLOS,
  async ({ db, tache, progression }) => {
    // SQLite has one connection, which the import's transaction holds: a progress write beside it would wait for it
    // until the pool times out (decision 0107). There the bar goes from "in progress" to finished.
    const r = await executerImportDaplos(db, tache.parametres.idImport, isPostgres(db) ? progression : undefined);
    return { parcelles: r.parcelles.length, interventions: r.interventions };
  },
  {
    // A runner that died mid-import: its transaction was never committed; the history row says it failed.
    siInterrompue: async (db, idsTache) => {
      await repo.failImportsOfTaches(db, idsTache, `echec: ${TACHE_INTERROMPUE}`);
    },
  },
);
