import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { CHUNK_SIZE, inChunks } from "./chunks";

describe("inChunks", () => {
  it("cuts a list into slices of the chunk size, the last one shorter", () => {
    const ids = Array.from({ length: 2 * CHUNK_SIZE + 3 }, (_, i) => i);
    expect(inChunks(ids).map((c) => c.length)).toEqual([CHUNK_SIZE, CHUNK_SIZE, 3]);
    expect(inChunks([])).toEqual([]);
    expect(inChunks([1, 2, 3], 2)).toEqual([[1, 2], [3]]);
  });

  it("refuses a size that would never end", () => {
    expect(() => inChunks([1], 0)).toThrow(RangeError);
  });

  test.prop([fc.array(fc.integer()), fc.integer({ min: 1, max: 50 })])("keeps every item once, in order, no slice over the size", (items, size) => {
    const chunks = inChunks(items, size);
    expect(chunks.flat()).toEqual(items);
    expect(chunks.every((c) => c.length >= 1 && c.length <= size)).toBe(true);
  });
});
