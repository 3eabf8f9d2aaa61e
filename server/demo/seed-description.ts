import type { Knex } from "knex";
import type { Db } from "../db/knex";
import { calculatedWorkRate, effectiveWorkRate, fuelUseReference, roundFuel, roundOrNull } from "~/domain/calc/operation";
import { TYPE_PROPRIETE } from "~/domain/calc/materiel";
import { listCoefficientsConsoCarburant, listTypesAction, replaceLinks } from "../operation-culturale/repo";
import { findCategorie, findReference, insertParcMateriel, listParcMateriels } from "../parc-materiel/repo";
import { returnedId } from "../db/insert-id";

/**
 * Demo farm description (issue 11, "demo data that shows the product working"): for each demo farm its
 * coordinates, description and soil; and for each of its campaigns the economic characteristics, the labour,
 * the machinery fleet and the cultural operations that link machines and labour. Machines take their figures
 * from their reference (seeds/reference/reference-materiel.json, by fixed id) as the machinery form does;
 * operations get their calculated work rate and fuel reference from the same functions as the service
 * (server/operation-culturale/service.ts). Figures are plausible French ones (sources in the comments).
 */

type Coordonnees = {
  raisonSociale: string;
  siret: string;
  nom: string;
  prenom: string;
  adresse: string;
  libelleDepartement: string;
  ville: string;
  codeInsee: string;
  codePostal: string;
  email: string;
  portable: string;
  telephone: string;
  fax?: string;
};
/**
 * The small agricultural region is the Agreste name: the reference regions hold no small regions yet, and while
 * that list is empty the description screen takes any text (server/exploitation-description/service.ts).
 */
type Description = { bassin: string; petiteRegionAgricole: string; idOtex: number; idTypeAgriculture: number; strategie: string; remarque: string };
type Sol = {
  idTypeSolArvalis: number;
  idAeeTypeSol: number;
  profondeurSolCm: number;
  reserveUtileMm: number;
  idTypeSousSol: number;
  idAciditeSol: number;
  idProfondeurSol: number;
};
type Economie = {
  cotisationMsa: number;
  fermageMoyen: number;
  chargesDiverses: number;
  aidesDecouplees: number;
  courtTermeSomme: number;
  courtTermeTaux: number;
  courtTermeDuree: number;
  longTermeTaux: number;
  longTermeDuree: number;
  longTermeIvan: number;
  remunerationCapitauxPropreTaux: number;
  remunerationCapitauxPropreIvan: number;
  prixFioul: number;
  remarqueAnnuelle: string;
};
export type DemoMachine = {
  key: string;
  libelle: string;
  reference: number;
  propriete?: 0 | 1 | 2;
  copropriete?: number;
  neuf?: boolean;
  ageAchat?: number;
  /** Price paid, € (default: the reference's new price, less 35 % when bought used). */
  prixAchat?: number;
  utilisationAnnuelle?: number;
  coutLocation?: number;
  typePompe?: "g" | "e";
  remarque?: string;
};
export type DemoWorker = { key: string; libelle: string; uta: number; type: 951 | 952 | 953; montant?: number; remarque?: string };
export type DemoOperation = {
  key: string;
  libelle: string;
  type: number;
  tracteur?: string;
  outils?: string[];
  mo?: string[];
  eta?: boolean;
  profondeur?: number;
  debitReel?: number;
  consoReelle?: number;
  debitIrrigation?: number;
  volumeBouillie?: number;
  proportion?: number;
  remarque?: string;
};
export type DemoFarmDescription = {
  coordonnees: Coordonnees;
  description: Description;
  sol: Sol;
  economie: Record<number, Economie>;
  machines: DemoMachine[];
  workers: DemoWorker[];
  operations: DemoOperation[];
};

/** Reference values (seeds/reference/reference-valeur.json): €/UTH/year norms of family (index 2) and salaried (index 3) labour. */
const NORME_FAMILIALE = 43_243.2;
const NORME_SALARIEE = 21_621.6;

// ---------------------------------------------------------------------------------------------------------------
// EARL des Tilleuls: cereals, oilseed rape, sugar beet and peas in the Beauce chartraine (Eure-et-Loir),
// deep loam on chalk, part irrigated from the farm's borehole.

