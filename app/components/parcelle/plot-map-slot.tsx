import { useTranslation } from "react-i18next";
import type { MapConfig, PlotMapProps } from "~/components/map/types";

/** Height of the plot map (spec 2 §9). */
export const MAP_HEIGHT_PX = 400;

/**
 * Where the plot map goes (app/components/map/plot-map.tsx, built by the map work). Until that
 * component exists this keeps its place with a placeholder of the same size.
 */
export function PlotMapSlot(props: Omit<PlotMapProps, "config"> & { config: MapConfig | null }) {
  const { t } = useTranslation();
  return (
    <div
      role="region"
      aria-label={props.label}
      data-testid="plot-map-slot"
      style={{ height: MAP_HEIGHT_PX }}
      className="flex items-center justify-center rounded border border-dashed border-stone-300 bg-stone-50 p-4 text-center text-sm text-stone-500"
    >
      {t("parcelle.carte.pending")}
    </div>
  );
}
