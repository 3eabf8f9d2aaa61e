import { registerCampaignTable, shiftDateByYears, type DuplicationContext } from "./duplication";

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
    ctx.trx("operation_culturale_materiel as m").join("operation_culturale as o", "o.id", "m.idOperationCulturale").where("o.idCampagne", ctx.sourceCampagne).select("m.*"),
});
registerCampaignTable({
  table: "operation_culturale_main_oeuvre",
  references: { idOperationCulturale: "operation_culturale", idMainOeuvre: "main_oeuvre" },
  select: (ctx) =>
    ctx.trx("operation_culturale_main_oeuvre as m").join("operation_culturale as o", "o.id", "m.idOperationCulturale").where("o.idCampagne", ctx.sourceCampagne).select("m.*"),
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
const ofActions = (table: string, via = "c.idAction") => (ctx: DuplicationContext) =>
  ctx.trx(`${table} as c`).join("action as a", "a.id", via).where("a.idCampagne", ctx.sourceCampagne).orderBy("c.id").select("c.*");
registerCampaignTable({ table: "intrant", onlyWith: "inter", references: { idAction: "action", idIntrantSemence: "intrant" }, select: ofActions("intrant") });
const ofInputs = (table: string) => (ctx: DuplicationContext) =>
  ctx.trx(`${table} as c`).join("intrant as i", "i.id", "c.idIntrant").join("action as a", "a.id", "i.idAction").where("a.idCampagne", ctx.sourceCampagne).orderBy("c.id").select("c.*");
registerCampaignTable({ table: "caracteristique_intrant", onlyWith: "inter", references: { idIntrant: "intrant" }, select: ofInputs("caracteristique_intrant") });
registerCampaignTable({ table: "intrant_cible", onlyWith: "inter", references: { idIntrant: "intrant" }, select: ofInputs("intrant_cible") });
registerCampaignTable({
  table: "intrant_cible_cible",
  onlyWith: "inter",
  references: { idIntrantCible: "intrant_cible" },
  select: (ctx) =>
    ctx.trx("intrant_cible_cible as c").join("intrant_cible as ic", "ic.id", "c.idIntrantCible").join("intrant as i", "i.id", "ic.idIntrant").join("action as a", "a.id", "i.idAction")
      .where("a.idCampagne", ctx.sourceCampagne).orderBy("c.id").select("c.*"),
});

// Protocols, objective indicators, decision rules and their evaluations (issue 13): always copied; the evaluations of
// interventions only with the interventions they evaluate.
registerCampaignTable({ table: "protocole_exploitation" });
registerCampaignTable({ table: "indicateur_objectif" });
registerCampaignTable({ table: "rdd" });
registerCampaignTable({
  table: "rdd_mode_conduite",
  references: { idRdd: "rdd", idModeConduite: "mode_conduite" },
  select: (ctx) => ctx.trx("rdd_mode_conduite as c").join("rdd as r", "r.id", "c.idRdd").where("r.idCampagne", ctx.sourceCampagne).orderBy("c.id").select("c.*"),
});
registerCampaignTable({
  table: "rdd_evaluation",
  references: { idRdd: "rdd", idAction: "action", idParcelle: "parcelle" },
  select: (ctx) => {
    const q = ctx.trx("rdd_evaluation as c").join("rdd as r", "r.id", "c.idRdd").where("r.idCampagne", ctx.sourceCampagne).orderBy("c.id").select("c.*");
    return ctx.options.inter ? q : q.whereNull("c.idAction");
  },
});
