import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import en from "~/locales/en/calcul-serie";
import fr from "~/locales/fr/calcul-serie";

/** Every remark code an explanation may carry (the engine's `.remarque("…")`, the IFT warnings, the series' own). */
function codes(): string[] {
  const dir = "app/domain/calc/indicateurs";
  const found = new Set<string>(["AV1", "AV2", "AV3", "AV4", "AV12"]);
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))) {
    for (const m of readFileSync(join(dir, name), "utf8").matchAll(/\.remarque\("([^"]+)"\)/g)) found.add(m[1]!);
  }
  const serie = readFileSync("server/calcul-serie/service.ts", "utf8").match(/REMARQUE_DONNEES_MODIFIEES = "([^"]+)"/);
  found.add(serie![1]!);
  return [...found].sort();
}

describe("explanation remarks", () => {
  test("every remark code has a text in French and in English (the explanation shows the text, never the code)", () => {
    const all = codes();
    expect(all.length).toBeGreaterThan(6);
    for (const texts of [fr, en]) {
      const known = (texts as { "calcul-serie": { "remarques-textes": Record<string, string> } })["calcul-serie"]["remarques-textes"];
      expect(all.filter((c) => !known[c])).toEqual([]);
    }
  });
});
