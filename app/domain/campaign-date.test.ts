import { describe, expect, test } from "vitest";
import { defaultCampaignDate, todayInParis } from "./campaign-date";
import { withinCampaign } from "./validation";

describe("a new intervention's date", () => {
  test("is today when today lies in the campaign's dates", () => {
    expect(defaultCampaignDate(2026, "2026-12-02")).toBe("2026-12-02");
    expect(defaultCampaignDate(2025, "2026-12-31")).toBe("2026-12-31");
    expect(defaultCampaignDate(2027, "2025-01-01")).toBe("2025-01-01");
  });

  test("is today's day in the harvest year when today is outside the campaign, before or after it", () => {
    expect(defaultCampaignDate(2024, "2026-12-02")).toBe("2024-12-02");
    expect(defaultCampaignDate(2030, "2026-03-15")).toBe("2030-03-15");
    expect(defaultCampaignDate(2023, "2028-02-29")).toBe("2023-02-28");
    expect(defaultCampaignDate(2024, "2028-02-29")).toBe("2024-02-29");
  });

  test("is never outside the campaign, whatever the day", () => {
    for (const year of [2019, 2022, 2024, 2025, 2031]) {
      for (const today of ["2026-01-01", "2026-06-30", "2026-12-31", "2020-02-29"]) expect(withinCampaign(defaultCampaignDate(year, today), year)).toBe(true);
    }
  });

  test("reads today in Paris (23:30 UTC on 31 December is already 1 January there)", () => {
    expect(todayInParis(new Date("2025-12-31T23:30:00Z"))).toBe("2026-01-01");
  });
});
