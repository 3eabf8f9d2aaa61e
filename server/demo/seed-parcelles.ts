import type { Knex } from "knex";
import { returnedId } from "../db/insert-id";

/**
 * Demo plots (issue 5) of EARL des Tilleuls (2024, 2025 and the 2025 simulation) and GAEC du Moulin
 * (2025), in Beauce communes of Eure-et-Loir. Modes and groups are found at run time in the campaign
 * (created before by seedDemoModes and seedDemoLots; absent ones leave the plot without). The 2025
 * plots are linked in parcelle_historique to the 2024 plots they come from.
 */

export type Commune = { ci: string; cp: string; lon: number; lat: number };

// Approximate centres of the demo fields, inside each commune (WGS84).
export const SOURS: Commune = { ci: "28380", cp: "28630", lon: 1.5986, lat: 48.4105 };
export const PRUNAY: Commune = { ci: "28309", cp: "28360", lon: 1.6617, lat: 48.3583 };
export const BERCHERES: Commune = { ci: "28035", cp: "28630", lon: 1.5536, lat: 48.3789 };
export const CORANCEZ: Commune = { ci: "28107", cp: "28630", lon: 1.5163, lat: 48.3648 };
const VOVES: Commune = { ci: "28422", cp: "28150", lon: 1.6311, lat: 48.2714 };
const ALLONNES: Commune = { ci: "28004", cp: "28150", lon: 1.6508, lat: 48.3249 };
const ERNEE: Commune = { ci: "53096", cp: "53500", lon: -0.9317, lat: 48.2975 };
const MONTENAY: Commune = { ci: "53155", cp: "53500", lon: -0.8917, lat: 48.2878 };

export type DemoPlot = {
  libelle: string;
  surface: number;
  /** Words of the mode's name, e.g. "Blé tendre"; the first mode of the campaign containing them. */
  mode?: string;
  /** PAC island number of the group (lots are seeded with it). */
  ilot?: string;
  commune: Commune;
  objectifRendement?: number;
  irrigable?: boolean;
  drainee?: boolean;
  /** Draw a polygon of about the plot's surface around the commune point, shifted by (dx, dy) km. */
  polygone?: [number, number];
  /** Libelle of the 2024 plots this plot comes from. */
  depuis?: string[];
};

const TILLEULS_2024: DemoPlot[] = [
  { libelle: "Les Grands Champs", surface: 24.6, mode: "Blé tendre", ilot: "12", commune: SOURS, objectifRendement: 8.5, irrigable: true, polygone: [0, 0] },
  { libelle: "La Vallée Sèche", surface: 15.2, mode: "Colza", ilot: "7", commune: BERCHERES, objectifRendement: 3.6, polygone: [0.4, -0.2] },
  { libelle: "Le Bas des Prés", surface: 9.8, mode: "Orge", ilot: "3", commune: CORANCEZ, objectifRendement: 7, drainee: true },
  { libelle: "La Pièce du Moulin à Vent", surface: 18.3, mode: "Betterave", ilot: "12", commune: PRUNAY, objectifRendement: 88, irrigable: true },
  { libelle: "Le Chemin de Chartres", surface: 11.4, mode: "Pois", commune: SOURS, objectifRendement: 4.5 },
];

// 2025: the large field is split in two; the others rotate.
const TILLEULS_2025: DemoPlot[] = [
  {
    libelle: "Les Grands Champs nord",
    surface: 12.1,
    mode: "Colza",
    ilot: "12",
    commune: SOURS,
    objectifRendement: 3.8,
    irrigable: true,
    polygone: [0, 0.18],
    depuis: ["Les Grands Champs"],
  },
  {
    libelle: "Les Grands Champs sud",
    surface: 12.5,
    mode: "Orge",
    ilot: "12",
    commune: SOURS,
    objectifRendement: 7.2,
    irrigable: true,
    polygone: [0, -0.18],
    depuis: ["Les Grands Champs"],
  },
  {
    libelle: "La Vallée Sèche",
    surface: 15.2,
    mode: "Blé tendre",
    ilot: "7",
    commune: BERCHERES,
    objectifRendement: 8.2,
    polygone: [0.4, -0.2],
    depuis: ["La Vallée Sèche"],
  },
  {
    libelle: "Le Bas des Prés",
    surface: 9.8,
    mode: "Betterave",
    ilot: "3",
    commune: CORANCEZ,
    objectifRendement: 85,
    drainee: true,
    depuis: ["Le Bas des Prés"],
  },
  {
    libelle: "La Pièce du Moulin à Vent",
    surface: 18.3,
    mode: "Blé tendre",
    ilot: "12",
    commune: PRUNAY,
    objectifRendement: 9,
    irrigable: true,
    depuis: ["La Pièce du Moulin à Vent"],
  },
  { libelle: "Le Chemin de Chartres", surface: 11.4, mode: "Blé tendre", commune: SOURS, objectifRendement: 8.8, depuis: ["Le Chemin de Chartres"] },
];

