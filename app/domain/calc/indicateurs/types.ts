/**
 * Input and output types of the indicator engine (issue 14; docs/indicators.md §7; decision 0044).
 *
 * The engine reads a plain "campaign snapshot" (InstantaneCampagne): plots, interventions with their
 * operation, inputs and harvests, prices and reference factors, all already resolved by a loader
 * (server side) from the database. It never reads the database itself: pure functions only.
 *
 * Every indicator comes out as an `Indicateur`: value, unit, completeness rate, the list of missing
 * data and an explanation (formula id of docs/indicators.md and the inputs that entered it).
 */

import type { Element } from "../../intrant";

export type Confiance = "H" | "M" | "L" | "M-H" | "M-L" | "L-M";

/** A reference factor: one row of reference data with its source, version and confidence. */
export type Facteur = {
  id: string;
  libelle: string;
  valeur: number;
  unite: string;
  source: string;
  version: string;
  confiance: Confiance;
};

// ---------------------------------------------------------------------------------------------
// Snapshot (what a loader fills)
// ---------------------------------------------------------------------------------------------

/** A reference dose of the official IFT list for (campaign, crop, product): per target, or for the crop (idCible null). */
export type DoseReference = {
  idCible: number | null;
  dose: number | null;
  /** Unit as in the IFT list: L/HA, KG/HA, L/HL, KG/HL, G/HA... ; "U0" or null = no usable dose. */
  unite: string | null;
  biocontrole?: boolean;
  /** IFT segment of the list's row (S1 seeds … S6 others, research §2.2); null or absent = by the input's category. */
  segment?: string | null;
};

/** An active substance of a phyto product: its concentration in the product. */
export type SubstanceActive = { libelle: string; concentration: number | null; unite: "g/L" | "g/kg" | "%" | string | null };

/** IFT family of the input category (categorie_intrant.famille_ift); null = not counted (rodenticides…). */
export type FamilleIft = "H" | "F" | "I" | "A" | "TS";

type IntrantCommun = {
  id: number;
  libelle: string;
  /** Dose per hectare treated, in `unite`. */
  dose: number | null;
  unite: string | null;
  /** Key of its supply price in the price sets (built by the loader from origin, product and unit); null = none. */
  clePrix?: string | null;
  /** Input category (its type); explicitly null when the input has none (pre-check, spec 3 §5). */
  idCategorie?: number | null;
};

export type IntrantPhyto = IntrantCommun & {
  type: "phyto";
  amm?: string | null;
  /** IFT family of its category; TS = seed treatment. */
  famille: FamilleIft | null;
  /** Product flagged biocontrôle in the catalogue. */
  biocontrole: boolean;
  /** Targets in rank order, the first being the main one. */
  cibles: number[];
  /** Reference doses of the campaign's list for this product and the plot's crop. */
  dosesReference: DoseReference[];
  /** Spray volume, L/ha (needed for per-hectolitre units): the operation's. */
  volumeBouillie?: number | null;
  /** Harvest year of the reference-dose list read, when it is not the campaign's (nearest published list; decision 0085). */
  anneeListeIft?: number | null;
  substances?: SubstanceActive[];
};

export type IntrantFertilisant = IntrantCommun & {
  type: "fertilisant";
  nature: "mineral" | "organique";
  /** Composition, % of the product (fresh mass). */
  composition: Partial<Record<Element, number | null>> | null;
  /** Density, kg/L, for products dosed in l/ha. */
  densite?: number | null;
  /** Form of the mineral N (for the manufacturing factors): ammonitrate, urée, solution azotée. */
  formeAzote?: "ammonitrate" | "uree" | "solution" | null;
  /** Where the form comes from: "catalogue:UREE", "dossier:…" (assigned category), "libelle:…" or "composition:…" (classified). */
  sourceFormeAzote?: string | null;
  /** Liming product (for the CO2 of liming): calcaire or dolomie. */
  amendement?: "calcaire" | "dolomie" | null;
};

export type IntrantSemence = IntrantCommun & {
  type: "semence";
  /** Emission coefficient of the seed, kg CO2e/kg (spec 3 §5 "seed emission coefficient"). */
  coefficientEmission?: number | null;
};

export type IntrantEau = IntrantCommun & { type: "eau" };
export type IntrantAutre = IntrantCommun & { type: "autre" };

export type IntrantCampagne = IntrantPhyto | IntrantFertilisant | IntrantSemence | IntrantEau | IntrantAutre;

export type RecolteCampagne = {
  id: number;
  idCulture: number | null;
  libelle?: string;
  /** Yield in `unite` (t/ha, q/ha, kg/ha; jours for grazing). */
  rendement: number | null;
  unite: string;
  pature?: boolean;
  /** The main product of the plot (the cost of production divides by its yield); the loader marks it. */
  principale?: boolean;
  clePrix?: string | null;
  /** N content of the harvested product, kg N per t (COMIFER/Arvalis tables, research §7). */
  teneurAzote?: number | null;
  /** The N content's unit and source (reference table teneur_azote_produit). */
  sourceTeneurAzote?: string | null;
};