const TILLEULS_MACHINES: DemoMachine[] = [
  { key: "t180", libelle: "Fendt 718 Vario", reference: 103, ageAchat: 2, neuf: false, prixAchat: 118_000, utilisationAnnuelle: 520 },
  {
    key: "t100",
    libelle: "Renault Ares 610",
    reference: 101,
    ageAchat: 0,
    neuf: true,
    utilisationAnnuelle: 380,
    remarque: "Tracteur de pulvérisation et d'épandage",
  },
  { key: "charrue", libelle: "Charrue Kverneland 5 corps", reference: 301, ageAchat: 4, neuf: false, prixAchat: 15_000 },
  { key: "disques", libelle: "Déchaumeur Väderstad Carrier 4 m", reference: 501 },
  { key: "combine-semis", libelle: "Combiné herse rotative et semoir Kuhn 3 m", reference: 1101 },
  {
    key: "monograine",
    libelle: "Semoir monograine 6 rangs de la Cuma",
    reference: 1103,
    propriete: TYPE_PROPRIETE.CUMA,
    coutLocation: 28,
    remarque: "Cuma de Sours, facturé 28 €/ha",
  },
  { key: "rouleau", libelle: "Rouleau Cambridge 6 m", reference: 701, ageAchat: 8, neuf: false, prixAchat: 4_000 },
  { key: "pulve", libelle: "Pulvérisateur traîné Berthoud 24 m", reference: 902, utilisationAnnuelle: 900 },
  { key: "distributeur", libelle: "Distributeur d'engrais Amazone ZA-TS 24 m", reference: 1601 },
  {
    key: "moissonneuse",
    libelle: "Moissonneuse-batteuse Claas Lexion (en copropriété)",
    reference: 1201,
    copropriete: 50,
    ageAchat: 3,
    neuf: false,
    prixAchat: 240_000,
    remarque: "Copropriété à 50 % avec l'EARL voisine",
  },
  { key: "motopompe", libelle: "Motopompe diesel du forage", reference: 1701, typePompe: "g", utilisationAnnuelle: 350 },
  { key: "enrouleur", libelle: "Enrouleur Irrifrance 110 mm", reference: 1801, utilisationAnnuelle: 350 },
  { key: "benne", libelle: "Remorque benne 14 t", reference: 2001, ageAchat: 6, neuf: false, prixAchat: 12_000 },
];

const TILLEULS_WORKERS: DemoWorker[] = [
  { key: "exploitant", libelle: "Jean-Marc Rousseau (gérant)", uta: 1, type: 953, montant: 38_000 },
  {
    key: "conjointe",
    libelle: "Sophie Rousseau (conjointe collaboratrice)",
    uta: 0.3,
    type: 953,
    montant: 9_000,
    remarque: "Administratif et commercialisation",
  },
  { key: "saisonnier", libelle: "Salarié saisonnier (moisson et arrachage)", uta: 0.2, type: 952, montant: 5_200 },
];

const TILLEULS_OPERATIONS: DemoOperation[] = [
  { key: "dechaumage", libelle: "Déchaumage aux disques", type: 2, tracteur: "t180", outils: ["disques"], mo: ["exploitant"], profondeur: 10 },
  { key: "labour", libelle: "Labour avant betterave", type: 1, tracteur: "t180", outils: ["charrue"], mo: ["exploitant"], profondeur: 25 },
  { key: "semis", libelle: "Semis combiné céréales et colza", type: 5, tracteur: "t180", outils: ["combine-semis"], mo: ["exploitant"], profondeur: 5 },
  { key: "semis-mono", libelle: "Semis monograine betterave", type: 6, tracteur: "t100", outils: ["monograine"], mo: ["exploitant"] },
  { key: "roulage", libelle: "Roulage", type: 9, tracteur: "t100", outils: ["rouleau"], mo: ["saisonnier"] },
  { key: "pulve", libelle: "Pulvérisation", type: 11, tracteur: "t100", outils: ["pulve"], mo: ["exploitant"], volumeBouillie: 100 },
  { key: "engrais", libelle: "Épandage d'engrais minéral", type: 12, tracteur: "t100", outils: ["distributeur"], mo: ["exploitant"] },
  {
    key: "irrigation",
    libelle: "Irrigation à l'enrouleur",
    type: 14,
    tracteur: "motopompe",
    outils: ["enrouleur"],
    mo: ["exploitant"],
    debitIrrigation: 35,
    debitReel: 0.12,
    consoReelle: 22,
    remarque: "Tour d'eau de 30 mm",
  },
  { key: "moisson", libelle: "Moisson", type: 15, tracteur: "moissonneuse", mo: ["exploitant", "saisonnier"] },
  { key: "transport", libelle: "Transport du grain au silo", type: 23, tracteur: "t180", outils: ["benne"], mo: ["conjointe"], debitReel: 2.5 },
  {
    key: "arrachage",
    libelle: "Arrachage des betteraves par l'ETA",
    type: 17,
    eta: true,
    debitReel: 1.1,
    consoReelle: 28,
    remarque: "Intégrale 6 rangs de l'entreprise de travaux agricoles",
  },
];