const MOULIN_2025: DemoPlot[] = [
  { libelle: "Le Moulin", surface: 21.7, mode: "Blé tendre", ilot: "5", commune: VOVES, objectifRendement: 8.4, drainee: true, polygone: [0, 0] },
  { libelle: "Les Noues", surface: 13.9, mode: "Colza", ilot: "9", commune: ALLONNES, objectifRendement: 3.5 },
  { libelle: "La Croix Blanche", surface: 16.2, mode: "Orge", ilot: "5", commune: VOVES, objectifRendement: 7.1, polygone: [0.6, 0.3] },
  { libelle: "Le Champtier des Vignes", surface: 8.6, mode: "Maïs", commune: ALLONNES, objectifRendement: 10.5 },
];

// 2024: the same fields one crop earlier in the rotation.
const MOULIN_2024: DemoPlot[] = [
  { libelle: "Le Moulin", surface: 21.7, mode: "Colza", ilot: "5", commune: VOVES, objectifRendement: 3.6, drainee: true, polygone: [0, 0] },
  { libelle: "Les Noues", surface: 13.9, mode: "Maïs", ilot: "9", commune: ALLONNES, objectifRendement: 10 },
  { libelle: "La Croix Blanche", surface: 16.2, mode: "Blé tendre", ilot: "5", commune: VOVES, objectifRendement: 8.2, polygone: [0.6, 0.3] },
  { libelle: "Le Champtier des Vignes", surface: 8.6, mode: "Orge", commune: ALLONNES, objectifRendement: 6.8 },
];

// Ferme de la Vallée (Mayenne bocage): grass, maize silage after grass, wheat after maize.
const VALLEE_2024: DemoPlot[] = [
  { libelle: "Le Pré de la Vallée", surface: 8.4, mode: "Prairie temporaire", ilot: "1", commune: ERNEE, polygone: [0, 0] },
  { libelle: "La Grande Pièce", surface: 11.2, mode: "Maïs ensilage", ilot: "2", commune: ERNEE, objectifRendement: 13, polygone: [0.5, 0.2] },
  { libelle: "Le Champ du Chêne", surface: 7.5, mode: "Blé tendre", ilot: "2", commune: MONTENAY, objectifRendement: 7.2 },
  { libelle: "Les Rochettes", surface: 6.1, mode: "Prairie temporaire", commune: MONTENAY, drainee: true },
];
const VALLEE_2025: DemoPlot[] = [
  {
    libelle: "Le Pré de la Vallée",
    surface: 8.4,
    mode: "Maïs ensilage",
    ilot: "1",
    commune: ERNEE,
    objectifRendement: 13.5,
    polygone: [0, 0],
    depuis: ["Le Pré de la Vallée"],
  },
  {
    libelle: "La Grande Pièce",
    surface: 11.2,
    mode: "Blé tendre",
    ilot: "2",
    commune: ERNEE,
    objectifRendement: 7.5,
    polygone: [0.5, 0.2],
    depuis: ["La Grande Pièce"],
  },
  { libelle: "Le Champ du Chêne", surface: 7.5, mode: "Prairie temporaire", ilot: "2", commune: MONTENAY, depuis: ["Le Champ du Chêne"] },
  { libelle: "Les Rochettes", surface: 6.1, mode: "Prairie temporaire", commune: MONTENAY, drainee: true, depuis: ["Les Rochettes"] },
];

const KM_PER_DEGREE_LAT = 111.2;

