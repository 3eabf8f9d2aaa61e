import { financingRate } from "~/domain/calc/materiel";
import type {
  FamilleIft,
  InstantaneCampagne,
  IntrantCampagne,
  InterventionCampagne,
  OperationCampagne,
  ParcelleCampagne,
  Prix,
  RecolteCampagne,
} from "~/domain/calc/indicateurs/types";
import { ELEMENTS, TYPE_INTRANT, type Element } from "~/domain/intrant";
import { uniteMajuscule } from "~/domain/prix";
import { bool } from "../db/dialect";
import type { Db } from "../db/knex";
import { fuelPrice, listOperationsCulturales, listTypesAction, longTermRate } from "../operation-culturale/repo";
import { campaignMachines, costsOf } from "../operation-culturale/service";
import { affectationsOf, cropsOfModes } from "../parcelle/repo";
import { cleAppro, cleVente } from "../prix/repo";
import { dosesDuTraitement, lireCataloguePhyto, lireListeIft } from "./doses-reference";
import { completerInstantane, materielsOperation } from "./instantane-fertilisation";
import {
  findCampagneWithExploitation,
  listActionsOfInstantane,
  listCiblesOfInstantane,
  listCompositionsOfInstantane,
  listCulturesLibellesOfIds,
  listIntrantsOfInstantane,
  listParcellesOfInstantane,
  listPrixApproOfCampagne,
  listPrixVenteOfCampagne,
  listRecoltesOfInstantane,
} from "./repo";

/**
 * Builds the indicator engine's campaign snapshot (InstantaneCampagne, issue 14; decision 0049) from the database:
 * plots with their crop (cost centre) and management mode, interventions with their operation's work rate, fuel and
 * mechanisation charges (operation.ts through the operations screen's own calculation), inputs with their IFT family,
 * targets, spray volume, catalogue row and the reference doses of the list in force (doses-reference.ts, decision
 * 0085), fertiliser composition, harvests, and the campaign's supply and sale prices by key.
 * What the database does not hold is left absent: the engine's completeness then lists it. Nothing is invented.
 */

const num = (v: unknown): number | null => (v == null || v === "" ? null : Number(v));
const MINERAL = 655;
const FAMILLES: readonly string[] = ["H", "F", "I", "A", "TS"];

/**
 * Runs independent reads at once (Promise.all): on PostgreSQL each takes a pooled connection. Inside a transaction
 * (one connection) they run one after the other, as a pg client runs one query at a time.
 */
async function ensemble<T extends readonly (() => unknown)[]>(db: Db, lectures: readonly [...T]): Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  if (db.isTransaction) {
    const r: unknown[] = [];
    for (const f of lectures) r.push(await f());
    return r as { [K in keyof T]: Awaited<ReturnType<T[K]>> };
  }
  return Promise.all(lectures.map((f) => f())) as Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>> }>;
}

