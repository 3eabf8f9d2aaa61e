/**
 * Calculation series (spec 3 §3.14, §4.7, §5, §6; issue 14; decision 0054): the indicator groups a series
 * publishes, its three states, the publication rules and the severity of the pre-check. Pure: no I/O; the
 * service (server/calcul-serie) and the calculation screen use the same answers.
 */

import { decrireIndicateur, GROUPES_INDICATEURS, type GroupeIndicateurs } from "./indicateurs/catalogue";
import { MESSAGES_CONTROLE, type MessageControle, type ResultatControle } from "./indicateurs/controle";

/** The reference list of indicator groups (groupesIndicateurs: id, ginNom): the engine's families, in its order. */
export const GROUPES_SERIE: readonly { id: number; code: GroupeIndicateurs; ginNom: string }[] = [
  { id: 1, code: "ift", ginNom: "IFT et substances actives" },
  { id: 2, code: "fertilisation", ginNom: "Fertilisation et bilan azoté" },
  { id: 3, code: "travail", ginNom: "Temps de travail, passages, carburant, eau" },
  { id: 4, code: "economie", ginNom: "Économie" },
  { id: 5, code: "energie", ginNom: "Énergie" },
  { id: 6, code: "ges", ginNom: "Gaz à effet de serre" },
];
// Every family of the engine has its group (a new family must be added above).
if (GROUPES_SERIE.length !== GROUPES_INDICATEURS.length) throw new Error("GROUPES_SERIE must list every GROUPES_INDICATEURS");

export const groupeSerie = (id: number) => GROUPES_SERIE.find((g) => g.id === id);

/** The group id of an indicator code (null for a code of no family). */
export function groupeDuCode(code: string): number | null {
  const d = decrireIndicateur(code);
  return d ? (GROUPES_SERIE.find((g) => g.code === d.groupe)?.id ?? null) : null;
}

/** The three states of a series (C-CALC-12). */
export type EtatSerie = "nonPublie" | "publie" | "valide";
export function etatSerie(s: { publication: boolean; visaAnimateur: boolean }): EtatSerie {
  return s.visaAnimateur ? "valide" : s.publication ? "publie" : "nonPublie";
}

export type GroupePublication = { id: number; publie: boolean };

/**
 * Publication by group (C-CALC-13..15): the changed flags applied to the series' groups; the series is published
 * when any group is, unpublished when none is. `tous` (the header checkbox) sets every group.
 */
export function publierGroupes(
  groupes: readonly GroupePublication[],
  changement: { tous?: boolean; groupes?: GroupePublication[] },
): { groupes: GroupePublication[]; publication: boolean } {
  const nouveaux = groupes.map((g) => {
    if (changement.tous !== undefined) return { id: g.id, publie: changement.tous };
    const c = changement.groupes?.find((x) => x.id === g.id);
    return c ? { id: g.id, publie: c.publie } : { ...g };
  });
  return { groupes: nouveaux, publication: nouveaux.some((g) => g.publie) };
}

/** Why a change of a series is refused, or null (C-CALC-16, 19, 20; C-RIGHTS-10). */
export function refusModification(
  serie: { publication: boolean; visaAnimateur: boolean },
  changement: { publication?: boolean; remarque?: boolean; visa?: boolean },
  peutValider: boolean,
): string | null {
  if (changement.visa !== undefined) {
    if (!peutValider) return "errors.forbidden";
    if (changement.visa && !serie.publication) return "calcul-serie.erreurs.visa-sans-publication";
    return null;
  }
  if ((changement.publication || changement.remarque) && serie.visaAnimateur) return "calcul-serie.erreurs.serie-validee";
  return null;
}

/**
 * Severity of the pre-check (spec 3 §8: "severity Erreur hides the confirm button; severity OK proceeds
 * automatically"; decision 0054): an offending item refuses the run, except the seed emission coefficient, which
 * no catalogue of the database holds yet: it is a warning the user may confirm past (the greenhouse-gas figures
 * then list it as missing).
 */
export const MESSAGES_AVERTISSEMENT: readonly string[] = [MESSAGES_CONTROLE.coefficientEmission];

export type SeveriteControle = "OK" | "Avertissement" | "Erreur";
export type MessageSeverite = MessageControle & { severite: "Erreur" | "Avertissement" };
export type ControleSerie = { codeRetour: SeveriteControle; details: MessageSeverite[] };

/**
 * The check's result with its severity; its problems as the screen lists them (issue 30): errors first, then
 * warnings, each problem once (the same message on the same item and field), in the check's order otherwise.
 */
export function severiteControle(r: ResultatControle): ControleSerie {
  const vus = new Set<string>();
  const uniques: MessageSeverite[] = [];
  for (const d of r.details) {
    const cle = JSON.stringify([d.code, d.objet, d.id, d.champ ?? null, d.valeur ?? null]);
    if (vus.has(cle)) continue;
    vus.add(cle);
    uniques.push({ ...d, severite: MESSAGES_AVERTISSEMENT.includes(d.code) ? "Avertissement" : "Erreur" });
  }
  const details = [...uniques.filter((d) => d.severite === "Erreur"), ...uniques.filter((d) => d.severite === "Avertissement")];
  const codeRetour: SeveriteControle = details.some((d) => d.severite === "Erreur") ? "Erreur" : details.length ? "Avertissement" : "OK";
  return { codeRetour, details };
}

/** The figures the series detail charts (per plot and per crop), and the IFT split by segment. */
export const CODES_GRAPHIQUES = ["ift.cible.total", "fertilisation.n.total", "economie.reel.margeBrute", "travail.temps.total"] as const;
export const CODES_IFT_SEGMENTS = [
  "ift.cible.herbicides",
  "ift.cible.fongicides",
  "ift.cible.insecticides",
  "ift.cible.autres",
  "ift.cible.semences",
  "ift.cible.biocontrole",
] as const;

/**
 * What the pre-check dialog does with a check result (spec 3 §8; C-CHECK-24, 25): OK goes on to the run at once,
 * a warning shows the items with a confirm button, an error shows them without one.
 */
export function suiteControle(codeRetour: SeveriteControle): "lancer" | "confirmer" | "bloquer" {
  return codeRetour === "OK" ? "lancer" : codeRetour === "Avertissement" ? "confirmer" : "bloquer";
}

/** The worst of several campaigns' check results. */
export function pireControle(codes: SeveriteControle[]): SeveriteControle {
  return codes.includes("Erreur") ? "Erreur" : codes.includes("Avertissement") ? "Avertissement" : "OK";
}

/** The screen where an offending item is fixed (the check dialog's links), under /home. */
export function ecranCorrection(objet: MessageControle["objet"]): string {
  switch (objet) {
    case "parcelle":
      return "/home/description/exploitation/parcelle";
    case "operation":
      return "/home/description/exploitation/operations_culturales";
    case "materiel":
      return "/home/description/exploitation/parc_materiel";
    case "exploitation":
      return "/home/description/exploitation/caracteristiques_economiques";
    case "prix":
      return "/home/description/prix/prix_approvisionnement";
    default:
      return "/home/description/au_champs/interventions";
  }
}
