import type { Element } from "~/domain/intrant";

/**
 * The AgroEDI Europe code lists (agency 312) the eDaplos writer uses, keyed by Sillon's own reference ids (decision
 * 0096). Sillon's reference lists carry no AEE code, so this table says, for each crop, kind of work, input category,
 * output type, harvest characteristic, fertiliser element and unit of the shipped lists, which code it is written
 * with. The code values are AgroEDI's (the v0.95 guide's annexes, as read in ../shared/research/daplos-and-edaplos.md
 * §1.3, §2.2 and §3, and the public transcription of the lists by osfarm/agroedei-edifact-daplos-reader, MIT); the
 * choice of code for each Sillon row is ours. `proche: true` marks a row whose code is the nearest one, not an exact
 * match: the writer logs it (niveau 1). A row absent from a table has no code: the writer logs it (niveau 2) and
 * leaves the code out, never inventing one. The importer reads the same tables the other way.
 */

export const AGENCE_AEE = { listAgencyID: "312", listAgencyName: "FR, AGRO EDI EUROPE" } as const;

export type CodeCulture = { espece: string; complement?: string; periode?: "ZFA" | "ZFB"; proche?: boolean };

/** culture.id → BotanicalSpeciesCode, SupplementaryBotanicalSpeciesCode (qualifier or destination), SowingPeriodCode. */
export const CULTURES: Readonly<Record<number, CodeCulture>> = {
  1: { espece: "ZAR", periode: "ZFB" }, // blé tendre d'hiver
  2: { espece: "ZAR", periode: "ZFA" },
  3: { espece: "ZAQ", periode: "ZFB" }, // blé dur d'hiver
  4: { espece: "ZDH", complement: "ZMU", periode: "ZFB" }, // escourgeon (6 rangs)
  5: { espece: "ZDH", complement: "ZMV", periode: "ZFA" }, // orge de printemps (2 rangs)
  6: { espece: "ZMI" },
  7: { espece: "ZAM", periode: "ZFB" },
  8: { espece: "ZEJ" },
  9: { espece: "ZBM" },
  10: { espece: "ZCS", complement: "ZLD" }, // maïs grain
  11: { espece: "ZCS", complement: "ZLF" }, // maïs fourrage
  12: { espece: "ZNE", complement: "ZLD" },
  13: { espece: "ZNE", complement: "ZLF" },
  14: { espece: "ZBE", complement: "ZES", periode: "ZFB" }, // colza oléagineux d'hiver
  15: { espece: "ZMB" },
  16: { espece: "ZEL" },
  17: { espece: "ZCL", complement: "ZES" },
  18: { espece: "ZCL", complement: "ZER" },
  19: { espece: "ZAZ" },
  20: { espece: "ZDO", periode: "ZFA" },
  21: { espece: "ZDO", periode: "ZFB" },
  22: { espece: "ZBT" },
  23: { espece: "ZCK" },
  24: { espece: "ZDQ" },
  25: { espece: "ZA2" },
  26: { espece: "ZDS" },
  27: { espece: "ZCQ" },
  28: { espece: "ZDU", complement: "ZLU" }, // prairie temporaire
  29: { espece: "ZDU", complement: "ZLT" }, // prairie permanente
  30: { espece: "ZDZ" },
  31: { espece: "ZMC" },
  32: { espece: "ZEH" },
  33: { espece: "ZDA" },
  34: { espece: "ZDL" },
  35: { espece: "ZDW" },
  36: { espece: "ZMK" },
  37: { espece: "ZAM", proche: true }, // avoine rude: the list has "avoine" only
  38: { espece: "ZME" },
  40: { espece: "ZNE", complement: "ZLF" },
  41: { espece: "ZDZ" },
  44: { espece: "ZBE", complement: "ZES", periode: "ZFA" },
  45: { espece: "ZDH", complement: "ZMV", periode: "ZFB" }, // orge de printemps semée à l'automne
  // 39 mélange d'interculture, 42 jachère (sown or not is not recorded), 43 interculture (a pseudo-crop): no code.
};

/** Event types (PV 48-50): ZG7 with an input, ZF7 harvest, ZF8 tillage, ZF9 other work. */
export const TYPE_EVENEMENT = { INTRANT: "ZG7", RECOLTE: "ZF7", TRAVAIL_SOL: "ZF8", AUTRE: "ZF9" } as const;
/** Planned or done (PV 51-53): ZK2 done (every real file); ZK1 planned (the research notes' inference). */
export const ETAT_EVENEMENT = { REALISE: "ZK2", PREVU: "ZK1" } as const;

export type CodeTravail = { travail: string; sol?: boolean; proche?: boolean };