export async function instantaneCampagne(
  db: Db,
  idCampagne: number,
  options: { idParcelle?: number; toutesLesParcelles?: boolean } = {},
): Promise<InstantaneCampagne> {
  const lecture = { idCampagne, idParcelle: options.idParcelle, toutesLesParcelles: options.toutesLesParcelles };
  // The independent reads at once (decision 0081): on PostgreSQL they run on several pooled connections (the live plot
  // recompute after a save waited for each in turn); SQLite's one connection runs them in turn as before.
  const [
    campagne,
    crops,
    modeCrops,
    plotRows,
    longTerme,
    prixFioul,
    typesListe,
    operationsListe,
    actions,
    inputRows,
    compositionRows,
    targetRows,
    harvestRows,
    approRows,
    venteRows,
  ] = await ensemble(db, [
    () => findCampagneWithExploitation(db, idCampagne),
    // The plot's crop is its cost centre: the stored choice, else its mode's main crop (the cost-centre screen's rule).
    () => affectationsOf(db, idCampagne),
    () => cropsOfModes(db, idCampagne),
    // Plots: area, crop (its cost centre), management mode.
    () => listParcellesOfInstantane(db, lecture),
    () => longTermRate(db, idCampagne),
    () => fuelPrice(db, idCampagne),
    () => listTypesAction(db),
    () => listOperationsCulturales(db, idCampagne),
    // Interventions of the plots; their inputs with their category, compositions and targets; their harvests.
    () => listActionsOfInstantane(db, lecture),
    () => listIntrantsOfInstantane(db, lecture),
    () => listCompositionsOfInstantane(db, lecture),
    () => listCiblesOfInstantane(db, lecture),
    () => listRecoltesOfInstantane(db, lecture),
    () => listPrixApproOfCampagne(db, idCampagne),
    () => listPrixVenteOfCampagne(db, idCampagne),
  ]);
  if (!campagne) throw new Error(`Unknown campaign ${idCampagne}`);

  const cropOf = (idParcelle: number, idModeConduite: number | null) => {
    const options = modeCrops.filter((c) => c.idModeConduite === idModeConduite);
    return crops.get(idParcelle) ?? (options.find((c) => c.principale) ?? options[0])?.idCulture ?? null;
  };
  const cultureIds = [...new Set([...crops.values(), ...modeCrops.map((c) => c.idCulture)])];
  // The second round: the reads that need the first's answers.
  const tauxFinancement = financingRate({ longTermeTaux: longTerme });
  const amms = [
    ...new Set(
      (inputRows as Record<string, unknown>[])
        .filter((r) => Number(r.idTypeIntrant) === TYPE_INTRANT.PHYTO && r.codeIntrant != null)
        .map((r) => String(r.codeIntrant)),
    ),
  ];
  // The phyto products' reference doses (the list in force at calculation time) and catalogue rows: doses-reference.ts.
  const [cultureRows, machinesListe, listeIft, catalogue] = await ensemble(db, [
    () => (cultureIds.length ? listCulturesLibellesOfIds(db, cultureIds) : Promise.resolve([] as Record<string, unknown>[])),
    () => campaignMachines(db, idCampagne, tauxFinancement),
    () => lireListeIft(db, Number(campagne.anneeRecolte), amms),
    () => lireCataloguePhyto(db, amms),
  ]);
  const cultureLabels = new Map((cultureRows as Record<string, unknown>[]).map((r) => [Number(r.id), String(r.libelle)]));
  const parcelles: ParcelleCampagne[] = plotRows.map((r) => {
    const idCulture = cropOf(Number(r.id), num(r.idModeConduite));
    return {
      id: Number(r.id),
      libelle: String(r.libelle),
      surface: num(r.surface),
      idCulture,
      ...(idCulture != null && cultureLabels.has(idCulture) ? { libelleCulture: cultureLabels.get(idCulture) } : {}),
      idModeConduite: num(r.idModeConduite),
      ...(r.mode != null ? { libelleModeConduite: String(r.mode) } : {}),
    };
  });
  const plotById = new Map(parcelles.map((p) => [p.id, p]));

  // Operations with their calculated work rate, fuel use and mechanisation charges (the operations screen's figures).
  const types = new Map(typesListe.map((t) => [t.id, t]));
  const machines = new Map(machinesListe.map((m) => [m.id, m]));
  const operations = new Map<number, OperationCampagne>();
  for (const op of operationsListe) {
    const couts = costsOf(op, types.get(op.idTypeAction), machines, prixFioul, tauxFinancement);
    const materiels = [op.materielTractant, ...op.materielTractes]
      .filter((id): id is number => id != null)
      .map((id) => machines.get(id))
      .filter((m) => !!m);
    operations.set(op.id, {
      id: op.id,
      libelle: op.libelle,
      mecanisee: materiels.length > 0,
      eta: op.eta,
      nbPersonnes: op.mainOeuvre.length || null,
      debit: couts.debit,
      consoCarburant: couts.consoCarburant,
      // The charges need the fuel price and the machines' figures: absent when the calculation misses some.
      chargesMecanisation: couts.manquants.length ? null : couts.chargesMecaTotales,
      irrigation: op.debitIrrigation != null,
      debitIrrigation: op.debitIrrigation,
      materiels: materielsOperation([op.materielTractant, ...op.materielTractes], machines),
    });
  }

  const compositions = new Map<number, Record<string, unknown>>();
  for (const r of compositionRows) compositions.set(Number(r.idIntrant), r);
  // The input's targets in rank order (the doses copied onto them at save are a record, not read: decision 0085).
  const targets = new Map<number, number[]>();
  for (const r of targetRows) {
    const list = targets.get(Number(r.idIntrant)) ?? [];
    list.push(Number(r.idCible));
    targets.set(Number(r.idIntrant), list);
  }
  const anneeListe = listeIft.annee != null && listeIft.annee !== Number(campagne.anneeRecolte) ? listeIft.annee : null;
  // The crop a treatment's doses are read for: the intervention's crop concerned, else the plot's.
  const actionCrop = new Map(actions.map((a) => [Number(a.id), num(a.idCultureConcernee) ?? plotById.get(Number(a.idParcelle))?.idCulture ?? null]));
  const actionById = new Map(actions.map((a) => [Number(a.id), a]));
  // The spray volume of a treatment is its operation's (L/ha), for per-hectolitre doses.
  const volumes = new Map(operationsListe.map((op) => [op.id, op.volumeBouillie ?? null]));
  const inputsByAction = new Map<number, IntrantCampagne[]>();
  // The supply-price key of each distinct product, built once (it folds the label: accents, case, spaces).
  const cles = new Map<string, string>();
  const N = "\u0000";
  for (const r of inputRows) {
    const type = Number(r.idTypeIntrant);
    const unite = (r.dicLlUnite as string | null) ?? null;
    const libelle = String(r.libelleIntrant);
    const idOrigineIntrant = num(r.dicIdOrigineIntrant);
    const idIntrant = num(r.idIntrant);
    const idModalite = type === TYPE_INTRANT.EAU ? Number(r.idCategorie) : null;
    const traitementSemence = r.idIntrantSemence != null;
    const memo = `${idOrigineIntrant ?? N}\u0001${type}\u0001${idIntrant ?? N}\u0001${idModalite ?? N}\u0001${traitementSemence}\u0001${unite ?? N}\u0001${idIntrant == null ? libelle : ""}`;
    let clePrix = cles.get(memo);
    if (clePrix === undefined) {
      clePrix = cleAppro({
        idOrigineIntrant,
        idTypeIntrant: type,
        idIntrant,
        idModalite,
        traitementSemence,
        libelleIntrant: libelle,
        unite: uniteMajuscule(unite),
      });
      cles.set(memo, clePrix);
    }
    const commun = { id: Number(r.id), libelle, dose: num(r.quantite), unite, idCategorie: num(r.idCategorie), clePrix };
    let intrant: IntrantCampagne;
    if (type === TYPE_INTRANT.PHYTO || r.idIntrantSemence != null) {
      const famille = r.idIntrantSemence != null ? "TS" : (r.familleIft as string | null);
      const amm = (r.codeIntrant as string | null) ?? null;
      const produit = amm != null ? catalogue.get(amm) : undefined;
      const action = actionById.get(Number(r.idAction));
      const volumeBouillie = action?.idOperationCulturale != null ? (volumes.get(Number(action.idOperationCulturale)) ?? null) : null;
      intrant = {
        id: commun.id,
        libelle,
        dose: commun.dose,
        unite,
        idCategorie: commun.idCategorie,
        clePrix,
        type: "phyto",
        amm,
        famille: famille != null && FAMILLES.includes(famille) ? (famille as FamilleIft) : null,
        biocontrole: produit?.biocontrole ?? false,
        cibles: targets.get(Number(r.id)) ?? [],
        dosesReference: dosesDuTraitement(listeIft, amm, actionCrop.get(Number(r.idAction)) ?? null),
        volumeBouillie,
        ...(anneeListe != null ? { anneeListeIft: anneeListe } : {}),
        ...(produit?.substances.length ? { substances: produit.substances } : {}),
      };
    } else if (type === TYPE_INTRANT.FERTILISANT) {
      const ci = compositions.get(commun.id);
      const composition = ci == null ? null : (Object.fromEntries(ELEMENTS.map((e) => [e, num(ci[e])])) as Partial<Record<Element, number | null>>);
      intrant = { ...commun, type: "fertilisant", nature: Number(r.idCategorie) === MINERAL ? "mineral" : "organique", composition };
    } else if (type === TYPE_INTRANT.SEMENCE) intrant = { ...commun, type: "semence" };
    else if (type === TYPE_INTRANT.EAU) intrant = { ...commun, type: "eau" };
    else intrant = { ...commun, type: "autre" };
    const list = inputsByAction.get(Number(r.idAction)) ?? [];
    list.push(intrant);
    inputsByAction.set(Number(r.idAction), list);
  }

  const harvestsByAction = new Map<number, RecolteCampagne[]>();
  for (const r of harvestRows) {
    const plot = plotById.get(Number(r.idParcelle));
    const idCulture = Number(r.idCulture);
    const list = harvestsByAction.get(Number(r.idAction)) ?? [];
    list.push({
      id: Number(r.id),
      idCulture,
      libelle: String(r.culture),
      rendement: num(r.rendement),
      unite: String(r.dicLlUnite),
      principale: plot?.idCulture === idCulture,
      clePrix: cleVente({
        idModeConduite: plot?.idModeConduite ?? null,
        idCulture,
        idTypeSortie: Number(r.dicIdTypeSortie),
        idQualifiantRecolte: num(r.idQualifiantRecolte),
      }),
    });
    harvestsByAction.set(Number(r.idAction), list);
  }

  const interventions: InterventionCampagne[] = actions.map((a) => {
    const operation = a.idOperationCulturale != null ? (operations.get(Number(a.idOperationCulturale)) ?? null) : null;
    return {
      id: Number(a.id),
      idParcelle: Number(a.idParcelle),
      date: String(a.date).slice(0, 10),
      realisee: bool(a.realisee),
      prevue: bool(a.prevue),
      frequence: num(a.frequence),
      tauxSurface: num(a.tauxSurface),
      debit: num(a.debit),
      consoCarburant: num(a.consoCarburant),
      operation,
      idCultureConcernee: num(a.idCultureConcernee),
      intrants: inputsByAction.get(Number(a.id)) ?? [],
      recoltes: harvestsByAction.get(Number(a.id)) ?? [],
    };
  });

  // The campaign's real prices, by key (rows without a price are left out: the engine lists them missing).
  const appro: Record<string, Prix> = {};
  for (const r of approRows) {
    appro[String(r.cle)] = { valeur: Number(r.prixAchat), unite: String(r.unite ?? ""), id: Number(r.id), libelle: String(r.libelleIntrantConcat ?? "") };
  }
  const vente: Record<string, Prix> = {};
  for (const r of venteRows) {
    vente[String(r.cle)] = { valeur: Number(r.prixVente), unite: "€/t", id: Number(r.id) }; // sale prices are €/t (data-model §7)
  }

  const instantane: InstantaneCampagne = {
    idCampagne,
    anneeRecolte: Number(campagne.anneeRecolte),
    exploitation: { id: Number(campagne.idExploitation), libelle: String(campagne.libelle) },
    parcelles,
    interventions,
    prix: { reel: { appro, vente } },
  };
  // N forms, N contents of the harvests, structure costs (instantane-fertilisation.ts, decision 0086).
  await completerInstantane(db, instantane, {
    intrants: new Map(
      (inputRows as Record<string, unknown>[]).map((r) => [Number(r.id), { origine: num(r.dicIdOrigineIntrant), idIntrant: num(r.idIntrant) }]),
    ),
    typesSortie: new Map((harvestRows as Record<string, unknown>[]).map((r) => [Number(r.id), Number(r.dicIdTypeSortie)])),
  });
  return instantane;
}
