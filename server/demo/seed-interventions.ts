import { EAU as EAU_REFERENCE, ORIGINE_INTRANT } from "~/domain/intrant";
import type { Db } from "../db/knex";
import type { CampaignOperations } from "./seed-description";
import { insertId } from "../db/insert-id";

/**
 * Demo interventions (issue 11): on every plot of a demo campaign, a plausible season of interventions for the
 * main crop of its management mode (and its intermediate crop): tillage, sowing, fertilising, spraying,
 * irrigation on irrigable plots and harvest, each linked to one of the campaign's cultural operations (its
 * work rate and fuel use), dated in the campaign's season, with the number of passes = frequence × taux_surface;
 * and their inputs of the five kinds (seed 538, phyto 539, fertiliser 540, water 542, other 543).
 *
 * Seed, phyto and fertiliser inputs name their product by label, code (the real AMM number of the product for
 * phyto, from the E-Phy open data), origin, quantity, unit and category, and point to their catalogue row
 * (id_intrant) when the catalogues of migration 0009 hold it: phyto by AMM (intrant_phyto), fertilisers by label
 * (reference_fertilisant), seeds by species and variety (reference_semence); otherwise id_intrant stays empty.
 * Fertilisers declared by the farm's folder (intrant_dossier) are linked to that row, with origin 777.
 * Water is the reference input 20011 of origin 776, in mm.
 */

const ORIGINE_PRIX_PHYTO = ORIGINE_INTRANT.REFERENCE_PRIX;
const ORIGINE_REFERENCE = ORIGINE_INTRANT.REFERENCE;
const ORIGINE_DOSSIER = ORIGINE_INTRANT.DOSSIER;
const EAU_ID_INTRANT = EAU_REFERENCE.idIntrant;

type Input =
  | { kind: "semence"; libelle: string; culture?: string; quantite: number; unite?: string; ferme: number; gnis?: string }
  | { kind: "phyto"; categorie: number; libelle: string; amm: string; quantite: number; unite: string }
  | {
      kind: "ferti";
      categorie: number;
      libelle: string;
      quantite: number;
      unite: string;
      compo: Partial<Record<"n" | "p2o5" | "k2o" | "mgo" | "so3" | "cao" | "b", number>>;
    }
  | { kind: "eau"; mm: number }
  | { kind: "autre"; categorie: number; libelle: string; quantite: number };

export type Step = {
  /** Operation keys of seed-description.ts, the first the farm has is taken. */
  op: string[];
  /** [year offset from the harvest year, "MM-DD"]. */
  date: [number, string];
  inter?: boolean;
  irrigable?: boolean;
  frequence?: number;
  taux?: number;
  stade?: string;
  info?: string;
  inputs?: Input[];
};

// ---- Products. Phyto AMM numbers: E-Phy open data (produits_utf8.csv, Anses, Licence Ouverte), authorised
// products of the catalogue seeds/reference/intrant-phyto.json.
const H = 5391,
  F = 5392,
  I = 5393,
  REG = 5396;
