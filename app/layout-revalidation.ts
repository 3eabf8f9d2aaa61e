import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * The layouts' data (root: the language; home: the user, the context and its abilities; campaign-required: a campaign
 * is chosen) do not depend on the query of the address (decision 0083). React Router asks every layout again whenever
 * the query changes (a plot ticked in a filter, a row chosen): here a change of the query alone, on the same screen,
 * asks the screen's loader only. A move to another path keeps React Router's way (every loader, so that a session
 * ended on the server is found at the next screen, even one without a loader), as do a submission, an explicit
 * revalidation and a navigation to the very same address.
 */
export function layoutShouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const queryAlone = !formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search;
  return queryAlone ? false : defaultShouldRevalidate;
}
