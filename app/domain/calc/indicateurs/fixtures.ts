/** Builders of snapshot rows for the engine's unit tests (test helpers only). */

import type { IntrantCampagne, InterventionCampagne, OperationCampagne, ParcelleCampagne, RecolteCampagne } from "./types";

let suivant = 1000;
export const nouvelId = () => ++suivant;

export const operation = (o: Partial<OperationCampagne> = {}): OperationCampagne => ({
  id: nouvelId(),
  libelle: "Opération",
  mecanisee: true,
  eta: false,
  nbPersonnes: 1,
  debit: null,
  consoCarburant: null,
  chargesMecanisation: null,
  ...o,
});

export const intervention = (i: Partial<InterventionCampagne> = {}): InterventionCampagne => ({
  id: nouvelId(),
  idParcelle: 1,
  date: "2024-03-15",
  realisee: true,
  prevue: false,
  frequence: 1,
  tauxSurface: 1,
  operation: null,
  intrants: [],
  recoltes: [],
  ...i,
});

export const recolte = (r: Partial<RecolteCampagne> = {}): RecolteCampagne => ({ id: nouvelId(), idCulture: 1, rendement: null, unite: "t/ha", ...r });

export const parcelle = (p: Partial<ParcelleCampagne> = {}): ParcelleCampagne => ({
  id: nouvelId(),
  libelle: "Parcelle",
  surface: 10,
  idCulture: 1,
  idModeConduite: 1,
  ...p,
});

type Saisie<T> = T extends IntrantCampagne ? Omit<T, "id" | "libelle"> & Partial<Pick<T, "id" | "libelle">> : never;

export const intrant = <T extends IntrantCampagne = IntrantCampagne>(i: Saisie<T>): T => ({ id: nouvelId(), libelle: "Intrant", ...i }) as unknown as T;