const FIDOX = (q: number): Input => ({ kind: "phyto", categorie: H, libelle: "FIDOX 800", amm: "2210219", quantite: q, unite: "l/ha" }); // prosulfocarbe 800 g/L
export const AZOXYSTAR = (q: number): Input => ({ kind: "phyto", categorie: F, libelle: "AZOXYSTAR 250", amm: "2190636", quantite: q, unite: "l/ha" }); // azoxystrobine 250 g/L
const MODDUS = (q: number): Input => ({ kind: "phyto", categorie: REG, libelle: "MODDUS", amm: "9100046", quantite: q, unite: "l/ha" }); // trinexapac-éthyl
const BETAGRI = (q: number): Input => ({ kind: "phyto", categorie: H, libelle: "BETAGRI SC", amm: "2100034", quantite: q, unite: "l/ha" }); // métamitrone
const COLZOR_TRIO = (q: number): Input => ({ kind: "phyto", categorie: H, libelle: "COLZOR TRIO", amm: "9800018", quantite: q, unite: "l/ha" }); // colza, pré-levée
export const KARATE_ZEON = (q: number): Input => ({
  kind: "phyto",
  categorie: I,
  libelle: "KARATE AVEC TECHNOLOGIE ZEON",
  amm: "9800336",
  quantite: q,
  unite: "l/ha",
}); // lambda-cyhalothrine
// Withdrawn on 20 November 2024 (E-Phy's date of the catalogue above): the register's demo uses it in spring 2025.
export const COCKPIT = (q: number): Input => ({ kind: "phyto", categorie: F, libelle: "COCKPIT", amm: "9900004", quantite: q, unite: "l/ha" });
const ADENGO = (q: number): Input => ({ kind: "phyto", categorie: H, libelle: "ADENGO XTRA", amm: "2160693", quantite: q, unite: "l/ha" }); // maïs
const GLYPHOSATE = (q: number): Input => ({ kind: "phyto", categorie: H, libelle: "ROUNDUP DYNAMIC", amm: "2220443", quantite: q, unite: "l/ha" }); // glyphosate

const MINERAL = 655,
  LIQUIDE = 656,
  SOLIDE = 657,
  AMENDEMENT = 658;
const AMMONITRATE = (q: number): Input => ({ kind: "ferti", categorie: MINERAL, libelle: "Ammonitrate 33,5", quantite: q, unite: "kg/ha", compo: { n: 33.5 } });
const SOLUTION_39 = (q: number): Input => ({
  kind: "ferti",
  categorie: MINERAL,
  libelle: "Solution azotée 390",
  quantite: q,
  unite: "kg/ha",
  compo: { n: 39 },
});
const NPK = (q: number): Input => ({
  kind: "ferti",
  categorie: MINERAL,
  libelle: "Engrais NPK 15-15-15",
  quantite: q,
  unite: "kg/ha",
  compo: { n: 15, p2o5: 15, k2o: 15 },
});
const SUPER45 = (q: number): Input => ({
  kind: "ferti",
  categorie: MINERAL,
  libelle: "Superphosphate 45",
  quantite: q,
  unite: "kg/ha",
  compo: { p2o5: 45, cao: 20 },
});
const POTASSE = (q: number): Input => ({
  kind: "ferti",
  categorie: MINERAL,
  libelle: "Chlorure de potasse 60",
  quantite: q,
  unite: "kg/ha",
  compo: { k2o: 60 },
});
const BORE = (q: number): Input => ({ kind: "ferti", categorie: MINERAL, libelle: "Bore foliaire", quantite: q, unite: "l/ha", compo: { b: 8 } });
const SULFATE_AMMO = (q: number): Input => ({
  kind: "ferti",
  categorie: MINERAL,
  libelle: "Sulfate d'ammoniaque 21",
  quantite: q,
  unite: "kg/ha",
  compo: { n: 21, so3: 60 },
});
const FUMIER = (q: number): Input => ({
  kind: "ferti",
  categorie: SOLIDE,
  libelle: "Fumier de bovins",
  quantite: q,
  unite: "t/ha",
  compo: { n: 0.6, p2o5: 0.3, k2o: 0.8, mgo: 0.1, cao: 0.5 },
});
const LISIER = (q: number): Input => ({
  kind: "ferti",
  categorie: LIQUIDE,
  libelle: "Lisier de bovins",
  quantite: q,
  unite: "t/ha",
  compo: { n: 0.3, p2o5: 0.15, k2o: 0.35 },
});
const CHAUX = (q: number): Input => ({
  kind: "ferti",
  categorie: AMENDEMENT,
  libelle: "Chaux magnésienne",
  quantite: q,
  unite: "kg/ha",
  compo: { cao: 50, mgo: 30 },
});
const EAU = (mm: number): Input => ({ kind: "eau", mm });
const seed = (libelle: string, quantite: number, ferme: number, culture?: string): Input => ({ kind: "semence", libelle, culture, quantite, ferme });

