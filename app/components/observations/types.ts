import type { MesuresData as ServiceData } from "#server/observation/service.server";
import type { MapConfig } from "~/components/map/types";

/** What the measures screen's loader gives (server/observation/service.ts getMesures, and the route's extras). */
export type MesuresData = ServiceData & {
  maxMo: number;
  mapConfig: MapConfig | null;
};
export type SerieRow = MesuresData["series"][number];
export type ObservationRow = NonNullable<MesuresData["detail"]>["observations"][number];
export type HorizonRow = NonNullable<MesuresData["detail"]>["horizons"][number];
export type FichierRow = NonNullable<MesuresData["detail"]>["fichiers"][number];

/** A label in the interface language. */
export const lbl = (c: { libelle: string; libelleEn?: string | null }, lang: string) => (lang === "en" && c.libelleEn ? c.libelleEn : c.libelle);
