import { describe, expect, test } from "vitest";
import { MAX_IDS } from "~/domain/validation";
import { queryIds } from "./fields";

const ids = (search: string) => queryIds(new URLSearchParams(search), "parcelleId");

describe("queryIds: the ids of an address", () => {
  test("[C-INT-04] repeated, comma- or underscore-separated (as the interventions screen writes them) give the same ids", () => {
    expect(ids("parcelleId=3&parcelleId=5")).toEqual([3, 5]);
    expect(ids("parcelleId=3,5")).toEqual([3, 5]);
    expect(ids("parcelleId=3_5_8")).toEqual([3, 5, 8]);
    expect(ids(`parcelleId=${encodeURIComponent("3,5")}&parcelleId=8`)).toEqual([3, 5, 8]);
    expect(ids("parcelleId=&autre=1")).toEqual([]);
    expect(ids("parcelleId=3,,5")).toEqual([3, 5]);
  });

  test("[C-INT-04] anything but row ids, or more than the limit, is a 400 naming the parameter", () => {
    for (const bad of ["parcelleId=abc", "parcelleId=3,x", "parcelleId=3_x", "parcelleId=-2", "parcelleId=1.5"]) {
      expect(() => ids(bad), bad).toThrow(expect.objectContaining({ status: 400, fieldErrors: { parcelleId: ["warning.invalid"] } }));
    }
    const many = Array.from({ length: MAX_IDS + 1 }, (_, i) => i + 1).join(",");
    expect(() => ids(`parcelleId=${many}`)).toThrow(expect.objectContaining({ status: 400, fieldErrors: { parcelleId: ["warning.too-many"] } }));
    expect(ids(`parcelleId=${Array.from({ length: MAX_IDS }, (_, i) => i + 1).join(",")}`)).toHaveLength(MAX_IDS);
  });
});