// ---- Itineraries by main crop (harvest year Y; offset -1 is the autumn before).
const BLE: Step[] = [
  { op: ["dechaumage", "preparation"], date: [-1, "09-08"] },
  { op: ["preparation"], date: [-1, "10-18"], info: "Reprise du labour de la prairie retournée" },
  { op: ["semis"], date: [-1, "10-20"], stade: "Semis", inputs: [seed("Blé tendre d'hiver – KWS Extase", 150, 30)] },
  { op: ["pulve"], date: [-1, "11-06"], stade: "Pré-levée à 1 feuille", inputs: [FIDOX(3)] },
  { op: ["engrais"], date: [0, "02-20"], stade: "Tallage", inputs: [AMMONITRATE(150)] },
  { op: ["pulve"], date: [0, "03-28"], stade: "Épi 1 cm (BBCH 30)", inputs: [MODDUS(0.4)] },
  { op: ["engrais"], date: [0, "04-05"], stade: "1 nœud (BBCH 31)", inputs: [SOLUTION_39(180)] },
  { op: ["engrais"], date: [0, "05-05"], stade: "Dernière feuille pointante (BBCH 37)", inputs: [AMMONITRATE(100), SULFATE_AMMO(60)] },
  { op: ["pulve"], date: [0, "05-15"], stade: "Dernière feuille étalée (BBCH 39)", inputs: [AZOXYSTAR(0.8)] },
  { op: ["irrigation"], date: [0, "05-22"], irrigable: true, inputs: [EAU(30)] },
  { op: ["irrigation"], date: [0, "06-05"], irrigable: true, inputs: [EAU(30)] },
  { op: ["moisson"], date: [0, "07-16"] },
  { op: ["transport"], date: [0, "07-16"] },
  {
    op: ["pressage"],
    date: [0, "07-24"],
    info: "Pressage de la paille",
    inputs: [{ kind: "autre", categorie: 5431, libelle: "Ficelle de presse", quantite: 2 }],
  },
  { op: ["semis"], date: [0, "08-25"], inter: true, stade: "Semis du couvert", inputs: [seed("Moutarde blanche", 8, 0)] },
];

const COLZA: Step[] = [
  { op: ["dechaumage", "preparation"], date: [-1, "07-25"] },
  { op: ["semis"], date: [-1, "08-25"], stade: "Semis", inputs: [seed("Colza d'hiver – variété hybride restaurée", 2.5, 0)] },
  { op: ["semis"], date: [-1, "08-25"], inter: true, info: "Féverole associée, semée avec le colza", inputs: [seed("Féverole", 80, 100)] },
  { op: ["pulve"], date: [-1, "08-27"], stade: "Pré-levée", inputs: [COLZOR_TRIO(2.5)] },
  { op: ["pulve"], date: [-1, "10-02"], stade: "Altises adultes (4 feuilles)", inputs: [KARATE_ZEON(0.075)] },
  { op: ["engrais"], date: [0, "02-25"], stade: "Reprise de végétation", inputs: [AMMONITRATE(180)] },
  { op: ["engrais"], date: [0, "03-20"], stade: "Boutons accolés (BBCH 50)", inputs: [SOLUTION_39(150), BORE(2)] },
  { op: ["pulve"], date: [0, "04-12"], stade: "Chute des premiers pétales (G1)", inputs: [AZOXYSTAR(0.8)] },
  { op: ["irrigation"], date: [0, "04-24"], irrigable: true, stade: "Floraison", info: "Tour d'eau de sécurité au printemps sec", inputs: [EAU(25)] },
  { op: ["moisson"], date: [0, "07-06"] },
  { op: ["transport"], date: [0, "07-06"] },
];

