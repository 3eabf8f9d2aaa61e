#!/usr/bin/env node
// Builds the user documentation PDFs served by the documentation routes.
//
//   docs/user/<locale>/<name>.md  ->  public/docs/<locale>/<name>.pdf
//
// No dependency: the PDF (version 1.4) is written by hand with the standard Type1 fonts
// Helvetica and Helvetica-Bold in WinAnsiEncoding (cp1252), so French accents need no
// embedded font. Only a small markdown subset is understood:
//   "# title", "## heading", "- bullet", paragraphs separated by blank lines.
// Output is deterministic (no dates), so regenerating unchanged sources gives identical files.
//
// Usage: node scripts/build-doc-pdfs.mjs

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const LOCALES = ["fr", "en"];
export const NAMES = ["notice", "guide", "cgu", "prise-en-main", "faq", "agroforestry", "material-guide", "survey-protocol"];

// ---------------------------------------------------------------------------------------------
// Page geometry (points) and typography
const PAGE_W = 595.28; // A4
const PAGE_H = 841.89;
const MARGIN_X = 62;
const TOP = PAGE_H - 64; // baseline limit of the first line
const BOTTOM = 70; // lowest baseline of body text
const TEXT_W = PAGE_W - 2 * MARGIN_X;

const STYLE = {
  h1: { font: "F2", size: 19, leading: 24, before: 0, after: 14 },
  h2: { font: "F2", size: 12.5, leading: 16, before: 12, after: 5 },
  p: { font: "F1", size: 10, leading: 14, before: 0, after: 7 },
  li: { font: "F1", size: 10, leading: 14, before: 0, after: 3 },
};
const BULLET_INDENT = 14; // text of a bullet starts here, the bullet sign sits at 3
const HEADING_RGB = "0.16 0.36 0.22"; // Sillon green
const MUTED_RGB = "0.42 0.42 0.42";

const LABELS = {
  fr: { header: "Sillon – Documentation utilisateur", page: (n, total) => `Page ${n} sur ${total}` },
  en: { header: "Sillon – User documentation", page: (n, total) => `Page ${n} of ${total}` },
};

// ---------------------------------------------------------------------------------------------
// WinAnsiEncoding (cp1252)
const CP1252_HIGH = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};
// Characters outside cp1252 that have an obvious stand-in.
const SUBSTITUTES = { "\u202f": "\u00a0", "\u2009": " ", "\u2212": "\u2013", "\u2011": "-", "\u2010": "-" };

/**
 * French typography: no line break before ; : ! ? » € % or after «, inside numbers written
 * with thin groups (1 000 000) nor between a number and its unit. Uses U+00A0 (WinAnsi 0xA0).
 */
export function keepTogether(text) {
  return text
    .replace(/ (?=[;:!?\u00bb€%])/g, "\u00a0")
    .replace(/\u00ab /g, "\u00ab\u00a0")
    .replace(/(\d) (?=\d{3}(?!\d))/g, "$1\u00a0")
    .replace(/(\d) (?=(?:ha|kg|L|t|g|h|MJ|mm|m³|ans|years|hours|heures|h\/an)(?![\p{L}\d]))/gu, "$1\u00a0");
}

