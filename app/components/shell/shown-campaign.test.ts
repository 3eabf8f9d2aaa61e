import { describe, expect, test } from "vitest";
import { SHOWN_CAMPAIGN_HEADER } from "~/domain/access/shown-campaign";
import { nameShownCampaignOnWrites, showCampaign } from "./shown-campaign";

/** A window whose fetch records the headers each request was sent with. */
function fakeWindow() {
  const sent: { url: string; header: string | null; type: string | null }[] = [];
  const target = {
    location: new URL("https://sillon.test/sillon/home/au-champs/interventions") as unknown as Location,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      sent.push({ url: input instanceof Request ? input.url : String(input), header: headers.get(SHOWN_CAMPAIGN_HEADER), type: headers.get("Content-Type") });
      return new Response("{}");
    }) as typeof fetch,
  };
  nameShownCampaignOnWrites(target);
  return { target, sent };
}

describe("a write names the campaign its page showed (decision 0092)", () => {
  test("[issue23-campaign-shown] every same-origin write carries the shown campaign, keeping its own headers; reads, other origins and a page without campaign do not", async () => {
    const { target, sent } = fakeWindow();
    showCampaign(42);
    await target.fetch("/sillon/home/au-champs/interventions.data", { method: "POST", body: new FormData() });
    await target.fetch(
      new Request("https://sillon.test/sillon/home/contexte", { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } }),
    );
    await target.fetch("/sillon/home/au-champs/interventions.data?parcelleId=3");
    await target.fetch("https://ailleurs.test/x", { method: "POST" });
    showCampaign(null);
    await target.fetch("/sillon/home/description/parcelle.data", { method: "POST" });
    expect(sent.map((s) => s.header)).toEqual(["42", "42", null, null, null]);
    expect(sent[1].type).toBe("application/json");
    showCampaign(null);
  });
});
