import { registerAfterCopy, registerCampaignTable, shiftDateByYears, type DuplicationContext } from "./duplication";

/**
 * The campaign-scoped tables of the farm description, registered for campaign and farm duplication,
 * parents before children. Each later area adds its own tables here.
 */
registerCampaignTable({ table: "caracteristique" });
registerCampaignTable({ table: "main_oeuvre" });
registerCampaignTable({ table: "parc_materiel" });
registerCampaignTable({ table: "operation_culturale", references: { idMaterielTractant: "parc_materiel" } });
registerCampaignTable({
  table: "operation_culturale_materiel",
  references: { idOperationCulturale: "operation_culturale", idParcMateriel: "parc_materiel" },
  select: (ctx) =>
    ctx
      .trx("operation_culturale_materiel as m")
      .join("operation_culturale as o", "o.id", "m.idOperationCulturale")
      .where("o.idCampagne", ctx.sourceCampagne)
      .select("m.*"),
});
registerCampaignTable({
  table: "operation_culturale_main_oeuvre",
  references: { idOperationCulturale: "operation_culturale", idMainOeuvre: "main_oeuvre" },
  select: (ctx) =>
    ctx
      .trx("operation_culturale_main_oeuvre as m")
      .join("operation_culturale as o", "o.id", "m.idOperationCulturale")
      .where("o.idCampagne", ctx.sourceCampagne)
      .select("m.*"),
});

// ---- Farm description II: crop management modes, plot groups, plots, features (issue 5)
const ofModes = (table: string) => (ctx: DuplicationContext) =>
  ctx.trx(`${table} as c`).join("mode_conduite as m", "m.id", "c.idModeConduite").where("m.idCampagne", ctx.sourceCampagne).select("c.*");
const ofPlots = (table: string) => (ctx: DuplicationContext) =>
  ctx.trx(`${table} as c`).join("parcelle as p", "p.id", "c.idParcelle").where("p.idCampagne", ctx.sourceCampagne).select("c.*");

registerCampaignTable({ table: "mode_conduite" });
registerCampaignTable({ table: "mode_conduite_culture", references: { idModeConduite: "mode_conduite" }, select: ofModes("mode_conduite_culture") });
registerCampaignTable({ table: "mode_conduite_assurance", references: { idModeConduite: "mode_conduite" }, select: ofModes("mode_conduite_assurance") });
registerCampaignTable({ table: "lot_parcelle" });
// A copied plot remembers the plot it was copied from.
registerCampaignTable({
  table: "parcelle",
  references: { idModeConduite: "mode_conduite", idLot: "lot_parcelle" },
  transform: (row, _ctx, source) => ({ ...row, idPlotSource: source.id }),
});
/**
 * Plot history. A copy into the next harvest year (the target's history campaign is the source) links
 * each new plot to the plot it was copied from; a copy within the same farm and year (a simulation)
 * keeps the source plots' links; a copy to another farm (farm duplication, older campaigns first) points them
 * to the copies of the linked plots, and drops those whose plot was not copied.
 */
registerCampaignTable({
  table: "parcelle_historique",
  references: { idParcelle: "parcelle" },
  select: async (ctx) => {
    const target = await ctx.trx("campagne").where({ id: ctx.targetCampagne }).first("idCampagneHistoParcelle", "idExploitation");
    if (target?.idCampagneHistoParcelle === ctx.sourceCampagne) {
      const plots = await ctx.trx("parcelle").where({ idCampagne: ctx.sourceCampagne }).select("id");
      return plots.map((p) => ({ id: -Number(p.id), idParcelle: p.id, idParcelleHistorique: p.id }));
    }
    const links = await ofPlots("parcelle_historique")(ctx);
    const source = await ctx.trx("campagne").where({ id: ctx.sourceCampagne }).first("idExploitation");
    if (source?.idExploitation === ctx.targetExploitation) return links;
    // Another farm: a link survives when the plot it points to was copied earlier in the same operation.
    const copies = ctx.earlier?.get("parcelle");
    return links.flatMap((l) => {
      const to = copies?.get(Number(l.idParcelleHistorique));
      return to ? [{ ...l, idParcelleHistorique: to }] : [];
    });
  },
});
registerCampaignTable({ table: "affectation_culture_cible", references: { idParcelle: "parcelle" }, select: ofPlots("affectation_culture_cible") });
registerCampaignTable({ table: "amenagement", references: { idParcelleAdjacente: "parcelle" } });