/** Encodes a JS string into a "binary" string (one char per cp1252 byte). Throws on unknown characters. */
export function toWinAnsi(text, where = "") {
  let out = "";
  for (const raw of text) {
    const ch = SUBSTITUTES[raw] ?? raw;
    const code = ch.codePointAt(0);
    if (code === 0x09) out += " ";
    else if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) out += String.fromCharCode(code);
    else if (CP1252_HIGH[code] !== undefined) out += String.fromCharCode(CP1252_HIGH[code]);
    else throw new Error(`Character U+${code.toString(16).padStart(4, "0")} (${raw}) has no WinAnsi code ${where}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Helvetica metrics (AFM widths, 1/1000 em) for ASCII; accented letters take their base letter's width.
const ASCII = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";
// prettier-ignore
const W_REGULAR = [278,278,355,556,556,889,667,191,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,278,278,584,584,584,556,1015,667,667,722,722,667,611,778,722,278,500,667,556,833,722,778,667,778,722,667,611,722,667,944,667,667,611,278,278,278,469,556,333,556,556,500,556,556,278,556,556,222,222,500,222,833,556,556,556,556,333,500,278,556,500,722,500,500,500,334,260,334,584];
// prettier-ignore
const W_BOLD = [278,333,474,556,556,889,722,238,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,333,333,584,584,584,611,975,722,722,722,722,667,611,778,722,278,556,722,611,833,722,778,667,778,722,667,611,722,667,944,667,667,611,333,278,333,584,556,333,556,611,556,611,556,333,611,611,278,278,556,278,889,611,611,611,611,389,556,333,611,556,778,556,556,500,389,280,389,584];
// High cp1252 bytes: [regular, bold]
const HIGH_WIDTHS = {
  0x80: [556, 556],
  0x85: [1000, 1000],
  0x8c: [1000, 1000],
  0x91: [222, 278],
  0x92: [222, 278],
  0x93: [333, 500],
  0x94: [333, 500],
  0x95: [350, 350],
  0x96: [556, 556],
  0x97: [1000, 1000],
  0x99: [1000, 1000],
  0x9b: [333, 333],
  0x8b: [333, 333],
  0x9c: [944, 944],
  0xa0: [278, 278],
  0xab: [556, 556],
  0xbb: [556, 556],
  0xb0: [400, 400],
  0xb2: [333, 333],
  0xb3: [333, 333],
  0xb7: [278, 278],
  0xd7: [584, 584],
  0xf7: [584, 584],
  0xa7: [556, 556],
  0xc6: [1000, 1000],
  0xe6: [889, 889],
};

function widthTable(ascii, bold) {
  if (ascii.length !== ASCII.length) throw new Error("ASCII width table must cover 0x20..0x7E");
  const table = new Array(256).fill(bold ? 611 : 556);
  for (let i = 0; i < ASCII.length; i++) table[ASCII.charCodeAt(i)] = ascii[i];
  // Latin-1 letters: width of the unaccented letter.
  const base = "AAAAAA*CEEEEIIIIDNOOOOO*OUUUUYPsaaaaaa*ceeeeiiiidnooooo/ouuuuypy"; // 0xC0..0xFF
  for (let i = 0; i < base.length; i++) {
    const code = 0xc0 + i;
    const b = base[i];
    if (b !== "*" && b !== "/") table[code] = table[b.charCodeAt(0)];
  }
  if (base.length !== 64) throw new Error("Latin-1 width map must cover 0xC0..0xFF");
  table[0xdf] = 611; // germandbls
  for (const [code, [r, bo]] of Object.entries(HIGH_WIDTHS)) table[Number(code)] = bold ? bo : r;
  return table;
}
const WIDTHS = { F1: widthTable(W_REGULAR, false), F2: widthTable(W_BOLD, true) };

/** Width in points of a WinAnsi string. */
function textWidth(bin, font, size) {
  const table = WIDTHS[font];
  let w = 0;
  for (let i = 0; i < bin.length; i++) w += table[bin.charCodeAt(i)];
  return (w * size) / 1000;
}

/** Greedy word wrap of a WinAnsi string; words longer than a line are cut. */
function wrap(bin, font, size, maxWidth) {
  const words = bin.split(" ").filter((w) => w.length > 0);
  const lines = [];
  let line = "";
  for (let word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (textWidth(candidate, font, size) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    while (textWidth(word, font, size) > maxWidth) {
      let cut = word.length - 1;
      while (cut > 1 && textWidth(word.slice(0, cut), font, size) > maxWidth) cut--;
      lines.push(word.slice(0, cut));
      word = word.slice(cut);
    }
    line = word;
  }
  if (line) lines.push(line);
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Markdown subset -> blocks
export function parseMarkdown(md) {
  const blocks = [];
  let para = null;
  const flush = () => {
    if (para) blocks.push(para);
    para = null;
  };
  for (const rawLine of md.replace(/\r\n?/g, "\n").split("\n")) {
    const line = rawLine.trim();
    if (!line) {
      flush();
      continue;
    }
    const clean = (s) => s.replace(/\*\*|__|`/g, "").trim();
    if (line.startsWith("## ")) {
      flush();
      blocks.push({ type: "h2", text: clean(line.slice(3)) });
    } else if (line.startsWith("# ")) {
      flush();
      blocks.push({ type: "h1", text: clean(line.slice(2)) });
    } else if (line.startsWith("- ")) {
      flush();
      para = { type: "li", text: clean(line.slice(2)) };
    } else if (para) {
      para.text += ` ${clean(line)}`; // continuation of a paragraph or bullet
    } else {
      para = { type: "p", text: clean(line) };
    }
  }
  flush();
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Layout: blocks -> pages of positioned lines
function layout(blocks, where) {
  const pages = [];
  let page = [];
  let y = TOP;
  const newPage = () => {
    pages.push(page);
    page = [];
    y = TOP;
  };
  blocks.forEach((block, index) => {
    const st = STYLE[block.type];
    const indent = block.type === "li" ? BULLET_INDENT : 0;
    const lines = wrap(toWinAnsi(keepTogether(block.text), where), st.font, st.size, TEXT_W - indent);
    const atTop = y === TOP;
    if (!atTop) y -= st.before;
    if (!atTop && block.type === "p" && blocks[index - 1]?.type === "li") y -= STYLE.p.after - STYLE.li.after;
    // Keep a heading with at least two lines of what follows; avoid a lone first line of a block.
    const next = blocks[index + 1];
    const keep = block.type === "h2" && next ? st.leading + 2 * STYLE[next.type].leading + st.after : st.leading * Math.min(lines.length, 2);
    if (!atTop && y - keep < BOTTOM - 0.01) newPage();
    lines.forEach((text, i) => {
      if (y < BOTTOM - 0.01) newPage();
      page.push({ x: MARGIN_X + indent, y, font: st.font, size: st.size, text, kind: block.type });
      if (block.type === "li" && i === 0) page.push({ x: MARGIN_X + 3, y, font: "F1", size: st.size, text: "\x95", kind: "bullet" });
      if (block.type === "h1") page.push({ rule: true, y: y - 7 });
      y -= st.leading;
    });
    y -= st.after;
  });
  if (page.length) pages.push(page);
  return pages;
}

