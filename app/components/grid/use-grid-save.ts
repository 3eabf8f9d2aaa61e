import { useCallback, useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { PATCHES_FIELD } from "~/domain/grid-patches";
import type { RowPatch } from "./patches";
import type { GridSaveAnswer } from "./types";

/** The intent a grid's save posts (the route's action declares it: docs/architecture.md, "A grid"). */
export const GRID_INTENT = "grid";

/**
 * The grid's `onSave` for a screen: posts the patches to the route's action (intent "grid", the JSON in the form
 * field `patches`) through a fetcher, and resolves with the action's answer once the loader has sent the fresh rows
 * (a fetcher's post revalidates the page's loaders).
 */
export function useGridSave(options: { action?: string; intent?: string; fields?: Record<string, string> } = {}) {
  const fetcher = useFetcher<GridSaveAnswer>();
  const pending = useRef<((answer: GridSaveAnswer) => void) | null>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !pending.current) return;
    pending.current(fetcher.data ?? { ok: false, error: "errors.save-failed" });
    pending.current = null;
  }, [fetcher.state, fetcher.data]);
  const { submit } = fetcher;
  const { action, intent = GRID_INTENT } = options;
  // Other envelope fields of the intent (e.g. the series whose observations the grid edits).
  const extra = JSON.stringify(options.fields ?? {});
  return useCallback(
    (patches: RowPatch[]) =>
      new Promise<GridSaveAnswer>((resolve) => {
        pending.current = resolve;
        const form = new FormData();
        form.set("intent", intent);
        form.set(PATCHES_FIELD, JSON.stringify(patches));
        for (const [k, v] of Object.entries(JSON.parse(extra) as Record<string, string>)) form.set(k, v);
        void submit(form, { method: "post", ...(action ? { action } : {}) });
      }),
    [submit, action, intent, extra],
  );
}
