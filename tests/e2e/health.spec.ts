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
