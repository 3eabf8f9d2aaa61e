/**
 * Work time, passes, fuel and water (research §1 "Work", "Fuel / water", §3.2, §4.1; docs/indicators.md §7.6).
 *
 *   time (h/ha)     = passes / work rate (ha/h) × people           mechanised when the operation has machines
 *   by month        = the same, under the month of the intervention's date (yyyy-mm)
 *   passes          = Σ frequency × surface rate
 *   fuel (L/ha)     = Σ passes × fuel use (intervention's own, else the operation's effective one)
 *   water (m3/ha)   = Σ passes × dose (mm) × 10
 */

import { contexte as contexteDefaut, interventionsRetenues, passages, type Contexte } from "./contexte";
import { Cumul, estNombre, SANS_ENTREE } from "./resultat";
import type { Indicateurs, InterventionCampagne } from "./types";

export const CODES_TRAVAIL = [
  "travail.temps.mecanise",
  "travail.temps.manuel",
  "travail.temps.total",
  "travail.passages",
  "travail.carburant",
  "travail.eau",
] as const;

/** Work rate of an intervention: its own when set above 0, else its operation's. */
export function debitIntervention(intervention: InterventionCampagne): number | null {
  if (estNombre(intervention.debit) && intervention.debit > 0) return intervention.debit;
  const d = intervention.operation?.debit;
  return estNombre(d) && d > 0 ? d : null;
}

/** Fuel use of an intervention, L/ha per pass: its own when set, else its operation's. */
export function carburantIntervention(intervention: InterventionCampagne): number | null {
  if (estNombre(intervention.consoCarburant)) return intervention.consoCarburant;
  const c = intervention.operation?.consoCarburant;
  return estNombre(c) ? c : null;
}

/** Hours per hectare of plot of one intervention, and whether they are mechanised; null when unknown. */
export function tempsIntervention(intervention: InterventionCampagne): { heures: number; mecanise: boolean } | null {
  const p = passages(intervention).valeur;
  const debit = debitIntervention(intervention);
  if (p === null || debit === null || !intervention.operation) return null;
  const personnes = estNombre(intervention.operation.nbPersonnes) && intervention.operation.nbPersonnes > 0 ? intervention.operation.nbPersonnes : 1;
  return { heures: (p / debit) * personnes, mecanise: intervention.operation.mecanisee };
}

/**
 * A manual operation without its people recorded counts 1 person (a guess, listed missing: decision 0086); a
 * mechanised one counts its driver.
 */
export const personnesSupposees = (intervention: InterventionCampagne): boolean =>
  !!intervention.operation &&
  !intervention.operation.mecanisee &&
  !intervention.operation.eta &&
  !(estNombre(intervention.operation.nbPersonnes) && intervention.operation.nbPersonnes > 0);

/**
 * Machine hours per hectare of plot of one intervention: passes / work rate, whatever the number of people on the
 * work site (each machine runs those hours once); null when unknown.
 */
export function heuresMachines(intervention: InterventionCampagne): { heures: number } | null {
  const p = passages(intervention).valeur;
  const debit = debitIntervention(intervention);
  if (p === null || debit === null || !intervention.operation) return null;
  return { heures: p / debit };
}

export function indicateursTravail(interventions: InterventionCampagne[], ctx: Contexte = contexteDefaut()): Indicateurs {
  const c = {
    mecanise: new Cumul("travail.temps.mecanise", "h/ha", "7.6", ctx.explique),
    manuel: new Cumul("travail.temps.manuel", "h/ha", "7.6", ctx.explique),
    total: new Cumul("travail.temps.total", "h/ha", "7.6", ctx.explique),
    passages: new Cumul("travail.passages", "passages", "7.6", ctx.explique),
    carburant: new Cumul("travail.carburant", "L/ha", "7.6", ctx.explique),
    eau: new Cumul("travail.eau", "m3/ha", "7.6", ctx.explique),
  };
  const mois = new Map<string, Cumul>();
  const x = ctx.explique !== false;
  for (const intervention of interventionsRetenues(interventions, ctx.options)) {
    const libelle = intervention.libelle ?? intervention.operation?.libelle;
    // The entry is built only when figures keep entries (a series computes without: decision 0070, 0081).
    const entree = x ? { objet: "intervention" as const, id: intervention.id, libelle, date: intervention.date } : null;
    const p = passages(intervention);
    c.passages.attend();
    if (p.manquant) c.passages.manque(p.manquant);
    else c.passages.ajoute(p.valeur ?? 0, entree ? { ...entree, valeur: p.valeur ?? 0, unite: "passages" } : SANS_ENTREE);

    // Time
    const temps = tempsIntervention(intervention);
    const cleMois = `travail.temps.mois.${intervention.date.slice(0, 7)}`;
    const cm = mois.get(cleMois) ?? new Cumul(cleMois, "h/ha", "7.6", ctx.explique);
    mois.set(cleMois, cm);
    const cumulsTemps = [c.total, cm, intervention.operation?.mecanisee === false ? c.manuel : c.mecanise];
    for (const t of cumulsTemps) {
      t.attend();
      if (p.manquant) t.manque(p.manquant);
      if (!intervention.operation) t.manque({ objet: "intervention", id: intervention.id, champ: "operation", libelle });
      else if (debitIntervention(intervention) === null)
        t.manque({ objet: "operation", id: intervention.operation.id, champ: "debit", libelle: intervention.operation.libelle });
      if (personnesSupposees(intervention))
        t.manque({ objet: "operation", id: intervention.operation!.id, champ: "mainOeuvre", libelle: intervention.operation!.libelle }).remarque("personnes-1");
      if (temps) t.ajoute(temps.heures, entree ? { ...entree, valeur: debitIntervention(intervention) ?? undefined, unite: "ha/h" } : SANS_ENTREE);
    }

    // Fuel: only mechanised operations burn fuel.
    if (intervention.operation?.mecanisee !== false) {
      c.carburant.attend();
      const conso = carburantIntervention(intervention);
      if (p.manquant) c.carburant.manque(p.manquant);
      if (conso === null)
        c.carburant.manque(
          intervention.operation
            ? { objet: "operation", id: intervention.operation.id, champ: "consoCarburant", libelle: intervention.operation.libelle }
            : { objet: "intervention", id: intervention.id, champ: "operation" },
        );
      if (conso !== null && p.valeur !== null)
        c.carburant.ajoute(conso * p.valeur, entree ? { ...entree, valeur: conso, unite: "L/ha par passage" } : SANS_ENTREE);
    }

    // Water
    for (const intrant of intervention.intrants) {
      if (intrant.type !== "eau") continue;
      c.eau.attend();
      if (p.manquant) c.eau.manque(p.manquant);
      const mm = estNombre(intrant.dose) && (intrant.unite ?? "mm").toLowerCase() === "mm" ? intrant.dose : null;
      if (mm === null) c.eau.manque({ objet: "intrant", id: intrant.id, champ: "dose", libelle: intrant.libelle });
      if (mm !== null && p.valeur !== null)
        c.eau.ajoute(
          mm * 10 * p.valeur,
          !x
            ? SANS_ENTREE
            : { objet: "intrant", id: intrant.id, libelle: intrant.libelle, valeur: mm, unite: "mm", date: intervention.date, idIntervention: intervention.id },
        );
    }
  }
  const resultat: Indicateurs = {};
  for (const cumul of [...Object.values(c), ...[...mois.values()].sort((a, b) => a.code.localeCompare(b.code))]) resultat[cumul.code] = cumul.resultat();
  return resultat;
}