const ORGE: Step[] = [
  { op: ["dechaumage", "preparation"], date: [-1, "08-05"] },
  { op: ["semis"], date: [-1, "08-20"], inter: true, stade: "Semis du couvert", inputs: [seed("Phacélie", 10, 0)] },
  { op: ["roulage", "broyage"], date: [-1, "12-15"], inter: true, info: "Destruction du couvert par roulage sur gel" },
  { op: ["semis"], date: [0, "03-05"], stade: "Semis", inputs: [seed("Orge de printemps – RGT Planet", 140, 50)] },
  { op: ["engrais"], date: [0, "03-06"], stade: "Semis", inputs: [NPK(200)] },
  { op: ["engrais"], date: [0, "04-10"], stade: "Tallage", inputs: [AMMONITRATE(120)] },
  { op: ["pulve"], date: [0, "05-12"], stade: "Dernière feuille étalée (BBCH 39)", inputs: [AZOXYSTAR(0.6)] },
  { op: ["irrigation"], date: [0, "05-26"], irrigable: true, inputs: [EAU(25)] },
  { op: ["moisson"], date: [0, "07-20"] },
  { op: ["transport"], date: [0, "07-20"] },
];

const BETTERAVE: Step[] = [
  { op: ["dechaumage"], date: [-1, "08-05"] },
  { op: ["labour"], date: [-1, "11-15"], info: "Labour d'hiver" },
  { op: ["engrais"], date: [0, "02-20"], inputs: [POTASSE(150), SUPER45(100)] },
  { op: ["engrais"], date: [0, "03-18"], stade: "Avant semis", inputs: [SOLUTION_39(250)] },
  { op: ["semis-mono"], date: [0, "03-22"], stade: "Semis", inputs: [seed("Betterave sucrière – variété tolérante rhizomanie", 2.5, 0)] },
  { op: ["pulve"], date: [0, "04-18"], stade: "Cotylédons", info: "Désherbage en faible dose, passage 1", inputs: [BETAGRI(1)] },
  { op: ["pulve"], date: [0, "05-02"], stade: "2 feuilles vraies", info: "Passage 2", inputs: [BETAGRI(1)] },
  { op: ["pulve"], date: [0, "05-18"], stade: "4 à 6 feuilles", info: "Passage 3", inputs: [BETAGRI(1)] },
  { op: ["irrigation"], date: [0, "06-12"], irrigable: true, inputs: [EAU(30)] },
  { op: ["irrigation"], date: [0, "06-28"], irrigable: true, inputs: [EAU(30)] },
  { op: ["pulve"], date: [0, "07-08"], stade: "Couverture du sol", info: "Cercosporiose", inputs: [AZOXYSTAR(0.6)] },
  { op: ["irrigation"], date: [0, "07-15"], irrigable: true, inputs: [EAU(30)] },
  {
    op: ["arrachage"],
    date: [0, "10-10"],
    inputs: [{ kind: "autre", categorie: 5432, libelle: "Bâche de couverture de silo de betteraves (Toptex)", quantite: 1 }],
  },
];

const POIS: Step[] = [
  { op: ["labour"], date: [-1, "11-20"] },
  { op: ["semis"], date: [0, "03-01"], stade: "Semis", inputs: [seed("Pois protéagineux de printemps – Kayanne", 220, 60)] },
  { op: ["roulage"], date: [0, "03-04"], stade: "Avant levée" },
  { op: ["pulve"], date: [0, "03-05"], stade: "Pré-levée", inputs: [FIDOX(2.5)] },
  { op: ["pulve"], date: [0, "05-20"], stade: "Début floraison", inputs: [AZOXYSTAR(0.8)] },
  { op: ["moisson"], date: [0, "07-10"] },
  { op: ["transport"], date: [0, "07-10"] },
];