const TILLEULS: DemoFarmDescription = {
  coordonnees: {
    raisonSociale: "EARL des Tilleuls",
    siret: "81234567800013",
    nom: "Rousseau",
    prenom: "Jean-Marc",
    adresse: "4 rue des Tilleuls\nHameau de Mousseaux",
    libelleDepartement: "Eure-et-Loir",
    ville: "Sours",
    codeInsee: "28380",
    codePostal: "28630",
    email: "earl.tilleuls@sillon.example",
    portable: "06 12 34 56 78",
    telephone: "02 37 25 14 08",
    fax: "02 37 25 14 09",
  },
  description: {
    bassin: "SEINE-NORMANDIE",
    petiteRegionAgricole: "Beauce chartraine",
    idOtex: 15,
    idTypeAgriculture: 1,
    strategie:
      "Allonger la rotation (colza, blé, orge de printemps, betterave, pois) pour réduire les herbicides ; couverts d'interculture avant les cultures de printemps ; irrigation réservée à la betterave et aux céréales en année sèche.",
    remarque:
      "Limons profonds sur craie de la Beauce chartraine. Forage de 45 m (autorisation de prélèvement de 60 000 m³ par an). Livre le grain à la coopérative de Chartres et les betteraves à la sucrerie de Toury.",
  },
  // Deep loam on chalk (Beauce): ARVALIS "Limon profond", AEE "Limon moyen", RU about 200 mm.
  sol: { idTypeSolArvalis: 1, idAeeTypeSol: 8, profondeurSolCm: 120, reserveUtileMm: 200, idTypeSousSol: 2, idAciditeSol: 3, idProfondeurSol: 4 },
  economie: {
    2024: {
      cotisationMsa: 9_800,
      fermageMoyen: 175,
      chargesDiverses: 12_400,
      aidesDecouplees: 16_500,
      courtTermeSomme: 25_000,
      courtTermeTaux: 5.2,
      courtTermeDuree: 1,
      longTermeTaux: 3.8,
      longTermeDuree: 7,
      longTermeIvan: 50,
      remunerationCapitauxPropreTaux: 2,
      remunerationCapitauxPropreIvan: 50,
      prixFioul: 1.12,
      remarqueAnnuelle: "Automne 2023 et printemps 2024 très pluvieux : semis de blé tardifs, maladies fortes, rendements en blé en net recul (6,9 t/ha).",
    },
    2025: {
      cotisationMsa: 10_200,
      fermageMoyen: 178,
      chargesDiverses: 12_800,
      aidesDecouplees: 16_100,
      courtTermeSomme: 30_000,
      courtTermeTaux: 4.6,
      courtTermeDuree: 1,
      longTermeTaux: 3.5,
      longTermeDuree: 7,
      longTermeIvan: 50,
      remunerationCapitauxPropreTaux: 2,
      remunerationCapitauxPropreIvan: 50,
      prixFioul: 0.98,
      remarqueAnnuelle: "Printemps sec et chaud : bons rendements en blé et en colza, deux tours d'eau de plus sur les parcelles irrigables.",
    },
  },
  machines: TILLEULS_MACHINES,
  workers: TILLEULS_WORKERS,
  operations: TILLEULS_OPERATIONS,
};

// ---------------------------------------------------------------------------------------------------------------
// GAEC du Moulin: two partners and an employee near Voves (Eure-et-Loir), cereals, rapeseed and grain maize.

const MOULIN_MACHINES: DemoMachine[] = [
  { key: "t215", libelle: "John Deere 6215R", reference: 104, ageAchat: 1, neuf: true, utilisationAnnuelle: 650 },
  { key: "t150", libelle: "Massey Ferguson 7S.155", reference: 102, ageAchat: 5, neuf: false, prixAchat: 78_000, utilisationAnnuelle: 480 },
  { key: "charrue", libelle: "Charrue semi-portée Lemken 7 corps", reference: 302 },
  { key: "decompacteur", libelle: "Décompacteur 3 m", reference: 402, ageAchat: 6, neuf: false, prixAchat: 9_000 },
  { key: "dechaumeur", libelle: "Déchaumeur à dents Horsch Terrano 4,50 m", reference: 401 },
  { key: "combine-semis", libelle: "Combiné de semis Horsch 6 m", reference: 1102 },
  { key: "monograine", libelle: "Semoir monograine Kuhn Maxima 6 rangs", reference: 1103 },
  {
    key: "automoteur",
    libelle: "Pulvérisateur automoteur de la Cuma 36 m",
    reference: 801,
    propriete: TYPE_PROPRIETE.CUMA,
    coutLocation: 14,
    remarque: "Cuma de la Beauce vovéenne, 14 €/ha avec chauffeur du GAEC",
  },
  { key: "distributeur", libelle: "Distributeur d'engrais 24 m", reference: 1601 },
  {
    key: "moissonneuse",
    libelle: "Moissonneuse-batteuse New Holland CX 6 m",
    reference: 1201,
    ageAchat: 4,
    neuf: false,
    prixAchat: 210_000,
    utilisationAnnuelle: 180,
  },
  { key: "broyeur", libelle: "Broyeur de cannes 4,60 m", reference: 2101 },
  { key: "benne", libelle: "Remorque benne 14 t", reference: 2001 },
];