/** A closed rectangle of `ha` hectares (3:2) around the commune point shifted by (dx, dy) km, as GeoJSON text. */
function rectangle(c: Commune, ha: number, [dx, dy]: [number, number]): string {
  const kmPerDegreeLon = KM_PER_DEGREE_LAT * Math.cos((c.lat * Math.PI) / 180);
  const widthKm = Math.sqrt((ha / 100) * 1.5);
  const heightKm = ha / 100 / widthKm;
  const lon0 = c.lon + (dx - widthKm / 2) / kmPerDegreeLon;
  const lat0 = c.lat + (dy - heightKm / 2) / KM_PER_DEGREE_LAT;
  const lon1 = lon0 + widthKm / kmPerDegreeLon;
  const lat1 = lat0 + heightKm / KM_PER_DEGREE_LAT;
  const r = (n: number) => Math.round(n * 1e6) / 1e6;
  const ring = [
    [lon0, lat0],
    [lon1, lat0],
    [lon1, lat1],
    [lon0, lat1],
    [lon0, lat0],
  ].map(([x, y]) => [r(x), r(y)]);
  return JSON.stringify({ type: "Polygon", coordinates: [ring] });
}

async function insertId(trx: Knex | Knex.Transaction, table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await trx(table).insert(row).returning("id");
  return returnedId(r);
}

/** type_itineraire rows (seeds/reference/type-itineraire.json). */
const TYPE_ITINERAIRE_CONVENTIONNEL = 1;
const TYPE_ITINERAIRE_AB = 3;

/** Inserts plots into a campaign (its modes and groups found by name and PAC number); also used by scripts/demo-charge.ts. */
export async function seedPlots(trx: Knex | Knex.Transaction, idCampagne: number, plots: DemoPlot[], idHistorique?: number): Promise<void> {
  const modes = (await trx("mode_conduite").where({ idCampagne }).orderBy("id").select("id", "libelle")) as { id: number; libelle: string }[];
  const lots = (await trx("lot_parcelle").where({ idCampagne }).orderBy("id").select("id", "noIlotPac")) as { id: number; noIlotPac: string | null }[];
  const previous = idHistorique
    ? ((await trx("parcelle").where({ idCampagne: idHistorique }).select("id", "libelle")) as { id: number; libelle: string }[])
    : [];
  // Each plot's type of management (the register's "organic or not"): organic on an organic farm, else conventional.
  const ferme = await trx("campagne as c").join("exploitation as e", "e.id", "c.idExploitation").where("c.id", idCampagne).first("e.idTypeAgriculture");
  const typeConduite = Number(ferme?.idTypeAgriculture) === 2 ? TYPE_ITINERAIRE_AB : TYPE_ITINERAIRE_CONVENTIONNEL;
  for (const p of plots) {
    const mode = p.mode ? modes.find((m) => m.libelle.toLowerCase().includes(p.mode!.toLowerCase())) : undefined;
    const lot = p.ilot ? lots.find((l) => l.noIlotPac === p.ilot) : undefined;
    const geometrie = p.polygone ? rectangle(p.commune, p.surface, p.polygone) : null;
    const id = await insertId(trx, "parcelle", {
      idCampagne,
      libelle: p.libelle,
      surface: p.surface,
      objectifRendement: p.objectifRendement ?? null,
      irrigable: p.irrigable ?? false,
      drainee: p.drainee ?? false,
      idModeConduite: mode ? Number(mode.id) : null,
      idTypeModeConduite: typeConduite,
      idLot: lot ? Number(lot.id) : null,
      codeInsee: p.commune.ci,
      codePostal: p.commune.cp,
      noIlotPac: p.ilot ?? null,
      surfaceReelle: geometrie ? p.surface : null,
      geometrie,
      typeGeometrie: geometrie ? "polygon" : null,
    });
    const sources = previous.filter((q) => p.depuis?.includes(q.libelle));
    if (sources.length) await trx("parcelle_historique").insert(sources.map((q) => ({ idParcelle: id, idParcelleHistorique: Number(q.id) })));
  }
}

export async function seedDemoParcelles(trx: Knex.Transaction, campagnes: Record<string, number>): Promise<void> {
  await seedPlots(trx, campagnes.tilleuls2024, TILLEULS_2024);
  await seedPlots(trx, campagnes.tilleuls2025, TILLEULS_2025, campagnes.tilleuls2024);
  await seedPlots(trx, campagnes.tilleuls2025Simulation, TILLEULS_2025, campagnes.tilleuls2024);
  await seedPlots(trx, campagnes.moulin2025, MOULIN_2025);
  if (campagnes.moulin2024) await seedPlots(trx, campagnes.moulin2024, MOULIN_2024);
  if (campagnes.vallee2024) await seedPlots(trx, campagnes.vallee2024, VALLEE_2024);
  if (campagnes.vallee2025) await seedPlots(trx, campagnes.vallee2025, VALLEE_2025, campagnes.vallee2024);
}
