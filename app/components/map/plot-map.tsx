import { Component, lazy, Suspense, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "~/use-translation";
import { MAP_HEIGHT_PX } from "./map-settings";
import type { PlotMapProps } from "./types";

const PlotMapClient = lazy(() => import("./plot-map.client"));

/** True once the page runs in the browser: maplibre cannot render on the server. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * True once the element has a size: maplibre cannot start in a box of zero size (a closed panel),
 * so the map waits until its panel is opened.
 */
export function useHasSize<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [sized, setSized] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || sized) return;
    const check = () => {
      if (el.offsetWidth > 0 && el.offsetHeight > 0) setSized(true);
    };
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    return () => observer.disconnect();
  }, [sized]);
  return { ref, sized };
}

/** A same-size box holding the map's place while it loads, or saying why it cannot show. */
export function MapPlaceholder({ label, message, height = MAP_HEIGHT_PX }: { label: string; message: string; height?: number }) {
  return (
    <div
      role="region"
      aria-label={label}
      style={{ height }}
      data-testid="map-placeholder"
      className="flex items-center justify-center rounded border border-stone-300 bg-stone-100 p-4 text-center text-sm text-stone-600"
    >
      {message}
    </div>
  );
}

/** Keeps a map failure (no WebGL in this browser) inside the map's box instead of breaking the form. */
export class MapErrorBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** The plot map, loaded in the browser only (STACK.md: maplibre needs `window`). */
export function PlotMap(props: PlotMapProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const { ref, sized } = useHasSize<HTMLDivElement>();
  const loading = <MapPlaceholder label={props.label} message={t("carte.chargement")} />;
  return (
    <div ref={ref}>
      {hydrated && sized ? (
        <MapErrorBoundary fallback={<MapPlaceholder label={props.label} message={t("carte.indisponible")} />}>
          <Suspense fallback={loading}>
            <PlotMapClient {...props} />
          </Suspense>
        </MapErrorBoundary>
      ) : (
        loading
      )}
    </div>
  );
}
