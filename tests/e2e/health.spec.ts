import { request as playwrightRequest } from "@playwright/test";
import { expect, test } from "./fixtures";
import { E2E } from "./settings";

/** Issue 16: the container's HEALTHCHECK asks /healthz (at the root and under the base path); no session needed. */
test("[issue16] /healthz answers 200 'ok' while the database answers, at the root and under the base path, never cached", async () => {
  const origin = `http://127.0.0.1:${E2E.port}`;
  const api = await playwrightRequest.newContext({ baseURL: origin });
  for (const path of ["/healthz", `${E2E.basePath}healthz`]) {
    const res = await api.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(200);
    expect(await res.text()).toBe("ok");
    expect(res.headers()["cache-control"]).toBe("no-store");
  }
  await api.dispose();
});

test("[issue16] the server writes one line per request with the user's id, never the query, cookie or password", async () => {
  const fs = await import("node:fs");
  const path = await import("node:path");
  const log = path.resolve("tests/.artifacts", `server-${E2E.port}.log`);
  const from = fs.existsSync(log) ? fs.statSync(log).size : 0;
  const origin = `http://127.0.0.1:${E2E.port}`;
  const api = await playwrightRequest.newContext({ baseURL: `${origin}${E2E.basePath}` });
  const signIn = await api.post("login", { headers: { Origin: origin }, form: { username: "redacteur", password: "demo1234" }, maxRedirects: 0 });
  expect(signIn.status()).toBe(302);
  const secret = "jeton-secret-123";
  expect((await api.get(`home/description/home?token=${secret}`)).status()).toBe(200);
  await api.dispose();
  const { e2eDb } = await import("./fixtures");
  const userId = (await e2eDb()("utilisateur").where({ username: "redacteur" }).first("id")).id as number;
  await expect.poll(() => fs.readFileSync(log).subarray(from).toString("utf8")).toContain(`"path":"${E2E.basePath}home/description/home"`);
  const lines = fs.readFileSync(log).subarray(from).toString("utf8").split("\n").filter((l) => l.startsWith("{"));
  const page = lines.map((l) => JSON.parse(l)).find((l) => l.path === `${E2E.basePath}home/description/home`);
  expect(page).toMatchObject({ method: "GET", status: 200, user: userId, level: "info" });
  expect(typeof page.ms).toBe("number");
  const login = lines.map((l) => JSON.parse(l)).find((l) => l.path === `${E2E.basePath}login` && l.method === "POST");
  expect(login).toMatchObject({ status: 302 });
  const all = lines.join("\n");
  for (const forbidden of [secret, "demo1234", "__sillon_session", "cookie"]) expect(all).not.toContain(forbidden);
});
