import { describe, expect, it } from "vitest";
import { typeKeys } from "./type-ahead";

describe("typeKeys", () => {
  it("appends the characters typed while the editor was opening", () => {
    expect(typeKeys("0", [",", "5"])).toEqual({ text: "0,5" });
  });
  it("applies Backspace to the text", () => {
    expect(typeKeys("1", ["2", "Backspace", "5"])).toEqual({ text: "15" });
  });
  it("stops at Enter or Tab and says which key commits the editor", () => {
    expect(typeKeys("1", ["2", "Enter", "9"])).toEqual({ text: "12", finish: "Enter" });
    expect(typeKeys("", ["Tab"])).toEqual({ text: "", finish: "Tab" });
  });
});