const MOULIN_WORKERS: DemoWorker[] = [
  { key: "associe1", libelle: "Philippe Lemoine (associé)", uta: 1, type: 953, montant: 36_000 },
  { key: "associe2", libelle: "Nicolas Lemoine (associé)", uta: 1, type: 953, montant: 36_000 },
  { key: "salarie", libelle: "Kevin Duval (salarié permanent)", uta: 1, type: 951, montant: 34_500, remarque: "CDI, tractoriste" },
  { key: "saisonnier", libelle: "Chauffeur saisonnier de moisson", uta: 0.15, type: 952, montant: 4_100 },
];

const MOULIN_OPERATIONS: DemoOperation[] = [
  { key: "dechaumage", libelle: "Déchaumage", type: 2, tracteur: "t215", outils: ["dechaumeur"], mo: ["salarie"], profondeur: 10 },
  { key: "decompactage", libelle: "Décompactage avant maïs", type: 3, tracteur: "t215", outils: ["decompacteur"], mo: ["associe1"], profondeur: 30 },
  { key: "labour", libelle: "Labour", type: 1, tracteur: "t215", outils: ["charrue"], mo: ["salarie"], profondeur: 25 },
  { key: "semis", libelle: "Semis combiné", type: 5, tracteur: "t215", outils: ["combine-semis"], mo: ["associe1"], profondeur: 5 },
  { key: "semis-mono", libelle: "Semis monograine maïs", type: 6, tracteur: "t150", outils: ["monograine"], mo: ["associe1"] },
  { key: "pulve", libelle: "Pulvérisation (automoteur Cuma)", type: 11, tracteur: "automoteur", mo: ["associe2"], volumeBouillie: 80 },
  { key: "engrais", libelle: "Épandage d'engrais", type: 12, tracteur: "t150", outils: ["distributeur"], mo: ["salarie"] },
  { key: "moisson", libelle: "Moisson", type: 15, tracteur: "moissonneuse", mo: ["associe2", "saisonnier"] },
  { key: "transport", libelle: "Transport de récolte", type: 23, tracteur: "t150", outils: ["benne"], mo: ["salarie"], debitReel: 2.5 },
  { key: "broyage", libelle: "Broyage des cannes de maïs", type: 24, tracteur: "t215", outils: ["broyeur"], mo: ["salarie"] },
];

