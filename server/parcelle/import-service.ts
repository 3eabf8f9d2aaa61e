import { ParcelleSchema } from "~/domain/parcelle";
import { validate } from "~/domain/validation";
import { campaignContext, writableCampaign } from "../access/description";
import { failingWith, ServiceError } from "../errors";
import { GeoImportError, parcelleInputOf, parseGeoFile, type ImportCandidate, type ImportPreview } from "./geo-import";
import { listParcelles } from "./repo";
import { PARCELLE_LOAD_ERROR, writeParcelle } from "./service";
import type { Scope } from "../access/scope";

/**
 * Plot import from a GeoJSON, KML or zipped shapefile, and GeoJSON export of the campaign's plots
 * (docs/decisions/0015-import-parcelles.md). The import reads the file twice: once for the preview,
 * again at creation (the browser sends it back with the ticked rows), so that what is stored always
 * comes from the file and passes the same checks.
 */
export const PARCELLE_IMPORT_ERROR = "errors.services.parcelle-import-service-error";

export type ImportFile = { name: string; bytes: Uint8Array };

/** The file's candidates; a file that cannot be used is a 400 with the reason on the file field. */
async function read(file: ImportFile): Promise<ImportPreview> {
  try {
    return await parseGeoFile(file);
  } catch (e) {
    if (e instanceof GeoImportError) throw new ServiceError(e.key, 400, { fichier: [e.key] }, e.params);
    throw e;
  }
}

/** The preview: who may create plots may preview (rights first, then the file). */
export async function previewImport(scope: Scope, file: ImportFile): Promise<ImportPreview> {
  await writableCampaign(scope);
  return read(file);
}

/**
 * Creates the ticked candidates (`indexes`, as listed by the preview) as plots of the selected campaign,
 * all in one transaction, each through the plot form's schema and write path: the computed area is the
 * surface and the real surface; the commune is the farm's (B-MAP-06). Returns the new ids, in file order.
 */
export async function importParcelles(scope: Scope, file: ImportFile, indexes: readonly number[]): Promise<number[]> {
  const { db } = scope;
  const ctx = await writableCampaign(scope);
  const { candidates } = await read(file);
  const chosen = [...new Set(indexes)].sort((a, b) => a - b).map((i) => candidates[i]);
  if (!chosen.length) throw new ServiceError("parcelle.import.errors.no-selection", 400, { selection: ["parcelle.import.errors.no-selection"] });
  if (chosen.some((c: ImportCandidate | undefined) => !c || c.refus))
    throw new ServiceError("parcelle.import.errors.bad-selection", 400, { selection: ["parcelle.import.errors.bad-selection"] });
  const inputs = chosen.map((c) => {
    const r = validate(ParcelleSchema, parcelleInputOf(c));
    if (!r.success) throw new ServiceError("warning.invalid-form", 400, r.fieldErrors);
    return r.data;
  });
  return failingWith(PARCELLE_IMPORT_ERROR, () =>
    db.transaction(async (trx) => {
      const ids: number[] = [];
      for (const input of inputs) ids.push(await writeParcelle(trx, ctx, input));
      return ids;
    }),
  );
}

const slug = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase() || "exploitation";

/**
 * The campaign's plots as a GeoJSON FeatureCollection (WGS84), for whoever may read the campaign. A
 * plot without a drawn shape is a Feature with a null geometry, so that the file lists every plot.
 */
export async function exportParcelles(scope: Scope) {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(PARCELLE_LOAD_ERROR, async () => {
    const farm = await db("exploitation").where({ id: ctx.idExploitation }).first("libelle");
    const campagne = ctx.view.campagne!;
    const rows = await listParcelles(db, ctx.idCampagne);
    const features = [...rows].reverse().map((p) => ({
      type: "Feature" as const,
      id: p.id,
      geometry: p.geometrie ? (JSON.parse(p.geometrie) as unknown) : null,
      properties: {
        id: p.id,
        libelle: p.libelle,
        surface: p.surface,
        surfaceReelle: p.surfaceReelle,
        noIlotPac: p.noIlotPac,
        codeInsee: p.codeInsee,
        codePostal: p.codePostal,
        commune: p.libelleCommune,
        modeConduite: p.libelleModeConduite,
        lot: p.libelleLot,
        typeGeometrie: p.typeGeometrie,
      },
    }));
    const suffix = campagne.simulation ? `-${slug(campagne.libelle)}` : "";
    return {
      fileName: `parcelles-${slug(String(farm?.libelle ?? ""))}-${campagne.anneeRecolte}${suffix}.geojson`,
      collection: { type: "FeatureCollection" as const, features },
    };
  });
}