// ---------------------------------------------------------------------------------------------
// PDF writing
const escapePdf = (bin) => bin.replace(/[\\()]/g, (c) => `\\${c}`);
const num = (n) => (Math.round(n * 100) / 100).toString();

/** UTF-16BE hex string with BOM, for the document information dictionary. */
function pdfTextString(text) {
  let hex = "FEFF";
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, "0").toUpperCase();
  return `<${hex}>`;
}

function pageContent(items, pageNo, total, locale, title) {
  const out = [];
  const labels = LABELS[locale];
  for (const item of items) {
    if (item.rule) {
      out.push(`q ${HEADING_RGB} RG 0.8 w ${num(MARGIN_X)} ${num(item.y)} m ${num(PAGE_W - MARGIN_X)} ${num(item.y)} l S Q`);
      continue;
    }
    const color = item.kind === "h1" || item.kind === "h2" ? HEADING_RGB : "0 0 0";
    out.push(`BT /${item.font} ${num(item.size)} Tf ${color} rg ${num(item.x)} ${num(item.y)} Td (${escapePdf(item.text)}) Tj ET`);
  }
  // Running header (from page 2) and footer with page numbers.
  const small = 8;
  if (pageNo > 1) {
    const head = toWinAnsi(`${labels.header} – ${title}`);
    out.push(`BT /F1 ${small} Tf ${MUTED_RGB} rg ${num(MARGIN_X)} ${num(PAGE_H - 38)} Td (${escapePdf(head)}) Tj ET`);
  }
  out.push(`q ${MUTED_RGB} RG 0.4 w ${num(MARGIN_X)} 52 m ${num(PAGE_W - MARGIN_X)} 52 l S Q`);
  const left = toWinAnsi(labels.header);
  const right = toWinAnsi(labels.page(pageNo, total));
  out.push(`BT /F1 ${small} Tf ${MUTED_RGB} rg ${num(MARGIN_X)} 40 Td (${escapePdf(left)}) Tj ET`);
  const rx = PAGE_W - MARGIN_X - textWidth(right, "F1", small);
  out.push(`BT /F1 ${small} Tf ${MUTED_RGB} rg ${num(rx)} 40 Td (${escapePdf(right)}) Tj ET`);
  return `${out.join("\n")}\n`;
}

/** Builds the PDF bytes for one markdown document. */
export function buildPdf(markdown, locale, where = "") {
  const blocks = parseMarkdown(markdown);
  const title = blocks.find((b) => b.type === "h1")?.text ?? "Sillon";
  const pages = layout(blocks, where);

  // Object numbers: 1 catalog, 2 pages, 3 F1, 4 F2, 5 info, then (page, content) pairs.
  const objects = [];
  const pageIds = pages.map((_, i) => 6 + 2 * i);
  objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`;
  objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
  objects[4] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>";
  objects[5] = `<< /Title ${pdfTextString(title)} /Author ${pdfTextString("Sillon")} /Producer ${pdfTextString("Sillon build-doc-pdfs")} >>`;
  pages.forEach((items, i) => {
    const pageId = pageIds[i];
    const stream = pageContent(items, i + 1, pages.length, locale, title);
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(PAGE_W)} ${num(PAGE_H)}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> /ProcSet [/PDF /Text] >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}endstream`;
  });

  // Everything is a "binary" string: one JS char per byte, so lengths are byte offsets.
  let pdf = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = pdf.length;
    pdf += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefAt = pdf.length;
  pdf += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) pdf += `${String(offsets[id]).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return { bytes: Buffer.from(pdf, "latin1"), pages: pages.length, title };
}

function main() {
  let failed = false;
  for (const locale of LOCALES) {
    const outDir = join(ROOT, "public", "docs", locale);
    mkdirSync(outDir, { recursive: true });
    for (const name of NAMES) {
      const src = join(ROOT, "docs", "user", locale, `${name}.md`);
      try {
        const { bytes, pages } = buildPdf(readFileSync(src, "utf8"), locale, `in ${src}`);
        writeFileSync(join(outDir, `${name}.pdf`), bytes);
        console.log(`public/docs/${locale}/${name}.pdf  ${pages} page(s), ${bytes.length} bytes`);
      } catch (err) {
        failed = true;
        console.error(`${locale}/${name}: ${err.message}`);
      }
    }
  }
  if (failed) process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
