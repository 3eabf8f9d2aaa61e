import { describe, expect, test } from "vitest";
import { basePath, withinBasePath } from "./base-path";

describe("base path", () => {
  test("BASE_PATH is normalised", () => {
    expect(basePath("sillon")).toBe("/sillon/");
    expect(basePath("/sillon/")).toBe("/sillon/");
    expect(basePath("")).toBe("/");
  });

  test("[A-ROUTE-01] a middleware's redirect stays inside the base path", () => {
    const moved = withinBasePath(new Response(null, { status: 302, headers: { Location: "/login" } }), "/sillon/") as Response;
    expect(moved.status).toBe(302);
    expect(moved.headers.get("Location")).toBe("/sillon/login");
    const already = new Response(null, { status: 302, headers: { Location: "/sillon/cgu" } });
    expect(withinBasePath(already, "/sillon/")).toBe(already);
    const external = new Response(null, { status: 302, headers: { Location: "https://example.org/x" } });
    expect(withinBasePath(external, "/sillon/")).toBe(external);
    const error = new Error("x");
    expect(withinBasePath(error, "/sillon/")).toBe(error);
    const root = new Response(null, { status: 302, headers: { Location: "/login" } });
    expect(withinBasePath(root, "/")).toBe(root);
  });
});
