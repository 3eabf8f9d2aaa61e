import { z } from "zod";
import { ELEMENT, VALEUR_MAX } from "~/domain/observation";
import { DATE_MAX, DATE_MIN, INT_MAX, noControlCharacter, toIsoDate, withinCampaign } from "~/domain/validation";
import { campaignContext, writableCampaign } from "../access/description";
import { failingWith, invalidField, ServiceError } from "../errors";
import {
  ELEMENTS_HORS_TABLE,
  existingIds,
  findSeries,
  insertHorizon,
  insertObservations,
  insertSerie,
  listHorizons,
  listObservationRowsToExport,
  parcelleOfCampagne,
  setHorizonLimit,
  setSerieValue,
} from "./repo";
import type { Scope } from "../access/scope";

/**
 * Export and import of observation series (spec 2 §2 export and import buttons; the spec shows no format:
 * decision 0039). The file is JSON: each series with its organ, laboratory, horizons and observation rows, by
 * reference ids (types, elements, crops, stages, weeds are global lists). The intervention, the placette values and
 * the folder's own elements stay behind: they belong to the source plot or folder.
 */

export const EXPORT_FORMAT = "sillon-observations";
export const IMPORT_INVALID = "observations.import.invalide";

const n = z.number().min(-VALEUR_MAX).max(VALEUR_MAX).nullable();
const ref = z.number().int().positive().max(INT_MAX);
const id = ref.nullable();
// The texts and dates of a file follow the forms' rules (decision 0091): no control character, a date the fields accept.
const line = (max: number) => z.string().max(max).check(noControlCharacter());
const lines = (max: number) => z.string().max(max).check(noControlCharacter(true));
const day = z.string().refine((s) => toIsoDate(s) === s && s >= DATE_MIN && s <= DATE_MAX);
const ObservationOut = z.object({
  element: ref,
  valeur: n,
  texte: lines(4000).nullable(),
  unite: line(30).nullable(),
  remarque: lines(4000).nullable(),
  horizon: z.number().int().min(0).max(50).nullable(),
  idAdventice: id,
  stadeAdventice: id,
});
const SerieOut = z.object({
  nom: line(255).min(1),
  date: day,
  dicIdTypeSerie: ref,
  idCulture: id,
  idStade: id,
  remarque: lines(4000).nullable(),
  organeEtudie: id,
  laboratoire: line(255).nullable(),
  horizons: z.array(z.object({ name: line(120).min(1), limiteSup: n, limiteInf: n })).max(50),
  observations: z.array(ObservationOut).max(5000),
});
export const ExportFile = z.object({ format: z.literal(EXPORT_FORMAT), version: z.literal(1), series: z.array(SerieOut).min(1).max(1000) });
export type ExportFile = z.infer<typeof ExportFile>;

/** The ticked series of the selected campaign as an export file (whoever may read the campaign). */
export async function exportSeries(scope: Scope, ids: number[]): Promise<ExportFile> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  const series = await findSeries(db, ctx.idCampagne, [...new Set(ids)]);
  if (!series.length || series.length !== new Set(ids).size) throw new ServiceError("errors.not-found", 404);
  const out: ExportFile["series"] = [];
  for (const s of series) {
    const horizons = await listHorizons(db, s.id);
    const rows = await listObservationRowsToExport(db, s.id);
    out.push({
      nom: s.nom,
      date: s.date,
      dicIdTypeSerie: s.dicIdTypeSerie,
      idCulture: s.idCulture,
      idStade: s.idStade,
      remarque: s.remarque,
      organeEtudie: s.organeEtudie,
      laboratoire: s.laboratoire,
      horizons: horizons.map((h) => ({ name: h.name, limiteSup: h.limiteSup, limiteInf: h.limiteInf })),
      observations: rows.map((o) => ({
        element: Number(o.dicoIdEltObserve),
        valeur: o.obsValNum == null ? null : Number(o.obsValNum),
        texte: o.obsValTxt ?? null,
        unite: o.dicLlUnite ?? null,
        remarque: o.remarque ?? null,
        horizon:
          o.idHorizon == null
            ? null
            : Math.max(
                0,
                horizons.findIndex((h) => h.id === Number(o.idHorizon)),
              ),
        idAdventice: o.idPereStade == null ? null : Number(o.idPereStade),
        stadeAdventice: o.stadeAdventice == null ? null : Number(o.stadeAdventice),
      })),
    });
  }
  return { format: EXPORT_FORMAT, version: 1, series: out };
}