const MOULIN: DemoFarmDescription = {
  coordonnees: {
    raisonSociale: "GAEC du Moulin",
    siret: "82345678900010",
    nom: "Lemoine",
    prenom: "Philippe",
    adresse: "Ferme du Moulin\nRoute d'Ouarville",
    libelleDepartement: "Eure-et-Loir",
    ville: "Les Villages Vovéens",
    codeInsee: "28422",
    codePostal: "28150",
    email: "gaec.moulin@sillon.example",
    portable: "07 81 22 45 90",
    telephone: "02 37 99 12 30",
  },
  description: {
    bassin: "SEINE-NORMANDIE",
    petiteRegionAgricole: "Beauce",
    idOtex: 15,
    idTypeAgriculture: 1,
    strategie: "Réduire le travail du sol profond (labour seulement avant maïs), allonger les intercultures, moduler l'azote avec les images satellite.",
    remarque: "GAEC père-fils avec un salarié. Matériel de pulvérisation partagé en Cuma. Terres limoneuses hydromorphes drainées autour de Voves.",
  },
  sol: { idTypeSolArvalis: 2, idAeeTypeSol: 10, profondeurSolCm: 80, reserveUtileMm: 150, idTypeSousSol: 5, idAciditeSol: 2, idProfondeurSol: 3 },
  economie: {
    2024: {
      cotisationMsa: 18_500,
      fermageMoyen: 190,
      chargesDiverses: 15_600,
      aidesDecouplees: 12_800,
      courtTermeSomme: 40_000,
      courtTermeTaux: 5.5,
      courtTermeDuree: 1,
      longTermeTaux: 4,
      longTermeDuree: 10,
      longTermeIvan: 60,
      remunerationCapitauxPropreTaux: 2.5,
      remunerationCapitauxPropreIvan: 50,
      prixFioul: 1.1,
      remarqueAnnuelle: "Année humide : maïs semé fin mai, séchage coûteux.",
    },
    2025: {
      cotisationMsa: 19_000,
      fermageMoyen: 192,
      chargesDiverses: 16_000,
      aidesDecouplees: 12_500,
      courtTermeSomme: 35_000,
      courtTermeTaux: 4.8,
      courtTermeDuree: 1,
      longTermeTaux: 3.6,
      longTermeDuree: 10,
      longTermeIvan: 60,
      remunerationCapitauxPropreTaux: 2.5,
      remunerationCapitauxPropreIvan: 50,
      prixFioul: 0.97,
      remarqueAnnuelle: "Bonne année en céréales ; maïs pénalisé par la sécheresse de juillet.",
    },
  },
  machines: MOULIN_MACHINES,
  workers: MOULIN_WORKERS,
  operations: MOULIN_OPERATIONS,
};

// ---------------------------------------------------------------------------------------------------------------
// Ferme de la Vallée: a typical mixed dairy farm of the Mayenne bocage (60 cows), grass, maize silage and wheat.

const VALLEE_MACHINES: DemoMachine[] = [
  { key: "t150", libelle: "Claas Arion 550", reference: 102, ageAchat: 3, neuf: false, prixAchat: 92_000, utilisationAnnuelle: 620 },
  {
    key: "t100",
    libelle: "Deutz-Fahr 5105",
    reference: 101,
    ageAchat: 9,
    neuf: false,
    prixAchat: 38_000,
    utilisationAnnuelle: 700,
    remarque: "Tracteur de cour, distribution de l'alimentation",
  },
  { key: "telescopique", libelle: "Chargeur télescopique Manitou MLT 737", reference: 201, ageAchat: 2, neuf: true, utilisationAnnuelle: 600 },
  { key: "charrue", libelle: "Charrue 5 corps", reference: 301, ageAchat: 12, neuf: false, prixAchat: 8_000 },
  { key: "herse", libelle: "Herse rotative 3 m", reference: 601 },
  { key: "semoir", libelle: "Semoir mécanique 3 m", reference: 1105, ageAchat: 10, neuf: false, prixAchat: 5_000 },
  { key: "monograine", libelle: "Semoir monograine de la Cuma", reference: 1103, propriete: TYPE_PROPRIETE.CUMA, coutLocation: 26 },
  { key: "pulve", libelle: "Pulvérisateur porté 18 m", reference: 901 },
  { key: "distributeur", libelle: "Distributeur d'engrais 24 m", reference: 1601 },
  { key: "epandeur", libelle: "Épandeur à fumier 12 t", reference: 1901 },
  {
    key: "tonne",
    libelle: "Tonne à lisier 12 m³ à pendillards (Cuma)",
    reference: 1902,
    propriete: TYPE_PROPRIETE.CUMA,
    coutLocation: 3.5,
    remarque: "3,50 € par m³ épandu",
  },
  { key: "faucheuse", libelle: "Faucheuse à disques 2,80 m", reference: 1401 },
  { key: "faneuse", libelle: "Faneuse 7,70 m", reference: 1403 },
  { key: "andaineur", libelle: "Andaineur 7 m", reference: 1404 },
  { key: "presse", libelle: "Presse à balles rondes", reference: 1501, ageAchat: 5, neuf: false, prixAchat: 24_000 },
  {
    key: "ensileuse",
    libelle: "Ensileuse automotrice de l'ETA",
    reference: 1301,
    propriete: TYPE_PROPRIETE.ETA,
    coutLocation: 195,
    remarque: "Chantier complet facturé 195 €/ha",
  },
];

const VALLEE_WORKERS: DemoWorker[] = [
  { key: "associe1", libelle: "Marie Gautier (associée)", uta: 1, type: 953, montant: 30_000 },
  { key: "associe2", libelle: "Thomas Gautier (associé)", uta: 1, type: 953, montant: 30_000 },
  { key: "salarie", libelle: "Salarié de groupement d'employeurs", uta: 0.5, type: 951, montant: 17_800, remarque: "Traite du week-end et travaux des champs" },
  { key: "apprenti", libelle: "Apprenti BTS ACSE", uta: 0.4, type: 952, montant: 6_300 },
];

