import { lazy, Suspense } from "react";
import { useTranslation } from "~/use-translation";
import { MapErrorBoundary, MapPlaceholder, useHasSize, useHydrated } from "./plot-map";
import type { ImportPreviewMapProps } from "./types";

const ImportPreviewMapClient = lazy(() => import("./import-preview-map.client"));
const HEIGHT_PX = 300;

/** The import preview's map: the file's shapes over the imagery, loaded in the browser only. */
export function ImportPreviewMap(props: ImportPreviewMapProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const { ref, sized } = useHasSize<HTMLDivElement>();
  const loading = <MapPlaceholder label={props.label} message={t("carte.chargement")} height={HEIGHT_PX} />;
  return (
    <div ref={ref}>
      {hydrated && sized ? (
        <MapErrorBoundary fallback={<MapPlaceholder label={props.label} message={t("carte.indisponible")} height={HEIGHT_PX} />}>
          <Suspense fallback={loading}>
            <ImportPreviewMapClient {...props} height={HEIGHT_PX} />
          </Suspense>
        </MapErrorBoundary>
      ) : (
        loading
      )}
    </div>
  );
}
