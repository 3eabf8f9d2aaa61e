import { describe, expect, test } from "vitest";
import { isOkAnswer, isStaleAnswer, staleFields } from "./stale-form";

const labels = [
  { name: "date", label: "Date" },
  { name: "frequence", label: "Fréquence" },
  { name: "realisee", label: "Réalisée" },
];

describe("a stale form shows both values (issue 29)", () => {
  test("lists the fields whose typed value differs from the other user's, in the form's order", () => {
    expect(staleFields({ date: "15/03/2025", frequence: "2", realisee: "on" }, { date: "15/03/2025", frequence: "3", realisee: undefined }, labels)).toEqual([
      { name: "frequence", label: "Fréquence", mine: "2", theirs: "3" },
      { name: "realisee", label: "Réalisée", mine: "on", theirs: "" },
    ]);
  });

  test("an empty field equals a missing one, spaces aside; fields the form does not show are not compared", () => {
    expect(staleFields({ date: " 15/03/2025 ", frequence: "", other: "x" }, { date: "15/03/2025", other: "y" }, labels)).toEqual([]);
  });

  test("values are said as the form shows them", () => {
    const say = (name: string, v: string) => (name === "realisee" ? (v ? "oui" : "non") : v);
    expect(staleFields({ realisee: "on" }, {}, labels, say)).toEqual([{ name: "realisee", label: "Réalisée", mine: "oui", theirs: "non" }]);
  });

  test("only a refusal as stale counts", () => {
    expect(isStaleAnswer({ ok: false, error: "errors.stale" })).toBe(true);
    expect([{ ok: true }, { ok: false, error: "errors.forbidden" }, undefined, "errors.stale"].map(isStaleAnswer)).toEqual([false, false, false, false]);
  });

  test("[issue10] a save that went through is told from a refusal and from no answer", () => {
    expect([{ ok: true, id: 3 }, { ok: false, error: "errors.stale" }, undefined, null, "ok"].map(isOkAnswer)).toEqual([true, false, false, false, false]);
  });
});