const VALLEE_OPERATIONS: DemoOperation[] = [
  { key: "labour", libelle: "Labour", type: 1, tracteur: "t150", outils: ["charrue"], mo: ["associe2"], profondeur: 25 },
  { key: "preparation", libelle: "Préparation à la herse rotative", type: 4, tracteur: "t150", outils: ["herse"], mo: ["associe2"], profondeur: 10 },
  { key: "semis", libelle: "Semis céréales et prairies", type: 6, tracteur: "t100", outils: ["semoir"], mo: ["associe2"] },
  { key: "semis-mono", libelle: "Semis maïs (Cuma)", type: 6, tracteur: "t150", outils: ["monograine"], mo: ["associe2"] },
  { key: "pulve", libelle: "Pulvérisation", type: 11, tracteur: "t100", outils: ["pulve"], mo: ["associe2"], volumeBouillie: 150 },
  { key: "engrais", libelle: "Épandage d'engrais", type: 12, tracteur: "t100", outils: ["distributeur"], mo: ["apprenti"] },
  { key: "fumier", libelle: "Épandage de fumier", type: 13, tracteur: "t150", outils: ["epandeur"], mo: ["salarie"] },
  { key: "lisier", libelle: "Épandage de lisier (Cuma)", type: 13, tracteur: "t150", outils: ["tonne"], mo: ["salarie"] },
  { key: "fauche", libelle: "Fauche", type: 18, tracteur: "t100", outils: ["faucheuse"], mo: ["associe1"] },
  { key: "fanage", libelle: "Fanage", type: 20, tracteur: "t100", outils: ["faneuse"], mo: ["apprenti"] },
  { key: "andainage", libelle: "Andainage", type: 21, tracteur: "t100", outils: ["andaineur"], mo: ["apprenti"] },
  // No fuel reference for baling: 150 ch at 40 % load, 0.28 L/kWh, 2 ha/h ≈ 6 L/ha (power method of reference-conso-carburant.json).
  { key: "pressage", libelle: "Pressage en balles rondes", type: 22, tracteur: "t150", outils: ["presse"], mo: ["associe1"], consoReelle: 6.2 },
  {
    key: "ensilage",
    libelle: "Ensilage du maïs (ETA)",
    type: 16,
    eta: true,
    debitReel: 1.6,
    consoReelle: 34,
    remarque: "Ensileuse et tassage du silo par l'ETA",
  },
  { key: "moisson", libelle: "Moisson (ETA)", type: 15, eta: true, debitReel: 2.2, consoReelle: 16 },
];

const VALLEE: DemoFarmDescription = {
  coordonnees: {
    raisonSociale: "GAEC de la Vallée",
    siret: "83456789000019",
    nom: "Gautier",
    prenom: "Marie",
    adresse: "La Vallée",
    libelleDepartement: "Mayenne",
    ville: "Ernée",
    codeInsee: "53096",
    codePostal: "53500",
    email: "gaec.vallee@sillon.example",
    portable: "06 45 78 12 33",
    telephone: "02 43 05 61 20",
  },
  description: {
    bassin: "LOIRE-BRETAGNE",
    petiteRegionAgricole: "Bocage mayennais",
    idOtex: 45,
    idTypeAgriculture: 1,
    strategie:
      "Autonomie fourragère : allonger le pâturage des prairies temporaires multi-espèces, limiter le maïs ensilage à un tiers de la surface fourragère et valoriser les effluents pour réduire l'azote minéral.",
    remarque: "60 vaches Prim'Holstein, 520 000 L livrés à la laiterie. Sols limoneux sur schiste, parcellaire groupé autour du siège, haies bocagères.",
  },
  sol: { idTypeSolArvalis: 13, idAeeTypeSol: 5, profondeurSolCm: 60, reserveUtileMm: 110, idTypeSousSol: 9, idAciditeSol: 2, idProfondeurSol: 2 },
  economie: {
    2024: {
      cotisationMsa: 14_200,
      fermageMoyen: 135,
      chargesDiverses: 21_000,
      aidesDecouplees: 19_400,
      courtTermeSomme: 30_000,
      courtTermeTaux: 5.1,
      courtTermeDuree: 1,
      longTermeTaux: 3.9,
      longTermeDuree: 12,
      longTermeIvan: 55,
      remunerationCapitauxPropreTaux: 2,
      remunerationCapitauxPropreIvan: 50,
      prixFioul: 1.1,
      remarqueAnnuelle: "Pousse d'herbe abondante ; maïs semé tard et récolté humide.",
    },
    2025: {
      cotisationMsa: 14_600,
      fermageMoyen: 138,
      chargesDiverses: 21_500,
      aidesDecouplees: 19_000,
      courtTermeSomme: 25_000,
      courtTermeTaux: 4.7,
      courtTermeDuree: 1,
      longTermeTaux: 3.6,
      longTermeDuree: 12,
      longTermeIvan: 55,
      remunerationCapitauxPropreTaux: 2,
      remunerationCapitauxPropreIvan: 50,
      prixFioul: 0.98,
      remarqueAnnuelle: "Été sec : affouragement dès juillet, stocks d'ensilage entamés tôt.",
    },
  },
  machines: VALLEE_MACHINES,
  workers: VALLEE_WORKERS,
  operations: VALLEE_OPERATIONS,
};

