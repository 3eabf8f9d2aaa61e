// The documentation routes show static PDFs arranged by locale: public/docs/<locale>/<name>.pdf.
// They are generated from docs/user/<locale>/<name>.md by scripts/build-doc-pdfs.mjs.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const LOCALES = ["fr", "en"];
const NAMES = ["notice", "guide", "cgu", "prise-en-main", "faq", "agroforestry", "material-guide", "survey-protocol"];

/** Reads the classic cross-reference table the trailer points to: object number -> byte offset. */
function xrefOffsets(pdf: string): Map<number, number> {
  const start = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(pdf);
  if (!start) throw new Error("no startxref before %%EOF");
  let pos = Number(start[1]);
  expect(pdf.startsWith("xref", pos)).toBe(true);
  pos += 4;
  const lines = pdf
    .slice(pos)
    .split(/\r?\n|\r/)
    .map((l) => l.trim());
  const offsets = new Map<number, number>();
  let i = 0;
  while (i < lines.length && lines[i] !== "trailer") {
    if (lines[i] === "") {
      i++;
      continue;
    }
    const header = /^(\d+) (\d+)$/.exec(lines[i]);
    if (!header) throw new Error(`bad xref subsection header: ${lines[i]}`);
    const first = Number(header[1]);
    const count = Number(header[2]);
    for (let k = 0; k < count; k++) {
      const entry = /^(\d{10}) (\d{5}) ([nf])$/.exec(lines[i + 1 + k]);
      if (!entry) throw new Error(`bad xref entry: ${lines[i + 1 + k]}`);
      if (entry[3] === "n") offsets.set(first + k, Number(entry[1]));
    }
    i += 1 + count;
  }
  return offsets;
}

describe("[A-DOC-05] documentation PDFs are static files arranged by locale", () => {
  for (const locale of LOCALES) {
    for (const name of NAMES) {
      it(`[A-DOC-05] public/docs/${locale}/${name}.pdf is a well-formed PDF 1.4`, () => {
        const file = join(process.cwd(), "public", "docs", locale, `${name}.pdf`);
        expect(existsSync(file), `${file} is missing: run node scripts/build-doc-pdfs.mjs`).toBe(true);
        const pdf = readFileSync(file).toString("latin1");
        expect(pdf.startsWith("%PDF-1.4")).toBe(true);
        expect(pdf.trimEnd().endsWith("%%EOF")).toBe(true);

        const offsets = xrefOffsets(pdf);
        expect(offsets.size).toBeGreaterThan(0);
        for (const [id, offset] of offsets) {
          expect(pdf.startsWith(`${id} 0 obj`, offset), `object ${id} at byte ${offset}`).toBe(true);
        }
        expect(pdf).toMatch(/\/Type\s*\/Catalog/);
        expect(pdf).toMatch(/\/Encoding\s*\/WinAnsiEncoding/);
      });
    }
  }
});
