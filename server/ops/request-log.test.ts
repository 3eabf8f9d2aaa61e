import { describe, expect, test } from "vitest";
import { enabled, requestLine } from "./request-log.js";

describe("request log (issue 16)", () => {
  test("[issue16] one JSON line: time, method, path without the query, status, duration, user", () => {
    const line = requestLine({ time: new Date("2026-11-26T01:00:00.000Z"), method: "POST", path: "/sillon/login", status: 302, ms: 12.345, userId: 7 });
    expect(JSON.parse(line)).toEqual({ t: "2026-11-26T01:00:00.000Z", level: "info", method: "POST", path: "/sillon/login", status: 302, ms: 12.3, user: 7 });
    expect(JSON.parse(requestLine({ time: new Date(), method: "GET", path: "/x", status: 503, ms: 1, userId: null })).level).toBe("error");
  });
  test("[issue16] the level decides: warn writes errors only, debug everything", () => {
    expect(enabled("warn", "info")).toBe(false);
    expect(enabled("warn", "error")).toBe(true);
    expect(enabled("info", "info")).toBe(true);
    expect(enabled("debug", "debug")).toBe(true);
    expect(enabled("error", "warn")).toBe(false);
  });
});
