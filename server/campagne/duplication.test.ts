import { describe, expect, test } from "vitest";
import { shiftDateByYears } from "./duplication";

describe("shiftDateByYears (dates of copied interventions with majDtInter)", () => {
  test("[A-CAMP-12] an ISO day or timestamp moves by whole years; 29 February becomes 28 February", () => {
    expect(shiftDateByYears("2024-10-15", 1)).toBe("2025-10-15");
    expect(shiftDateByYears("2024-02-29", 1)).toBe("2025-02-28");
    expect(shiftDateByYears("2025-03-01", -1)).toBe("2024-03-01");
    expect(shiftDateByYears("2024-02-29T08:30:00.000Z", 1)).toBe("2025-02-28T08:30:00.000Z");
  });

  test("[A-CAMP-12] a Date (PostgreSQL DATE: local midnight) moves in local time, whatever the time zone", () => {
    const moved = shiftDateByYears(new Date(2024, 1, 29), 1) as Date;
    expect([moved.getFullYear(), moved.getMonth(), moved.getDate(), moved.getHours()]).toEqual([2025, 1, 28, 0]);
    const summer = shiftDateByYears(new Date(2024, 5, 1), 2) as Date;
    expect([summer.getFullYear(), summer.getMonth(), summer.getDate()]).toEqual([2026, 5, 1]);
  });

  test("no shift, no value or an unreadable value is returned as is", () => {
    const d = new Date(2024, 0, 1);
    expect(shiftDateByYears(d, 0)).toBe(d);
    expect(shiftDateByYears(null, 1)).toBeNull();
    expect(shiftDateByYears("pas une date", 1)).toBe("pas une date");
  });
});
