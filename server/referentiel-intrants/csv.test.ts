import { describe, expect, test } from "vitest";
import { ImpossibleDate, parseDate } from "./csv";

// The importer's dates go through the domain's one date reader (toIsoDate, app/domain/validation.ts), issue 28.
describe("dates of the official files", () => {
  test("real days are kept, in either spelling, with or without a time after them", () => {
    expect(parseDate("30/09/2017")).toBe("2017-09-30");
    expect(parseDate("1/2/2017")).toBe("2017-02-01");
    expect(parseDate("2017-09-30")).toBe("2017-09-30");
    expect(parseDate("2017-09-30 00:00:00")).toBe("2017-09-30");
    expect(parseDate("29/02/2024")).toBe("2024-02-29");
    expect(parseDate(" 30/09/2017 ")).toBe("2017-09-30");
  });

  test("an empty cell is no date", () => {
    expect(parseDate(undefined)).toBeNull();
    expect(parseDate("")).toBeNull();
    expect(parseDate("   ")).toBeNull();
  });

  test("impossible days are refused, never rolled over nor stored as written", () => {
    for (const value of ["31/02/2017", "99/99/2017", "29/02/2023", "2017-02-31", "2017-13-01", "00/01/2017", "demain", "2017-9-30x"]) {
      expect(() => parseDate(value), value).toThrow(ImpossibleDate);
    }
    expect(() => parseDate("31/02/2017")).toThrow("date impossible « 31/02/2017 »");
  });
});
