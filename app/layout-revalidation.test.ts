import type { ShouldRevalidateFunctionArgs } from "react-router";
import { describe, expect, test } from "vitest";
import { layoutShouldRevalidate } from "./layout-revalidation";

const base = "http://sillon.test/home/description/au_champs/interventions";
const args = (from: string, to: string, extra: Partial<ShouldRevalidateFunctionArgs> = {}) =>
  ({
    currentUrl: new URL(from),
    nextUrl: new URL(to),
    currentParams: {},
    nextParams: {},
    defaultShouldRevalidate: true,
    ...extra,
  }) as ShouldRevalidateFunctionArgs;

describe("layouts' revalidation (decision 0083)", () => {
  test("[issue11-perf] a change of the query alone on the same screen does not ask the layouts again", () => {
    expect(layoutShouldRevalidate(args(`${base}?parcelleId=1`, `${base}?parcelleId=1_2`))).toBe(false);
    expect(layoutShouldRevalidate(args(`${base}`, `${base}?id=12`))).toBe(false);
  });

  test("[A-ROUTE-30] a move to another path, a submission, a revalidation and the same address ask them as React Router would", () => {
    expect(layoutShouldRevalidate(args("http://sillon.test/home/description/exploitation/parcelle", `${base}?parcelleId=3`))).toBe(true);
    expect(layoutShouldRevalidate(args(`${base}?parcelleId=1`, "http://sillon.test/home/documentation/faq"))).toBe(true);
    expect(layoutShouldRevalidate(args(`${base}?parcelleId=1`, `${base}?parcelleId=2`, { formMethod: "POST" }))).toBe(true);
    expect(layoutShouldRevalidate(args(`${base}?parcelleId=1`, `${base}?parcelleId=1`))).toBe(true);
    expect(layoutShouldRevalidate(args(`${base}?parcelleId=1`, `${base}?parcelleId=1`, { defaultShouldRevalidate: false }))).toBe(false);
    expect(layoutShouldRevalidate(args(`${base}`, "http://sillon.test/home/description/home", { defaultShouldRevalidate: false }))).toBe(false);
  });
});
