import { queryIds, resourceLoader } from "#server/http/route.server";
import { getInterventionsRows } from "#server/intervention/service.server";

/**
 * The interventions screen's rows (decision 0076, issue 11): asked by the screen's clientLoader beside the screen's
 * own data, for the same plots (`parcelleId`, repeatable). The rights, the campaign and the plots shown are decided
 * for each request and each user, as for the screen; the answer is the JSON text of the rows kept per campaign
 * version (decision 0063), gzipped once per version, named by an entity tag (campaign, version, plots shown): the
 * browser keeps it (`private, no-cache`) and asks again with If-None-Match, answered 304 while no write has moved
 * the version. A reader typing the address gets the screen.
 */
export const loader = resourceLoader("/home/description/au_champs/interventions", async ({ db, user, view, query, request }) => {
  const rows = await getInterventionsRows(db, user, { parcelleIds: queryIds(query, "parcelleId"), view });
  const headers = new Headers({ ETag: rows.tag, "Cache-Control": "private, no-cache", Vary: "Accept-Encoding" });
  if (matches(request.headers.get("If-None-Match"), rows.tag)) return new Response(null, { status: 304, headers });
  const answer = await rows.answer();
  headers.set("Content-Type", "application/json; charset=utf-8");
  if (!/\bgzip\b/.test(request.headers.get("Accept-Encoding") ?? "")) return new Response(answer.json, { headers });
  // Already encoded: the compression middleware leaves it alone (server/start.js).
  headers.set("Content-Encoding", "gzip");
  const gz = await answer.gzipped();
  return new Response(new Uint8Array(gz.buffer, gz.byteOffset, gz.byteLength), { headers });
});

/** If-None-Match names the tag (a list, or `*`; weak tags compare weakly, RFC 9110 §13.1.2). */
function matches(header: string | null, tag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const v = t.trim();
    return v === "*" || v.replace(/^W\//, "") === tag;
  });
}