const MAIS_GRAIN: Step[] = [
  { op: ["dechaumage"], date: [-1, "08-10"] },
  { op: ["semis"], date: [-1, "08-25"], inter: true, stade: "Semis du couvert", inputs: [seed("Mélange d'interculture (avoine, vesce, phacélie)", 25, 40)] },
  { op: ["broyage", "roulage"], date: [0, "02-25"], inter: true, info: "Destruction du couvert" },
  { op: ["decompactage", "labour"], date: [0, "03-20"] },
  { op: ["engrais"], date: [0, "04-15"], inputs: [NPK(250)] },
  { op: ["semis-mono"], date: [0, "04-22"], stade: "Semis", inputs: [seed("Maïs grain – variété demi-précoce", 28, 0)] },
  { op: ["pulve"], date: [0, "05-20"], stade: "4 à 6 feuilles", inputs: [ADENGO(0.33)] },
  { op: ["engrais"], date: [0, "06-01"], stade: "8 feuilles", inputs: [SOLUTION_39(300)] },
  { op: ["irrigation"], date: [0, "07-05"], irrigable: true, inputs: [EAU(35)] },
  { op: ["irrigation"], date: [0, "07-20"], irrigable: true, inputs: [EAU(35)] },
  { op: ["moisson"], date: [0, "10-12"] },
  { op: ["transport"], date: [0, "10-12"] },
  { op: ["broyage"], date: [0, "10-20"], info: "Broyage des cannes contre la pyrale" },
];

const MAIS_ENSILAGE: Step[] = [
  { op: ["engrais"], date: [-1, "09-20"], info: "Chaulage d'entretien", inputs: [CHAUX(1500)] },
  { op: ["fumier"], date: [0, "03-15"], inputs: [FUMIER(30)] },
  { op: ["pulve"], date: [0, "03-25"], inter: true, info: "Destruction de la prairie", inputs: [GLYPHOSATE(2)] },
  { op: ["labour"], date: [0, "04-05"] },
  { op: ["preparation"], date: [0, "04-22"] },
  { op: ["semis-mono"], date: [0, "04-25"], stade: "Semis", inputs: [seed("Maïs ensilage – variété précoce", 27, 0)] },
  { op: ["pulve"], date: [0, "05-20"], stade: "4 à 6 feuilles", inputs: [ADENGO(0.33)] },
  { op: ["engrais"], date: [0, "06-01"], stade: "6 feuilles", inputs: [AMMONITRATE(120)] },
  {
    op: ["ensilage"],
    date: [0, "09-12"],
    stade: "32 % de matière sèche",
    inputs: [
      { kind: "autre", categorie: 5433, libelle: "Conservateur d'ensilage (bactéries lactiques)", quantite: 1 },
      { kind: "autre", categorie: 5432, libelle: "Bâche d'ensilage et film sous-bâche", quantite: 1 },
    ],
  },
];

const PRAIRIE: Step[] = [
  { op: ["lisier"], date: [0, "02-28"], inputs: [LISIER(25)] },
  { op: ["engrais"], date: [0, "03-15"], inputs: [AMMONITRATE(100)] },
  { op: ["fauche"], date: [0, "05-10"], info: "Première coupe" },
  { op: ["fanage"], date: [0, "05-11"] },
  { op: ["andainage"], date: [0, "05-13"] },
  {
    op: ["pressage"],
    date: [0, "05-13"],
    inputs: [
      { kind: "autre", categorie: 5431, libelle: "Filet pour balles rondes", quantite: 1 },
      { kind: "autre", categorie: 5432, libelle: "Film d'enrubannage", quantite: 1 },
    ],
  },
  { op: ["fauche"], date: [0, "06-25"], info: "Deuxième coupe", taux: 0.6 },
  { op: ["fanage"], date: [0, "06-26"], taux: 0.6 },
  { op: ["andainage"], date: [0, "06-28"], taux: 0.6 },
  { op: ["pressage"], date: [0, "06-28"], taux: 0.6, inputs: [{ kind: "autre", categorie: 5431, libelle: "Ficelle de presse", quantite: 1 }] },
  { op: ["lisier"], date: [0, "09-05"], info: "Après le dernier pâturage", inputs: [LISIER(20)] },
];

/** Itineraries by the main crop's label (seeds/reference/culture.json). */
export const ITINERAIRES: Record<string, Step[]> = {
  "Blé tendre d'hiver": BLE,
  "Colza d'hiver": COLZA,
  "Orge de printemps": ORGE,
  "Betterave sucrière": BETTERAVE,
  "Pois protéagineux de printemps": POIS,
  "Maïs grain": MAIS_GRAIN,
  "Maïs ensilage": MAIS_ENSILAGE,
  "Prairie temporaire": PRAIRIE,
};

