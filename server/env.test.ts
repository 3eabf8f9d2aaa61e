import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { ENV_NAMES } from "./env";

describe("settings", () => {
  test("[issue10-docs] the README's settings table lists exactly the settings of server/env.ts", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Settings"), readme.indexOf("\n## ", readme.indexOf("## Settings") + 1));
    const rows = section.split("\n").filter((l) => l.startsWith("| `"));
    const documented = rows.flatMap((l) => [...l.split("|")[1].matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]));
    expect([...documented].sort()).toEqual([...ENV_NAMES].sort());
  });
});
