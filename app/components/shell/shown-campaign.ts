import { useEffect } from "react";
import { SHOWN_CAMPAIGN_HEADER } from "~/domain/access/shown-campaign";

/**
 * The campaign the page shows, named on every write the browser posts (decision 0092). The /home layout says which
 * (useShownCampaign); `nameShownCampaignOnWrites`, installed once by app/entry.client.tsx, adds it to every
 * non-GET request of the application: forms of the form kit, grid saves, fetcher submissions and uploads all go
 * through the router's fetch, so this is the one place. The server refuses a write on the selected campaign when the
 * selection moved since (another tab), errors.campaign-changed.
 */
let shown: number | null = null;

/** The campaign the page shows now (null: none, the writes name none). */
export function showCampaign(idCampagne: number | null): void {
  shown = idCampagne;
}

/** The /home layout's campaign (its loader's view), the one the page shows until the layout is loaded again. */
export function useShownCampaign(idCampagne: number | null): void {
  useEffect(() => {
    showCampaign(idCampagne);
    return () => showCampaign(null);
  }, [idCampagne]);
}

/** Wraps the browser's fetch: a same-origin write names the shown campaign in SHOWN_CAMPAIGN_HEADER. */
export function nameShownCampaignOnWrites(target: { fetch: typeof fetch; location: Location }): void {
  const original = target.fetch.bind(target);
  target.fetch = (input, init) => {
    const request = input instanceof Request ? input : null;
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    if (shown == null || method === "GET" || method === "HEAD") return original(input, init);
    const url = new URL(request ? request.url : String(input), target.location.href);
    if (url.origin !== target.location.origin) return original(input, init);
    const headers = new Headers(init?.headers ?? request?.headers);
    headers.set(SHOWN_CAMPAIGN_HEADER, String(shown));
    return original(input, { ...init, headers });
  };
}