type Plot = {
  id: number;
  surface: number;
  irrigable: boolean;
  principale: { id: number; libelle: string } | null;
  intermediaire: { id: number; libelle: string } | null;
};

async function plotsOf(db: Db, idCampagne: number): Promise<Plot[]> {
  const plots = await db("parcelle").where({ idCampagne }).orderBy("id").select("id", "surface", "irrigable", "idModeConduite");
  const rows = await db("mode_conduite_culture as mcc")
    .join("culture as c", "c.id", "mcc.idCulture")
    .leftJoin("categorie_culture as cat", "cat.id", "mcc.idCatCulture")
    .join("mode_conduite as m", "m.id", "mcc.idModeConduite")
    .where("m.idCampagne", idCampagne)
    .orderBy([{ column: "mcc.idModeConduite" }, { column: "mcc.ordre" }])
    .select("mcc.idModeConduite", "c.id", "c.libelle", "cat.code");
  return plots.map((p) => {
    const mine = rows.filter((r) => Number(r.idModeConduite) === Number(p.idModeConduite));
    const pick = (code: string) => {
      const r = mine.find((x) => x.code === code);
      return r ? { id: Number(r.id), libelle: String(r.libelle) } : null;
    };
    return {
      id: Number(p.id),
      surface: Number(p.surface),
      irrigable: p.irrigable === true || p.irrigable === 1,
      principale: pick("principale"),
      intermediaire: pick("intermediaire"),
    };
  });
}

type Catalogues = { phytos: Map<string, number>; fertilisants: Map<string, number>; semences: Map<string, { id: number; codeGnis: string | null }> };

/** The product catalogues (migration 0009), when present: phyto by AMM, fertilisers by label, seed varieties by species and name. */
async function cataloguesOf(db: Db): Promise<Catalogues> {
  const out: Catalogues = { phytos: new Map(), fertilisants: new Map(), semences: new Map() };
  if (await db.schema.hasTable("intrant_phyto")) {
    for (const r of await db("intrant_phyto").whereNotNull("ammProduit").select("id", "ammProduit")) out.phytos.set(String(r.ammProduit), Number(r.id));
  }
  if (await db.schema.hasTable("reference_fertilisant")) {
    for (const r of await db("reference_fertilisant").select("id", "libelle")) out.fertilisants.set(String(r.libelle), Number(r.id));
  }
  if (await db.schema.hasTable("reference_semence")) {
    for (const r of await db("reference_semence").select("id", "libelle", "idCulture", "codeGnis")) {
      out.semences.set(`${r.idCulture}|${r.libelle}`, { id: Number(r.id), codeGnis: (r.codeGnis as string | null) ?? null });
    }
  }
  return out;
}

/** Share of each phyto dose kept in the demo's reduced-phyto simulation. */
export const REDUCTION_PHYTO_SIMULATION = 0.7;

export type InterventionsOptions = {
  /** The campaign's harvest year. */
  annee: number;
  /** Planned rather than done (a simulation). */
  simulation: boolean;
  /** The farm's folder, whose declared fertilisers (intrant_dossier) are linked with origin 777. */
  idDossier: number | null;
  /** Only these plots (default: every plot of the campaign). */
  idParcelles?: number[];
  /** These steps instead of the main crop's itinerary (a few interventions added to some plots). */
  itineraire?: Step[];
};