// Interventions and their harvests, copied with the "interventions" option, dates moved with majDtInter.
registerCampaignTable({
  table: "action",
  onlyWith: "inter",
  references: { idParcelle: "parcelle", idOperationCulturale: "operation_culturale" },
  transform: (row, ctx) => ({
    ...row,
    date: ctx.options.majDtInter ? shiftDateByYears(row.date, ctx.yearShift) : row.date,
    anneeRecolte: ctx.options.majDtInter ? Number(row.anneeRecolte) + ctx.yearShift : row.anneeRecolte,
  }),
});
registerCampaignTable({
  table: "recolte",
  onlyWith: "inter",
  references: { idAction: "action" },
  select: (ctx) => ctx.trx("recolte as r").join("action as a", "a.id", "r.idAction").where("a.idCampagne", ctx.sourceCampagne).select("r.*"),
  transform: (row) => ({ ...row, idObservationSerie: null }),
});

// The inputs of the copied interventions (issue 11): a seed treatment points to its seed, copied first (by id).
const ofActions =
  (table: string, via = "c.idAction") =>
  (ctx: DuplicationContext) =>
    ctx.trx(`${table} as c`).join("action as a", "a.id", via).where("a.idCampagne", ctx.sourceCampagne).orderBy("c.id").select("c.*");
registerCampaignTable({ table: "intrant", onlyWith: "inter", references: { idAction: "action", idIntrantSemence: "intrant" }, select: ofActions("intrant") });
const ofInputs = (table: string) => (ctx: DuplicationContext) =>
  ctx
    .trx(`${table} as c`)
    .join("intrant as i", "i.id", "c.idIntrant")
    .join("action as a", "a.id", "i.idAction")
    .where("a.idCampagne", ctx.sourceCampagne)
    .orderBy("c.id")
    .select("c.*");
registerCampaignTable({
  table: "caracteristique_intrant",
  onlyWith: "inter",
  references: { idIntrant: "intrant" },
  select: ofInputs("caracteristique_intrant"),
});
registerCampaignTable({ table: "intrant_cible", onlyWith: "inter", references: { idIntrant: "intrant" }, select: ofInputs("intrant_cible") });
registerCampaignTable({
  table: "intrant_cible_cible",
  onlyWith: "inter",
  references: { idIntrantCible: "intrant_cible" },
  select: (ctx) =>
    ctx
      .trx("intrant_cible_cible as c")
      .join("intrant_cible as ic", "ic.id", "c.idIntrantCible")
      .join("intrant as i", "i.id", "ic.idIntrant")
      .join("action as a", "a.id", "i.idAction")
      .where("a.idCampagne", ctx.sourceCampagne)
      .orderBy("c.id")
      .select("c.*"),
});

// Prices (issue 13, decision 0034): copied with the "duplicate prices" option (a farm duplication copies them
// too); a sale price keeps its management mode through the copied modes.
registerCampaignTable({ table: "prix_appro", onlyWith: "prix" });
registerCampaignTable({ table: "prix_vente", onlyWith: "prix", references: { idModeConduite: "mode_conduite" } });
// The characteristics of the copied harvests (decision 0031): reference humidity, grazing animals. A harvest keeps
// its folder's qualifier; its observation series is not copied with the interventions (cleared above).
registerCampaignTable({
  table: "caracteristique_recolte",
  onlyWith: "inter",
  references: { idRecolte: "recolte" },
  select: (ctx) =>
    ctx
      .trx("caracteristique_recolte as c")
      .join("recolte as r", "r.id", "c.idRecolte")
      .join("action as a", "a.id", "r.idAction")
      .where("a.idCampagne", ctx.sourceCampagne)
      .orderBy("c.id")
      .select("c.*"),
});

// Observation series (issue 15). Placettes are part of the plot and always follow it; the series come with
// the "observations" option, their observation rows with "elements", the values with "values".
// Attached files are not copied (decision 0038).
registerCampaignTable({ table: "placette", references: { idParcelle: "parcelle" } });
registerCampaignTable({
  table: "observation_serie",
  onlyWith: "obs",
  references: { idParcelle: "parcelle", idAction: "action", idIntrant: "intrant" },
});
const ofSeries =
  (table: string, via = "c.idObservationSerie") =>
  (ctx: DuplicationContext) =>
    ctx.trx(`${table} as c`).join("observation_serie as s", "s.id", via).where("s.idCampagne", ctx.sourceCampagne).orderBy("c.id").select("c.*");
