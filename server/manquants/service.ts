import { preparerCampagne } from "~/domain/calc/indicateurs/moteur";
import { adresseCorrection, correction, lignesManquants, type FigureManquants, type LigneWorklist, type Worklist } from "~/domain/manquants";
import { campagneLibelle } from "~/domain/partage";
import { abilitiesFor, ensure } from "../access/abilities";
import { instantaneCampagne } from "../calcul/instantane";
import { selectInContext } from "../contexte/service";
import type { Scope } from "../access/scope";
import type { Db } from "../db/knex";
import { failingWith, ServiceError } from "../errors";
import type { Utilisateur } from "../utilisateur/repo";

export type { LigneWorklist, Worklist };
import { farmOfCampagne } from "../campagne/repo";
import { listCampagnesReelles, listExploitationsDossier } from "./repo";

/** The error key of the worklist (an unexpected failure of its reading). */
export const MANQUANTS_ERROR = "errors.services.manquants-service-error";

/**
 * The missing-data worklist of a folder (issue 24; decision 0087): for each farm of the folder the user reads (folder
 * reading and farm reading: the lines name plots and inputs), its campaign of the chosen harvest year (the latest by
 * default), computed by the engine as it stands now, and one line per missing datum its plot figures list, with the
 * completeness fixing it would restore. A folder the user has no right on is refused (403); without a folder in the
 * context, the list is empty.
 */
export async function listerManquants(scope: Scope, options: { idDossier?: number | null; annee?: number | null } = {}): Promise<Worklist> {
  const { db, user } = scope;
  const view = await scope.view();
  const idDossier = options.idDossier ?? view.selected.idDossier;
  const idCampagneContexte = view.campagne?.id ?? null;
  if (idDossier == null) return { idDossier: null, annees: [], annee: null, exploitations: [], lignes: [], idCampagneContexte };
  ensure((await abilitiesFor(db, user, { idDossier })).canReadFolder);
  return failingWith(MANQUANTS_ERROR, () => lister(db, user, idDossier, options.annee ?? null, idCampagneContexte));
}

async function lister(db: Db, user: Utilisateur, idDossier: number, anneeVoulue: number | null, idCampagneContexte: number | null): Promise<Worklist> {
  const lues: { id: number; libelle: string; peutEcrire: boolean }[] = [];
  for (const e of await listExploitationsDossier(db, idDossier)) {
    const a = await abilitiesFor(db, user, { idDossier, idExploitation: e.id });
    if (a.canExportPublishedCalculations) lues.push({ ...e, peutEcrire: a.isDoEcritureExEcriture });
  }
  const campagnes = await listCampagnesReelles(
    db,
    lues.map((e) => e.id),
  );
  const annees = [...new Set(campagnes.map((c) => c.anneeRecolte))].sort((a, b) => b - a);
  const annee = anneeVoulue != null && annees.includes(anneeVoulue) ? anneeVoulue : (annees[0] ?? null);
  const exploitations: Worklist["exploitations"] = [];
  const lignes: LigneWorklist[] = [];
  for (const e of lues) {
    const c = campagnes.find((x) => x.idExploitation === e.id && x.anneeRecolte === annee);
    if (!c) {
      exploitations.push({ id: e.id, libelle: e.libelle, idCampagne: null, campagne: null, completude: null, figures: 0, peutEcrire: e.peutEcrire });
      continue;
    }
    const campagne = campagneLibelle(c);
    // The campaign's lock refuses writes even to a writer: a locked campaign's lines open read-only screens.
    const peutEcrire = (await abilitiesFor(db, user, { idDossier, idExploitation: e.id, idCampagne: c.id })).canWriteDescriptif;
    const { figures, parcelles, interventionDe } = await figuresCampagne(db, c.id);
    const attendus = figures.filter((f) => f.attendus > 0);
    const completude = attendus.length
      ? attendus.reduce((s, f) => s + (100 * Math.max(0, f.attendus - f.manquants.length)) / f.attendus, 0) / attendus.length
      : 100;
    exploitations.push({ id: e.id, libelle: e.libelle, idCampagne: c.id, campagne, completude, figures: attendus.length, peutEcrire });
    for (const l of lignesManquants(figures)) {
      const fix = correction(l, { idParcelle: l.parcelles[0], idIntervention: interventionDe.get(`${l.objet}|${l.id}`) ?? null });
      lignes.push({
        ...l,
        idExploitation: e.id,
        exploitation: e.libelle,
        idCampagne: c.id,
        campagne,
        libellesParcelles: l.parcelles.map((p) => parcelles.get(p) ?? `#${p}`),
        adresse: fix ? adresseCorrection(fix) : null,
      });
    }
  }
  lignes.sort((a, b) => b.gain - a.gain || a.exploitation.localeCompare(b.exploitation) || a.cle.localeCompare(b.cle));
  return { idDossier, annees, annee, exploitations, lignes, idCampagneContexte };
}

/**
 * Every plot figure of a campaign as the engine computes it now (the series' options: done interventions), the plots'
 * labels, and the intervention each input and harvest belongs to (their lines open that intervention).
 */
async function figuresCampagne(db: Db, idCampagne: number) {
  const instantane = await instantaneCampagne(db, idCampagne);
  const calculer = preparerCampagne(instantane, { realisation: "realisee", explications: false });
  const figures: FigureManquants[] = [];
  for (const p of instantane.parcelles) {
    const r = calculer(p);
    for (const code in r.indicateurs) {
      const ind = r.indicateurs[code];
      figures.push({ idParcelle: p.id, code, attendus: ind.attendus, manquants: ind.manquants });
    }
  }
  const interventionDe = new Map<string, number>();
  for (const i of instantane.interventions) {
    for (const x of i.intrants) interventionDe.set(`intrant|${x.id}`, i.id);
    for (const x of i.recoltes) interventionDe.set(`recolte|${x.id}`, i.id);
  }
  return { figures, parcelles: new Map(instantane.parcelles.map((p) => [p.id, p.libelle])), interventionDe };
}

/**
 * Opens the screen that fixes a line of another campaign than the context's: the campaign's farm and the campaign are
 * chosen in the context (the folder stays; the user must read the farm through it), then the screen is the answer.
 */
export async function ouvrirCorrection(scope: Scope, idCampagne: number, adresse: string): Promise<string> {
  const { db, user } = scope;
  if (!adresse.startsWith("/home/description/")) throw new ServiceError("warning.invalid-form", 400);
  const idExploitation = await farmOfCampagne(db, idCampagne);
  if (idExploitation == null) throw new ServiceError("errors.not-found", 404);
  const view = await scope.view();
  if (!view.exploitations.some((e) => e.id === idExploitation)) throw new ServiceError("errors.forbidden", 403);
  if (view.campagne?.id !== idCampagne) {
    const farms = view.selected.exploitations.includes(idExploitation) ? view.selected.exploitations : [...view.selected.exploitations, idExploitation];
    await selectInContext(db, user, { intent: "exploitations", ids: farms });
    await selectInContext(db, user, { intent: "campagne", id: idCampagne });
  }
  return adresse;
}