/** Seeds the interventions and inputs of every plot of a campaign; returns how many interventions were written. */
export async function seedCampaignInterventions(db: Db, idCampagne: number, operations: CampaignOperations, o: InterventionsOptions): Promise<number> {
  const dossierInputs = new Map<string, number>();
  if (o.idDossier) {
    for (const r of await db("intrant_dossier").where({ idDossier: o.idDossier }).select("id", "libelle")) dossierInputs.set(String(r.libelle), Number(r.id));
  }
  const catalogues = await cataloguesOf(db);
  const cultureIds = new Map<string, number>();
  for (const r of await db("culture").select("id", "libelle")) cultureIds.set(String(r.libelle), Number(r.id));
  let count = 0;
  for (const plot of await plotsOf(db, idCampagne)) {
    if (o.idParcelles && !o.idParcelles.includes(plot.id)) continue;
    const steps = plot.principale ? (o.itineraire ?? ITINERAIRES[plot.principale.libelle]) : undefined;
    if (!steps) continue;
    for (const step of steps) {
      if (step.irrigable && !plot.irrigable) continue;
      if (step.inter && !plot.intermediaire) continue;
      // The simulation "réduction phyto" also goes without the growth regulator and the insecticide.
      if (o.simulation && step.inputs?.length && step.inputs.every((x) => x.kind === "phyto" && (x.categorie === REG || x.categorie === I))) continue;
      const key = step.op.find((k) => operations.has(k));
      // A step whose work the farm does not do (no such operation) is left out.
      if (!key) continue;
      const op = operations.get(key)!;
      const crop = step.inter ? plot.intermediaire! : plot.principale!;
      const frequence = step.frequence ?? 1;
      const tauxSurface = step.taux ?? 1;
      const [offset, md] = step.date;
      const date = `${o.annee + offset}-${md}`;
      // In 2025 the fungicides were planned beforehand (P), then done (R).
      const planned = o.simulation || (o.annee === 2025 && step.inputs?.some((x) => x.kind === "phyto" && x.categorie === F));
      const idAction = await insertId(db, "action", {
        idCampagne,
        idParcelle: plot.id,
        date,
        anneeRecolte: o.annee,
        idOperationCulturale: op.id,
        dicIdTypeAction: op.idTypeAction,
        idCultureConcernee: crop.id,
        debit: op.debit,
        realisee: !o.simulation,
        prevue: !!planned,
        frequence,
        tauxSurface,
        nombrePassage: Math.round(frequence * tauxSurface * 1000) / 1000,
        complementInfoTypeTravail: step.info ?? null,
        consoCarburant: op.conso,
        precisionStade: step.stade ?? null,
        libelleOperationSource: null,
        intituleEvenement: null,
      });
      count += 1;
      for (const input of step.inputs ?? []) {
        // ... and applies every other plant-protection product at 70 % of its dose.
        const used =
          o.simulation && input.kind === "phyto" ? { ...input, quantite: Math.round(input.quantite * REDUCTION_PHYTO_SIMULATION * 100) / 100 } : input;
        await insertInput(db, idAction, used, crop, { dossierInputs, cultureIds, idDossier: o.idDossier, catalogues });
      }
    }
  }
  return count;
}