export type OperationCampagne = {
  id: number;
  libelle: string;
  /** Machines involved (tractor or towed equipment): its time is mechanised, otherwise manual. */
  mecanisee: boolean;
  /** Contractor (ETA): its price includes labour (and fuel). */
  eta: boolean;
  /** Number of people on the work site; 1 when empty. */
  nbPersonnes?: number | null;
  /** Effective work rate, ha/h (operation.ts effectiveWorkRate). */
  debit: number | null;
  /** Effective fuel use, L/ha (operation.ts effectiveFuelUse). */
  consoCarburant: number | null;
  /** Mechanisation charges per pass, €/ha, fuel included (operation.ts chargesMecaTotales). */
  chargesMecanisation: number | null;
  /** Machines of the operation (tractor and towed equipment) with their mass (kg) and wear life (h), for their embodied energy. */
  materiels?: Array<{ id: number; libelle: string; poids: number | null; usure: number | null }>;
  /** Irrigation operation type and its irrigation rate, m3/h (pre-check). */
  irrigation?: boolean;
  debitIrrigation?: number | null;
};

export type InterventionCampagne = {
  id: number;
  idParcelle: number;
  /** yyyy-mm-dd. */
  date: string;
  libelle?: string;
  realisee: boolean;
  prevue: boolean;
  frequence: number | null;
  tauxSurface: number | null;
  /** The intervention's own work rate (ha/h), when it differs from the operation's. */
  debit?: number | null;
  /** The intervention's own fuel use (L/ha, actionTauxPassage.consoCarburant). */
  consoCarburant?: number | null;
  operation: OperationCampagne | null;
  /** The crop the intervention concerns; explicitly null when undefined (pre-check). */
  idCultureConcernee?: number | null;
  intrants: IntrantCampagne[];
  recoltes: RecolteCampagne[];
};

export type ParcelleCampagne = {
  id: number;
  libelle: string;
  /** ha. */
  surface: number | null;
  idCulture: number | null;
  libelleCulture?: string;
  idModeConduite: number | null;
  libelleModeConduite?: string;
  /** Symbiotic N fixation, kg N/ha (legumes), when known. */
  fixationAzote?: number | null;
  /** N returned by the crop residues, kg N/ha (IPCC F_CR), when known: enters the field N2O. */
  azoteResidus?: number | null;
};

/** A unit price: value in € per the unit (€/kg, €/L, €/t, €/m3…). */
export type Prix = { valeur: number; unite: string; id?: number | string; libelle?: string; source?: string };

/** A set of prices: supply prices by input key, sale prices by harvest key. */
export type JeuPrix = { appro: Record<string, Prix>; vente: Record<string, Prix> };

export type InstantaneCampagne = {
  idCampagne: number;
  anneeRecolte: number;
  exploitation: {
    id: number;
    libelle?: string;
    /** Diverse costs per farm, € (spec 3 §9 default 4,600) and per ha (default 45). */
    chargesDiversesExploitation?: number | null;
    chargesDiversesHa?: number | null;
    /** Land rent, €/ha (spec 3 §9 default 100). */
    fermageHa?: number | null;
  };
  parcelles: ParcelleCampagne[];
  interventions: InterventionCampagne[];
  /** Real prices (user's) and, where the data has them, reference prices. */
  prix: { reel: JeuPrix; reference?: JeuPrix | null };
  /** Labour cost, €/h. */
  tauxHoraireMainOeuvre?: number | null;
  /** Factors that replace the defaults of facteurs.ts, by id. */
  facteurs?: Record<string, Facteur>;
};

export type OptionsCalcul = {
  /** Which interventions count: done ones (default) or planned ones (simulation). */
  realisation?: "realisee" | "prevue";
  /** GWP set for CO2e (decision 0046): AR6 by default. */
  prg?: "AR4" | "AR5" | "AR6";
  /** Climate for N2O leaching: humide (default, leaching counted) or sec (none). */
  climat?: "humide" | "sec";
  /** Whether "IFT hors herbicides" includes seed treatments (MAEC/HVE schemes differ; default false). */
  horsHerbicidesAvecTS?: boolean;
};

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

export type ObjetDonnee = "parcelle" | "intervention" | "operation" | "intrant" | "recolte" | "prix" | "facteur" | "exploitation";

/** What an explanation entry points at: a datum, or another indicator of the same level (its id is the code). */
export type ObjetEntree = ObjetDonnee | "indicateur";

/** A missing datum: which object, which field (a code a screen can translate and link to). */
export type Manquant = { objet: ObjetDonnee; id: number | string; champ: string; libelle?: string };

/** One input of a figure: an intervention, an input, a price, a factor, a plot… with its value. */
export type Entree = {
  objet: ObjetEntree;
  id: number | string;
  libelle?: string;
  valeur?: number;
  unite?: string;
  /** What it added to the figure, in the indicator's unit. */
  contribution?: number;
  /** For factors and prices. */
  source?: string;
  version?: string;
  confiance?: Confiance;
  /** The intervention it came from (inputs, harvests), and its date. */
  idIntervention?: number;
  date?: string;
  /**
   * A treatment's IFT: how its reference dose was found (the target's row, the crop's, a seed treatment, or none: one
   * dose), the dose and unit, and the harvest year of the list read when it is not the campaign's. The screen words it.
   */
  doseReference?: { methode: "semences" | "cible" | "culture" | "defaut"; dose: number | null; unite: string | null; annee: number | null };
};

export type Explication = {
  /** Formula id: the section of docs/indicators.md (e.g. "7.3"). */
  formule: string;
  entrees: Entree[];
  /** Choices made on the way (default dose, assumed density…), as codes. */
  remarques?: string[];
};

export type Indicateur = {
  code: string;
  valeur: number | null;
  unite: string;
  /** Completeness rate, % (0–100): 100 × (expected − missing) / expected; 100 when nothing is expected. */
  completude: number;
  /** Number of data items the figure needed. */
  attendus: number;
  manquants: Manquant[];
  explication: Explication;
};

export type Indicateurs = Record<string, Indicateur>;