export const DEMO_DESCRIPTIONS = { tilleuls: TILLEULS, moulin: MOULIN, vallee: VALLEE } as const;

/** The operations of a campaign by their demo key, with the work rate and fuel use its interventions take. */
export type CampaignOperations = Map<string, { id: number; idTypeAction: number; debit: number | null; conso: number | null }>;

async function insertId(trx: Db, table: string, row: Record<string, unknown>): Promise<number> {
  const [r] = await trx(table).insert(row).returning("id");
  return returnedId(r);
}

/** Coordinates, description and soil of a farm (the farm's own columns; France is country 26). */
export async function seedFarmColumns(trx: Db, idExploitation: number, d: DemoFarmDescription): Promise<void> {
  const { fax, ...coord } = d.coordonnees;
  await trx("exploitation")
    .where({ id: idExploitation })
    .update({
      ...coord,
      fax: fax ?? null,
      idPays: 26,
      ...d.description,
      ...d.sol,
    });
}

/** One campaign's characteristics, labour, machines and operations. */
export async function seedCampaignDescription(trx: Db, idCampagne: number, annee: number, d: DemoFarmDescription): Promise<CampaignOperations> {
  const eco = d.economie[annee] ?? d.economie[2025];
  const uta = (types: number[]) => d.workers.filter((w) => types.includes(w.type)).reduce((s, w) => s + w.uta, 0);
  // The labour costs are those of the labour items, by type.
  const montant = (type: number) => d.workers.filter((w) => w.type === type).reduce((s, w) => s + (w.montant ?? 0), 0);
  await trx("caracteristique").insert({
    idCampagne,
    ...eco,
    anneeprix: annee,
    chargesMainOeuvreSalarialePermanente: montant(951),
    chargesMainOeuvreSalarialeOccasionnel: montant(952),
    chargesMainOeuvreFamiliale: montant(953),
    normeChargesMainOeuvreSalarialePermanente: Math.round(uta([951]) * NORME_SALARIEE * 100) / 100,
    normeChargesMainOeuvreSalarialeOccasionnel: Math.round(uta([952]) * NORME_SALARIEE * 100) / 100,
    normeChargesMainOeuvreFamiliale: Math.round(uta([953]) * NORME_FAMILIALE * 100) / 100,
  });

  const workers = new Map<string, number>();
  // The screens list newest first: rows are written in reverse so that they show in the order written here.
  for (const w of [...d.workers].reverse()) {
    workers.set(
      w.key,
      await insertId(trx, "main_oeuvre", {
        idCampagne,
        libelle: w.libelle,
        uta: w.uta,
        idTypeUser: w.type,
        remarque: w.remarque ?? null,
        montant: w.montant ?? null,
      }),
    );
  }

  const machines = new Map<string, number>();
  for (const m of [...d.machines].reverse()) {
    const ref = await findReference(trx, m.reference);
    if (!ref) throw new Error(`demo seed: no machine reference ${m.reference}`);
    const cat = await findCategorie(trx, ref.idCategorieMateriel);
    if (!cat) throw new Error(`demo seed: no machine category ${ref.idCategorieMateriel}`);
    const propriete = m.propriete ?? TYPE_PROPRIETE.PROPRE;
    const own = propriete === TYPE_PROPRIETE.PROPRE;
    const neuf = m.neuf ?? true;
    const prixNeuf = ref.prixMoyen;
    const id = await insertParcMateriel(trx, idCampagne, {
      libelle: m.libelle,
      noClasse: cat.idClasseMateriel,
      noCategorie: cat.ordre,
      idCategorieMateriel: cat.id,
      idBasemeq: ref.id,
      idenBasemeq: ref.identifiant,
      typePropriete: propriete,
      copropriete: own ? (m.copropriete ?? 100) : null,
      poids: ref.poids,
      puissance: ref.puissance,
      debit: ref.debit,
      neufOccasion: own ? (neuf ? "n" : "o") : null,
      ageAchat: own ? (m.ageAchat ?? 0) : null,
      typePompe: m.typePompe ?? null,
      coutEntretienReparation: ref.reparation,
      coutLocation: m.coutLocation ?? null,
      prixAchat: own ? (m.prixAchat ?? (prixNeuf == null ? null : Math.round(neuf ? prixNeuf : prixNeuf * 0.65))) : null,
      prixNeuf,
      utilisationAnnuelle: m.utilisationAnnuelle ?? ref.utilisationAnnuelle,
      utilisationAnnuelleCalculeeP: null,
      utilisationAnnuelleCalculeeR: null,
      usure: ref.vieUsure,
      obsolescence: ref.vieObsolescence,
      dureeAmortissement: ref.vieObsolescence == null ? null : Math.min(ref.vieObsolescence, 10),
      tauxRevente: ref.tauxRevente,
      remarque: m.remarque ?? null,
    });
    machines.set(m.key, id);
  }

  const types = new Map((await listTypesAction(trx)).map((t) => [t.id, t]));
  const stored = new Map((await listParcMateriels(trx, idCampagne)).map((m) => [m.id, m]));
  const coefficients = await listCoefficientsConsoCarburant(trx);
  const operations: CampaignOperations = new Map();
  for (const o of [...d.operations].reverse()) {
    const type = types.get(o.type);
    if (!type) throw new Error(`demo seed: no operation type ${o.type}`);
    const tracteur = o.tracteur ? (stored.get(machines.get(o.tracteur)!) ?? null) : null;
    const outils = (o.outils ?? []).map((k) => stored.get(machines.get(k)!)!).filter(Boolean);
    const profondeurTravail = type.profondeurTravail ? (o.profondeur ?? 0) : 0;
    const debitCalcule = roundOrNull(calculatedWorkRate(type, tracteur, outils), 3);
    const debitReel = o.debitReel ?? null;
    const consoCarburantCalculee = roundFuel(
      fuelUseReference(coefficients, {
        idTypeAction: type.id,
        puissance: tracteur?.puissance ?? null,
        profondeurTravail,
        debit: effectiveWorkRate({ debitReel, debitCalcule }),
      }),
    );
    const id = await insertId(trx, "operation_culturale", {
      idCampagne,
      idTypeAction: type.id,
      libelle: o.libelle,
      remarque: o.remarque ?? null,
      idMaterielTractant: tracteur?.id ?? null,
      eta: o.eta ?? false,
      debitReel,
      debitCalcule,
      consoCarburantReelle: o.consoReelle ?? null,
      consoCarburantCalculee,
      profondeurTravail,
      debitIrrigation: type.debitIrrigation ? (o.debitIrrigation ?? null) : null,
      volumeBouillie: o.volumeBouillie ?? null,
      proportionSurfaceTravaillee: o.proportion ?? 1,
      surfaceTravaillee: null,
      nombrePassage: null,
    });
    await replaceLinks(
      trx,
      id,
      outils.map((m) => m.id),
      o.eta ? [] : (o.mo ?? []).map((k) => workers.get(k)!),
    );
    operations.set(o.key, {
      id,
      idTypeAction: type.id,
      debit: effectiveWorkRate({ debitReel, debitCalcule }),
      conso: o.consoReelle ?? consoCarburantCalculee,
    });
  }
  return operations;
}

/** The demo farms' descriptions and every campaign's characteristics, labour, machines and operations; returns the operations per campaign. */
export async function seedDemoDescription(
  trx: Knex.Transaction,
  exploitations: { tilleuls: number; moulin: number; vallee: number },
  campagnes: Record<string, number>,
): Promise<Map<number, CampaignOperations>> {
  const out = new Map<number, CampaignOperations>();
  for (const [name, idExploitation] of Object.entries(exploitations) as [keyof typeof DEMO_DESCRIPTIONS, number][]) {
    const d = DEMO_DESCRIPTIONS[name];
    await seedFarmColumns(trx, idExploitation, d);
    for (const [key, idCampagne] of Object.entries(campagnes)) {
      if (!key.startsWith(name)) continue;
      const annee = Number(key.slice(name.length, name.length + 4));
      out.set(idCampagne, await seedCampaignDescription(trx, idCampagne, annee, d));
    }
  }
  return out;
}