async function insertInput(
  db: Db,
  idAction: number,
  input: Input,
  crop: { id: number; libelle: string },
  ctx: { dossierInputs: Map<string, number>; cultureIds: Map<string, number>; idDossier: number | null; catalogues: Catalogues },
): Promise<void> {
  const base = { idAction, codeTypeIntrant: null, idDossier: null as number | null, codeGnis: null, idCulture: null as number | null, idIntrantSemence: null };
  switch (input.kind) {
    case "semence": {
      const [speciesLabel, variety] = input.libelle.split(" – ");
      const idCulture = ctx.cultureIds.get(input.culture ?? speciesLabel) ?? crop.id;
      const reference = variety ? ctx.catalogues.semences.get(`${idCulture}|${variety}`) : undefined;
      const id = await insertId(db, "intrant", {
        ...base,
        idCategorie: 5381,
        idIntrant: reference?.id ?? null,
        libelleIntrant: input.libelle,
        codeIntrant: null,
        dicIdOrigineIntrant: ORIGINE_REFERENCE,
        codeGnis: reference?.codeGnis ?? null,
        idCulture,
        quantite: input.quantite,
        dicLlUnite: input.unite ?? "kg/ha",
      });
      await db("caracteristique_intrant").insert({ idIntrant: id, semenceFerme: input.ferme, semenceCertifiee: 100 - input.ferme, semenceOgm: 0 });
      return;
    }
    case "phyto":
      await insertId(db, "intrant", {
        ...base,
        idCategorie: input.categorie,
        idIntrant: ctx.catalogues.phytos.get(input.amm) ?? null,
        libelleIntrant: input.libelle,
        codeIntrant: input.amm,
        dicIdOrigineIntrant: ORIGINE_PRIX_PHYTO,
        quantite: input.quantite,
        dicLlUnite: input.unite,
      });
      return;
    case "ferti": {
      const folder = ctx.dossierInputs.get(input.libelle);
      const reference = ctx.catalogues.fertilisants.get(input.libelle);
      const id = await insertId(db, "intrant", {
        ...base,
        idCategorie: input.categorie,
        idIntrant: folder ?? reference ?? null,
        libelleIntrant: input.libelle,
        codeIntrant: null,
        dicIdOrigineIntrant: folder ? ORIGINE_DOSSIER : ORIGINE_REFERENCE,
        idDossier: folder ? ctx.idDossier : null,
        quantite: input.quantite,
        dicLlUnite: input.unite,
      });
      await db("caracteristique_intrant").insert({ idIntrant: id, ...input.compo });
      return;
    }
    case "eau":
      await insertId(db, "intrant", {
        ...base,
        idCategorie: 5421,
        idIntrant: EAU_ID_INTRANT,
        libelleIntrant: "Eau d'irrigation",
        codeIntrant: null,
        dicIdOrigineIntrant: ORIGINE_REFERENCE,
        quantite: input.mm,
        dicLlUnite: "mm",
      });
      return;
    case "autre":
      await insertId(db, "intrant", {
        ...base,
        idCategorie: input.categorie,
        idIntrant: null,
        libelleIntrant: input.libelle,
        codeIntrant: null,
        dicIdOrigineIntrant: ORIGINE_REFERENCE,
        quantite: input.quantite,
        dicLlUnite: "autre",
      });
      return;
  }
}

/**
 * The machines' annual use calculated from the interventions (utilisation_annuelle_calculee_p / _r, h/year):
 * Σ plot surface × passes / work rate of the operations each machine serves, planned and done apart.
 */
export async function updateCalculatedUse(db: Db, idCampagne: number): Promise<void> {
  const rows = await db("action as a")
    .join("parcelle as p", "p.id", "a.idParcelle")
    .join("operation_culturale as o", "o.id", "a.idOperationCulturale")
    .where("a.idCampagne", idCampagne)
    .select("a.idOperationCulturale", "a.realisee", "a.prevue", "a.nombrePassage", "a.debit", "p.surface", "o.idMaterielTractant");
  const towed = await db("operation_culturale_materiel as m")
    .join("operation_culturale as o", "o.id", "m.idOperationCulturale")
    .where("o.idCampagne", idCampagne)
    .select("m.idOperationCulturale", "m.idParcMateriel");
  const machinesOf = new Map<number, number[]>();
  for (const r of rows) {
    const list = [r.idMaterielTractant, ...towed.filter((t) => Number(t.idOperationCulturale) === Number(r.idOperationCulturale)).map((t) => t.idParcMateriel)];
    machinesOf.set(Number(r.idOperationCulturale), list.filter((x) => x != null).map(Number));
  }
  const hours = new Map<number, { p: number; r: number }>();
  for (const r of rows) {
    const debit = Number(r.debit);
    if (!(debit > 0)) continue;
    const h = (Number(r.surface) * Number(r.nombrePassage ?? 1)) / debit;
    for (const id of machinesOf.get(Number(r.idOperationCulturale)) ?? []) {
      const t = hours.get(id) ?? { p: 0, r: 0 };
      if (r.prevue === true || r.prevue === 1) t.p += h;
      if (r.realisee === true || r.realisee === 1) t.r += h;
      hours.set(id, t);
    }
  }
  for (const [id, t] of hours) {
    await db("parc_materiel")
      .where({ id })
      .update({
        utilisationAnnuelleCalculeeP: t.p ? Math.round(t.p * 100) / 100 : null,
        utilisationAnnuelleCalculeeR: t.r ? Math.round(t.r * 100) / 100 : null,
      });
  }
}
