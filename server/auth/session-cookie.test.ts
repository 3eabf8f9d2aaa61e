import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { cookieValue, fastSignedCookie, unsignCookieValue } from "./session";

// Decision 0082: the session cookie's signature is checked with node:crypto; it must answer as React Router's own
// WebCrypto check does, for the cookies the server writes and for altered ones.
const options = { httpOnly: true, sameSite: "lax" as const, path: "/", secrets: ["s3cret-0123456789"], maxAge: 3600 };
const reference = createCookie("__sillon_session", options);
const fast = fastSignedCookie("__sillon_session", options);
const pairOf = (setCookie: string) => setCookie.split(";")[0];

describe("session cookie checked with node:crypto (decision 0082)", () => {
  it("reads the value React Router signed, as React Router reads it", async () => {
    for (const id of ["a1b2c3", "é-ü-€ ünicode", "x".repeat(48)]) {
      const header = `lng=fr; ${pairOf(await reference.serialize(id))}; other=1`;
      expect(await fast.parse(header)).toBe(id);
      expect(await fast.parse(header)).toEqual(await reference.parse(header));
    }
  });

  it("refuses a value signed with another secret, or altered, or unsigned, as React Router does", async () => {
    const good = decodeURIComponent(
      pairOf(await reference.serialize("a1b2c3"))
        .split("=")
        .slice(1)
        .join("="),
    );
    const other = pairOf(await createCookie("__sillon_session", { ...options, secrets: ["another"] }).serialize("a1b2c3"));
    const [value, hash] = [good.slice(0, good.lastIndexOf(".")), good.slice(good.lastIndexOf(".") + 1)];
    const forged = [
      other,
      `__sillon_session=${btoa('"zzz"')}.${hash}`,
      `__sillon_session=${value}.${hash.slice(0, -2)}`,
      `__sillon_session=${value}.${hash}x`,
      `__sillon_session=${value}.!!notbase64`,
      `__sillon_session=${value}`,
      `__sillon_session=${value}.`,
      "__sillon_session=",
      "__sillon_session",
      "",
    ];
    for (const header of forged) {
      expect(await fast.parse(header), header).toEqual(await reference.parse(header));
      const parsed = await fast.parse(header);
      expect(parsed === null || parsed === "", header).toBe(true);
    }
    expect(unsignCookieValue(`${value}.${hash}`, ["wrong", options.secrets[0]])).toBe("a1b2c3");
  });

  it("writes the same cookie as React Router", async () => {
    const expires = new Date(Date.UTC(2030, 0, 1));
    expect(await fast.serialize("a1b2c3", { expires, maxAge: undefined })).toBe(await reference.serialize("a1b2c3", { expires, maxAge: undefined }));
  });

  it("reads a cookie header as React Router's parser does: first pair, trimmed, %-decoded", () => {
    expect(cookieValue(" a = 1 ;a=2; b=x%3Dy", "a")).toBe("1");
    expect(cookieValue("a=1; b=x%3Dy", "b")).toBe("x=y");
    expect(cookieValue("b=%E0%A4%A", "b")).toBe("%E0%A4%A");
    expect(cookieValue("junk; b=2", "b")).toBe("2");
    expect(cookieValue("a=1", "b")).toBeUndefined();
  });
});