/** Adds the series of an export file to a plot of the selected campaign, in one transaction; a reference unknown here refuses the file. */
export async function importSeries(scope: Scope, idParcelle: number, text: string): Promise<number> {
  const { db, user } = scope;
  const ctx = await writableCampaign(scope);
  let file: ExportFile;
  try {
    file = ExportFile.parse(JSON.parse(text));
  } catch {
    throw new ServiceError(IMPORT_INVALID, 400, { fichier: [IMPORT_INVALID] });
  }
  if ((await parcelleOfCampagne(db, ctx.idCampagne, idParcelle)) == null) throw invalidField("idParcelle");
  // A series lands in the campaign's window (decision 0091), as one typed in the form.
  if (file.series.some((s) => !withinCampaign(s.date, ctx.view.campagne!.anneeRecolte))) throw invalidField("fichier", "warning.date-campaign");
  const known = async (table: string, ids: (number | null)[]) => {
    const wanted = [...new Set(ids.filter((x): x is number => x != null))];
    if (!wanted.length) return;
    const found = await existingIds(db, table, wanted);
    if (found.length !== wanted.length) throw new ServiceError(IMPORT_INVALID, 400, { fichier: [IMPORT_INVALID] });
  };
  await known(
    "type_observation",
    file.series.map((s) => s.dicIdTypeSerie),
  );
  await known(
    "culture",
    file.series.map((s) => s.idCulture),
  );
  await known(
    "stade_culture",
    file.series.map((s) => s.idStade),
  );
  await known(
    "organe_etudie",
    file.series.map((s) => s.organeEtudie),
  );
  const obs = file.series.flatMap((s) => s.observations);
  await known(
    "element_observe",
    obs.map((o) => o.element),
  );
  await known(
    "adventice",
    obs.map((o) => o.idAdventice),
  );
  await known(
    "adventice_stade",
    obs.map((o) => o.stadeAdventice),
  );
  if (obs.some((o) => (ELEMENTS_HORS_TABLE as number[]).includes(o.element))) throw new ServiceError(IMPORT_INVALID, 400, { fichier: [IMPORT_INVALID] });
  return failingWith("errors.services.observations-create-service-error", () =>
    db.transaction(async (trx) => {
      for (const s of file.series) {
        const sid = await insertSerie(trx, {
          idCampagne: ctx.idCampagne,
          idExploitation: ctx.idExploitation,
          idParcelle,
          nom: s.nom,
          date: s.date,
          dicIdTypeSerie: s.dicIdTypeSerie,
          idCulture: s.idCulture,
          idStade: s.idStade,
          remarque: s.remarque,
          isPlacetteSelected: false,
          idUser: user.id,
        });
        const serie = { id: sid, idParcelle, date: s.date, idUser: user.id };
        await setSerieValue(trx, serie, ELEMENT.organe, { num: s.organeEtudie });
        await setSerieValue(trx, serie, ELEMENT.laboratoire, { txt: s.laboratoire });
        const horizons: number[] = [];
        for (const [i, h] of s.horizons.entries()) {
          const hid = await insertHorizon(trx, { idParent: sid, idParcelle, name: h.name, ordre: i + 1 });
          horizons.push(hid);
          await setHorizonLimit(trx, serie, hid, ELEMENT.limiteSup, h.limiteSup);
          await setHorizonLimit(trx, serie, hid, ELEMENT.limiteInf, h.limiteInf);
        }
        const rows = s.observations.map((o, i) => ({
          idObservationSerie: sid,
          idParcelle,
          dicoIdEltObserve: o.element,
          obsValNum: o.valeur,
          obsValTxt: o.texte,
          dicLlUnite: o.unite,
          remarque: o.remarque,
          idHorizon: o.horizon == null ? null : (horizons[o.horizon] ?? null),
          idPereStade: o.idAdventice,
          stadeAdventice: o.stadeAdventice,
          date: s.date,
          idUser: user.id,
          ordre: i + 1,
        }));
        await insertObservations(trx, rows);
      }
      return file.series.length;
    }),
  );
}
