import type { Condition } from "~/domain/rdd-conditions";
import type { Db } from "../db/knex";
import { insertId } from "../db/insert-id";

/**
 * The demo's system description, objectives, decision rules and evaluations (issue 13), on the campaigns of EARL des
 * Tilleuls (and, on their own modes, of the other demo farms): rules on one mode, on two modes and a macro rule, evaluations
 * of a plot of the first rule's mode and of one of its interventions.
 */

const RULES: {
  libelle: string;
  type: number;
  modes: string[];
  culture: string | null;
  aModifier: boolean;
  objectif: string;
  evaluation: string;
  solution: string;
  condition?: Condition;
}[] = [
  {
    libelle: "Fractionner l'azote du blé en trois apports",
    type: 4,
    modes: ["Blé tendre conventionnel"],
    culture: "Blé tendre d'hiver",
    aModifier: false,
    objectif: "Ajuster la dose d'azote aux besoins réels du blé et limiter les pertes par lixiviation.",
    evaluation: "Reliquats sortie d'hiver et pilotage du dernier apport par outil (N-Tester).",
    solution: "Apports au tallage, épi 1 cm et dernière feuille ; dose totale selon la méthode du bilan.",
    condition: { type: "delai_min", jours: 45 },
  },
  {
    libelle: "Désherbage mixte des céréales : herse étrille puis rattrapage",
    type: 6,
    modes: ["Blé tendre conventionnel", "Orge de printemps brassicole"],
    culture: null,
    aModifier: true,
    objectif: "Réduire l'IFT herbicides des céréales d'au moins 30 %.",
    evaluation: "Comptage des adventices avant et après passage ; IFT herbicides de la parcelle.",
    solution: "Un ou deux passages de herse étrille au stade 3 feuilles, rattrapage chimique localisé si nécessaire.",
    condition: { type: "produit_interdit", produits: ["FIDOX"] },
  },
  {
    libelle: "Pas de fongicide sans observation au stade 2 nœuds",
    type: 5,
    modes: [],
    culture: null,
    aModifier: false,
    objectif: "Ne traiter que sur risque avéré.",
    evaluation: "Notes de maladies sur 20 tiges au stade 2 nœuds.",
    solution: "Traiter seulement au-delà des seuils de nuisibilité (septoriose, rouille jaune).",
  },
  {
    libelle: "Semer le colza avant le 25 août avec des légumineuses gélives",
    type: 3,
    modes: ["Colza"],
    culture: "Colza d'hiver",
    aModifier: false,
    objectif: "Un colza robuste à l'automne, moins sensible aux insectes.",
    evaluation: "Biomasse à l'entrée de l'hiver (pesée).",
    solution: "Semis précoce associé à féverole et lentille, fertilisation organique au semis.",
  },
];

const PROTOCOLES = [
  {
    chapitre: 2245,
    libelle: "Sols limoneux profonds de Beauce, irrigation partielle",
    texte: "Exploitation céréalière de 180 ha ; forte pression des graminées adventices ; contraintes de la zone vulnérable nitrates.",
  },
  {
    chapitre: 2246,
    libelle: "Réduire les intrants sans perte de marge",
    texte: "Baisser l'IFT de 30 % et la fertilisation minérale de 15 % en cinq ans, à marge semi-nette constante.",
  },
  {
    chapitre: 2247,
    libelle: "Allonger la rotation et diversifier les cultures",
    texte: "Introduire une culture de printemps et une légumineuse ; couverts d'interculture avant chaque culture de printemps.",
  },
  { chapitre: 2248, libelle: "Tours de plaine hebdomadaires", texte: "Observations de mars à juin, reliquats azotés en sortie d'hiver sur chaque îlot." },
];

const OBJECTIFS: [string, number | null][] = [
  ["IFT_TOT", 3.2],
  ["IFT_H", 1.2],
  ["N_MIN", 150],
  ["MSN", 650],
  ["TPS_TRAV", null],
];

export async function seedDemoProtocoles(trx: Db, campagnes: Record<string, number>): Promise<void> {
  for (const idCampagne of Object.values(campagnes)) {
    // EARL des Tilleuls has the modes the rules name; another farm's rules go to its own first modes, in the same places.
    const modes = await trx("mode_conduite").where({ idCampagne }).orderBy("id").select("id", "libelle");
    if (modes.length === 0) continue;
    const names = [...new Set(RULES.flatMap((r) => r.modes))];
    const modeOf = (libelle: string) => modes.find((m) => m.libelle === libelle) ?? modes[names.indexOf(libelle) % Math.max(1, modes.length)];
    for (const p of PROTOCOLES)
      await insertId(trx, "protocole_exploitation", { idCampagne, dicIdChapitreProtocole: p.chapitre, pexLibelle: p.libelle, pexValTexte: p.texte });
    for (const [code, value] of OBJECTIFS) {
      const ind = await trx("indicateur").where({ indCode: code }).first("id");
      if (ind) await insertId(trx, "indicateur_objectif", { idCampagne, idIndicateur: ind.id, value });
    }
    const ids: number[] = [];
    for (const r of RULES) {
      const ruleModes = [
        ...new Set(
          r.modes
            .map(modeOf)
            .filter(Boolean)
            .map((m) => Number(m.id)),
        ),
      ];
      let culture = r.culture ? await trx("culture").where({ libelle: r.culture }).first("id") : null;
      if (culture && !(await trx("mode_conduite_culture").whereIn("idModeConduite", ruleModes).where({ idCulture: culture.id }).first("id"))) culture = null;
      const id = await insertId(trx, "rdd", {
        idCampagne,
        libelle: r.libelle,
        dicIdTypeRdd: r.type,
        idCulture: culture?.id ?? null,
        aModifier: r.aModifier,
        objectif: r.objectif,
        evaluation: r.evaluation,
        solution: r.solution,
        macroRegle: r.modes.length === 0,
        condition: "condition" in r && r.condition ? JSON.stringify(r.condition) : null,
      });
      for (const idModeConduite of ruleModes) await trx("rdd_mode_conduite").insert({ idRdd: id, idModeConduite });
      ids.push(id);
    }
    // Evaluations: the first wheat plot (rules 1 and 3) and its first intervention (rule 2).
    const first = modeOf(RULES[0].modes[0]);
    const plot = first ? await trx("parcelle").where({ idCampagne, idModeConduite: first.id }).orderBy("id").first("id") : null;
    if (!plot) continue;
    await insertId(trx, "rdd_evaluation", {
      idRdd: ids[0],
      idParcelle: plot.id,
      ecartSolution: 2,
      explicationEcart: "Le dernier apport a été avancé faute de pluie annoncée.",
      ecartResultat: 0,
      justification: "Rendement et protéines dans l'objectif.",
      aModifier: false,
    });
    await insertId(trx, "rdd_evaluation", {
      idRdd: ids[2],
      idParcelle: plot.id,
      ecartSolution: 0,
      ecartResultat: 0,
      justification: "Un seul fongicide, au stade dernière feuille.",
      aModifier: false,
    });
    const action = await trx("action").where({ idParcelle: plot.id }).orderBy(["date", "id"]).first("id");
    if (action)
      await insertId(trx, "rdd_evaluation", {
        idRdd: ids[1],
        idAction: action.id,
        ecartSolution: 1,
        explicationEcart: "Sol trop humide pour la herse étrille.",
        ecartResultat: 1,
        justification: "Désherbage chimique complet.",
        aModifier: true,
      });
  }
}