registerCampaignTable({
  table: "observation_serie_placette",
  onlyWith: "obs",
  references: { idObservationSerie: "observation_serie", idPlacette: "placette" },
  select: ofSeries("observation_serie_placette"),
});
registerCampaignTable({
  table: "horizon",
  onlyWith: "obs",
  references: { idParent: "observation_serie", idParcelle: "parcelle" },
  select: ofSeries("horizon", "c.idParent"),
});
// The series' own values (studied organ, laboratory, horizon limits) come with the series; the table's rows with
// "elements", their values with "values".
const SERIES_OWN_ELEMENTS = [1701, 1702, 1703, 1704];
registerCampaignTable({
  table: "observation",
  onlyWith: "obs",
  references: {
    idObservationSerie: "observation_serie",
    idParcelle: "parcelle",
    idObservationParent: "observation",
    idPlacette: "placette",
    idHorizon: "horizon",
    idAction: "action",
  },
  select: async (ctx) => {
    const q = ctx.trx("observation as c").join("observation_serie as s", "s.id", "c.idObservationSerie").where("s.idCampagne", ctx.sourceCampagne);
    if (!ctx.options.eltObserve) q.whereIn("c.dicoIdEltObserve", SERIES_OWN_ELEMENTS);
    return q.orderBy("c.id").select("c.*");
  },
  transform: (row, ctx) =>
    ctx.options.valeur || SERIES_OWN_ELEMENTS.includes(Number(row.dicoIdEltObserve)) ? row : { ...row, obsValNum: null, obsValTxt: null, stadeAdventice: null },
});
registerCampaignTable({
  table: "complement_observation",
  onlyWith: "valeur",
  references: { idObservation: "observation" },
  select: (ctx) =>
    ctx
      .trx("complement_observation as c")
      .join("observation as o", "o.id", "c.idObservation")
      .join("observation_serie as s", "s.id", "o.idObservationSerie")
      .where("s.idCampagne", ctx.sourceCampagne)
      .orderBy("c.id")
      .select("c.*"),
});

// A copied harvest points to the copy of its observation series when both were copied (decision 0031).
registerAfterCopy("recolte-serie", async (ctx) => {
  const harvests = ctx.ids.get("recolte");
  const series = ctx.ids.get("observation_serie");
  if (!harvests?.size || !series?.size) return;
  const rows = await ctx
    .trx("recolte as r")
    .join("action as a", "a.id", "r.idAction")
    .where("a.idCampagne", ctx.sourceCampagne)
    .whereNotNull("r.idObservationSerie")
    .select("r.id", "r.idObservationSerie");
  for (const r of rows) {
    const copy = harvests.get(Number(r.id));
    const serie = series.get(Number(r.idObservationSerie));
    if (copy != null && serie != null) await ctx.trx("recolte").where({ id: copy }).update({ idObservationSerie: serie });
  }
});

// Protocols, objective indicators, decision rules and their evaluations (issue 13): always copied; the evaluations of
// interventions only with the interventions they evaluate.
registerCampaignTable({ table: "protocole_exploitation" });
registerCampaignTable({ table: "indicateur_objectif" });
registerCampaignTable({ table: "rdd" });
registerCampaignTable({
  table: "rdd_mode_conduite",
  references: { idRdd: "rdd", idModeConduite: "mode_conduite" },
  select: (ctx) =>
    ctx.trx("rdd_mode_conduite as c").join("rdd as r", "r.id", "c.idRdd").where("r.idCampagne", ctx.sourceCampagne).orderBy("c.id").select("c.*"),
});
registerCampaignTable({
  table: "rdd_evaluation",
  references: { idRdd: "rdd", idAction: "action", idParcelle: "parcelle" },
  select: (ctx) => {
    const q = ctx.trx("rdd_evaluation as c").join("rdd as r", "r.id", "c.idRdd").where("r.idCampagne", ctx.sourceCampagne).orderBy("c.id").select("c.*");
    return ctx.options.inter ? q : q.whereNull("c.idAction");
  },
});
