/**
 * The actualisation page is external: it opens in a new tab with a bearer token in its query (spec 1 §2,
 * A-SHELL-13). The browser keeps no token (issue 10, defect 6): a form posted to the server in a new tab
 * gets a fresh token of one hour, tied to this session (app/routes/api/actualisation.ts), and is sent
 * on to the page.
 */
export function actualisationUrl(base: string, token: string | null): string {
  const url = new URL(base);
  if (token) url.searchParams.set("token", token);
  return url.toString();
}

export function openActualisation() {
  const form = document.createElement("form");
  form.method = "post";
  form.action = `${import.meta.env.BASE_URL}api/v1/actualisation`;
  form.target = "_blank";
  form.rel = "noopener";
  form.hidden = true;
  document.body.append(form);
  form.submit();
  form.remove();
}