/** type_action.id → work item (PerformedAgriculturalProcessWorkItem, PV 165-167); `sol`: a tillage (ZF8). */
export const TRAVAUX: Readonly<Record<number, CodeTravail>> = {
  1: { travail: "SEP", sol: true }, // labour
  2: { travail: "SEE", sol: true }, // déchaumage
  3: { travail: "SEF", sol: true }, // décompactage
  4: { travail: "SEN", sol: true, proche: true }, // préparation du sol (herse, cultivateur): hersage
  5: { travail: "SET" }, // semis combiné
  6: { travail: "SET" },
  7: { travail: "SEU" },
  8: { travail: "SEW" },
  9: { travail: "SES", sol: true },
  10: { travail: "SEB", sol: true, proche: true }, // désherbage mécanique: binage
  11: { travail: "SEX" },
  12: { travail: "SEM" },
  13: { travail: "SEK" },
  14: { travail: "SEO" },
  15: { travail: "SEQ" },
  16: { travail: "SEJ" },
  17: { travail: "SEA" },
  18: { travail: "SEL" },
  19: { travail: "SEL", proche: true }, // fauche, conditionnement et andainage combinés
  20: { travail: "W23" },
  21: { travail: "SEH" },
  22: { travail: "SFE" },
  23: { travail: "W24" },
  24: { travail: "SFK" },
  25: { travail: "SEM", proche: true }, // chaulage: no work item of its own
  26: { travail: "ZTC" }, // autre type de travail
};

export type CodeIntrant = { type: string; proche?: boolean };

/** categorie_intrant.id → input family (VI 47-49, UsedAgriculturalProcessCropInput/TypeCode). */
export const CATEGORIES_INTRANT: Readonly<Record<number, CodeIntrant>> = {
  5381: { type: "ZJF" },
  5382: { type: "ZJT" },
  5391: { type: "ZIU" },
  5392: { type: "ZIV" },
  5393: { type: "ZIW" },
  5394: { type: "ZJJ" },
  5395: { type: "ZIX" },
  5396: { type: "ZIZ" },
  5397: { type: "ZJG" },
  5398: { type: "ZQG" },
  655: { type: "ZJC" },
  656: { type: "ZJB", proche: true }, // produit organique liquide: lisier, but also digestat
  657: { type: "ZJB", proche: true }, // produit organique solide: fumier, but also compost
  658: { type: "ZKE" },
  5421: { type: "ZJE" },
  5422: { type: "ZJE" },
  5423: { type: "ZJE" },
  // 5399 autre phyto, 659 autre fertilisant, 5431-5434 other inputs (twine, film, preservative): no family.
};
/** The Identification of an irrigation input (VI 178-180). */
export const CODE_EAU = "EAU";
/** Seed qualifiers (VI 202-210): certified, farm-saved, GMO. */
export const QUALIFIANTS_SEMENCE = { certifiee: "ZQA", ferme: "ZQD", ogm: "ZQC" } as const;

/** Fertiliser components (IC 47-49) of Sillon's composition elements (caracteristique_intrant, in %). */
export const COMPOSANTS: Readonly<Record<Element, string>> = {
  n: "NT",
  p2o5: "PT",
  k2o: "KT",
  so3: "ST",
  mgo: "MT",
  cao: "CA",
  na2o: "SO",
  cu: "UT",
  mn: "GT",
  b: "BT",
  fe: "FT",
  mo: "LT",
  co: "OT",
};

/** Output type (type_sortie.id) → harvested produce type: ZJH main product, ZJI co-product (straw). 671 grazing: none. */
export const TYPES_SORTIE: Readonly<Record<number, string>> = {
  661: "ZJH",
  662: "ZJI",
  663: "ZJH",
  664: "ZJH",
  665: "ZJH",
  666: "ZJH",
  667: "ZJH",
  668: "ZJI",
  669: "ZJI",
  670: "ZJH",
};

/** Harvest characteristic (type_caracteristique_recolte.id) → lot characteristic (LC 47-49): 1 humidity ZJ4. */
export const CARACTERISTIQUES_RECOLTE: Readonly<Record<number, { code: string; libelle: string }>> = {
  1: { code: "ZJ4", libelle: "Humidité" },
};
/** The technical characteristic class of a harvested product (AAA13) and of an input (the spray volume T37). */
export const CARACTERISTIQUE_PRODUIT = "AAA13";
export const VOLUME_BOUILLIE = "T37";
/** Work rate of an intervention (hours per ha, AAA38). */
export const DEBIT_CHANTIER = "AAA38";
/** Surface types: the culture plot's area (A17), the worked area of an event (ABE02); irrigable plot (ABG12). */
export const SURFACE_PARCELLE = "A17";
export const SURFACE_TRAVAILLEE = "ABE02";
export const IRRIGABLE = "ABG12";

/** Per-hectare dose units → the unit code of AppliedSurfaceUnitValueMeasure (the sample's use: the dose per ha). */
export const UNITES_DOSE: Readonly<Record<string, string>> = {
  "l/ha": "LTR",
  "kg/ha": "KGM",
  "t/ha": "TNE",
  mm: "MMT",
  "m3/ha": "MTQ",
};
/** Yield units → EstimatedYieldMeasure in tonnes per ha (fresh or dry matter): its factor from the stored unit. */
export const UNITES_RENDEMENT: Readonly<Record<string, { code: string; facteur: number }>> = {
  "t/ha": { code: "TNE", facteur: 1 },
  "t MS/ha": { code: "TNE", facteur: 1 },
  "q/ha": { code: "TNE", facteur: 0.1 },
};
