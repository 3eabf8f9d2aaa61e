import { lazy, Suspense } from "react";
import { useTranslation } from "~/use-translation";
import { MapErrorBoundary as ErrorBoundary, useHydrated } from "../map/plot-map";
import { DEFAULT_GRID_HEIGHT, GRID_STATUS_HEIGHT, GRID_TOOLBAR_HEIGHT, type DataGridProps, type GridRow } from "./types";

/**
 * The one grid of the app (docs/architecture.md, "A grid"): Glide Data Grid, which cannot render on the server
 * (STACK.md), is loaded in the browser only, from `data-grid.client.tsx`; until then a placeholder of the same size
 * holds its place, so the page does not move.
 */

const DataGridClient = lazy(() => import("./data-grid.client"));

export const gridTotalHeight = (height = DEFAULT_GRID_HEIGHT) => GRID_TOOLBAR_HEIGHT + height + GRID_STATUS_HEIGHT;

export function GridPlaceholder({ label, message, height }: { label: string; message: string; height?: number }) {
  return (
    <div
      role="region"
      aria-label={label}
      aria-busy="true"
      data-testid="grid-placeholder"
      style={{ height: gridTotalHeight(height) }}
      className="flex items-center justify-center rounded border border-stone-300 bg-stone-50 text-sm text-stone-600"
    >
      {message}
    </div>
  );
}

export function DataGrid<R extends GridRow>(props: DataGridProps<R>) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const placeholder = <GridPlaceholder label={props.label} message={t("grid.loading")} height={props.height} />;
  if (!hydrated) return placeholder;
  return (
    <ErrorBoundary fallback={<GridPlaceholder label={props.label} message={t("grid.unavailable")} height={props.height} />}>
      <Suspense fallback={placeholder}>
        <DataGridClient {...(props as unknown as DataGridProps)} />
      </Suspense>
    </ErrorBoundary>
  );
}
