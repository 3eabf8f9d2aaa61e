import type { ShouldRevalidateFunctionArgs } from "react-router";
import { describe, expect, test } from "vitest";
import { layoutShouldRevalidate } from "./layout-revalidation";

const base = "http://sillon.test/home/description/au_champs/interventions";
const args = (from: string, to: string, extra: Partial<ShouldRevalidateFunctionArgs> = {}) =>
  ({ currentUrl: new URL(from), nextUrl: new URL(to), currentParams: {}, nextParams: {}, defaultShouldRevalidate: true, ...extra }) as ShouldRevalidateFunctionArgs;

describe("layouts' revalidation (decision 0083)", () => {
  test("[issue11-perf] a move to another address (query or path) does not ask the layouts again", () => {
    expect(layoutShouldRevalidate(args(`${base}?parcelleId=1`, `${base}?parcelleId=1%2C2`))).toBe(false);
    expect(layoutShouldRevalidate(args(`${base}`, `${base}?id=12`))).toBe(false);
    expect(layoutShouldRevalidate(args("http://sillon.test/home/description/exploitation/parcelle", `${base}?parcelleId=3`))).toBe(false);
  });

  test("[issue11-perf] a submission, a revalidation and the same address ask them again as React Router would", () => {
    expect(layoutShouldRevalidate(args(`${base}?parcelleId=1`, `${base}?parcelleId=2`, { formMethod: "POST" }))).toBe(true);
    expect(layoutShouldRevalidate(args(`${base}?parcelleId=1`, `${base}?parcelleId=1`))).toBe(true);
    expect(layoutShouldRevalidate(args(`${base}?parcelleId=1`, `${base}?parcelleId=1`, { defaultShouldRevalidate: false }))).toBe(false);
    expect(layoutShouldRevalidate(args(`${base}`, `${base}?x=1`, { formMethod: "POST", defaultShouldRevalidate: false }))).toBe(false);
  });
});
