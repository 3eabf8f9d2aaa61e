import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * The layouts' data (root: the language; home: the user, the context and its abilities; campaign-required: a campaign
 * is chosen) depend on neither the path nor the query of the address (decision 0083). React Router asks every layout
 * again whenever the query changes (a plot ticked in a filter, a row chosen): here they are asked again after a
 * submission (any write, a context or language change, a sign-out), an explicit revalidation and a navigation to the
 * very same address, never on a move to another address. Their server middleware (the session check) runs on every
 * request all the same.
 */
export function layoutShouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod) return defaultShouldRevalidate;
  return currentUrl.pathname === nextUrl.pathname && currentUrl.search === nextUrl.search ? defaultShouldRevalidate : false;
}
