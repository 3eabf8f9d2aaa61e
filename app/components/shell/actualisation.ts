/** The actualisation page is external: it opens in a new tab with the user's bearer token in its query (spec 1 §2). */
export function actualisationUrl(base: string, token: string | null): string {
  const url = new URL(base);
  if (token) url.searchParams.set("token", token);
  return url.toString();
}

export function openActualisation() {
  const base = document.documentElement.dataset.actualisationUrl;
  if (!base) return;
  window.open(actualisationUrl(base, window.localStorage.getItem("token")), "_blank", "noopener");
}
