import { inflateRawSync } from "node:zlib";

import { toIsoDate } from "~/domain/validation";

/**
 * Reading the official open-data files (E-Phy of ANSES, the ministry's IFT reference doses): semicolon CSV
 * in UTF-8 or Windows-1252, sometimes zipped. Pure functions, no database.
 */

// Windows-1252 differs from ISO-8859-1 in 0x80–0x9F (’, œ, €…); Node's decoder without full ICU reads those
// bytes as control characters, so they are mapped here (undefined bytes 0x81, 0x8D, 0x8F, 0x90, 0x9D stay as they are).
const CP1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ";

function decodeWindows1252(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = bytes.subarray(i, i + 8192);
    out += String.fromCharCode(...Array.from(chunk, (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH.charCodeAt(b - 0x80) : b)));
  }
  return out;
}

/** Text of a file: UTF-8 when the bytes are valid UTF-8 (a BOM is dropped), Windows-1252 otherwise. */
export function decodeText(bytes: Uint8Array): { text: string; encoding: "utf-8" | "windows-1252" } {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { text: text.replace(/^\uFEFF/, ""), encoding: "utf-8" };
  } catch {
    return { text: decodeWindows1252(bytes), encoding: "windows-1252" };
  }
}

/** Rows of a semicolon-separated text; quoted fields may hold semicolons, line breaks and doubled quotes. */
export function parseCsv(text: string, separator = ";"): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === "") {
      quoted = true;
      i++;
    } else if (c === separator) {
      row.push(field);
      field = "";
      i++;
    } else if (c === "\r" || c === "\n") {
      row.push(field);
      field = "";
      if (row.length > 1 || row[0] !== "") rows.push(row);
      row = [];
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    if (row.length > 1 || row[0] !== "") rows.push(row);
  }
  return rows;
}

/** A header name reduced to compare: lower case, no accents, only letters and digits ("Etat d’autorisation" → "etatdautorisation"). */
export function normaliseHeader(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** A French or dotted decimal ("1,5", "1.5", " 2 ") as a number; empty or unreadable: null. */
export function parseDecimal(value: string | undefined): number | null {
  if (value == null) return null;
  const t = value.trim().replace(/\s/g, "").replace(",", ".");
  if (t === "") return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** A date of an official file that is written but is no real day (31/02/2017, 99/99/2017): the row is refused. */
export class ImpossibleDate extends Error {
  constructor(readonly value: string) {
    super(`date impossible « ${value} »`);
  }
}

/**
 * A date of an official file, dd/mm/yyyy or yyyy-mm-dd (a time after it, "2017-02-03 00:00:00", is dropped), as
 * yyyy-mm-dd, read by the domain's one date reader (`toIsoDate`: the day must exist). Empty: null. Written but not a
 * real day, or not a date at all: `ImpossibleDate`, so the importer reports the line instead of storing "2017-02-31".
 */
export function parseDate(value: string | undefined): string | null {
  const t = value?.trim() ?? "";
  if (t === "") return null;
  const day = /^(\d{1,2}\/\d{1,2}\/\d{4}|\d{4}-\d{2}-\d{2})(?:[ T].*)?$/.exec(t)?.[1];
  const iso = day ? toIsoDate(day) : null;
  if (iso === null) throw new ImpossibleDate(t);
  return iso;
}

/** The entries of a zip archive (stored or deflated), by name; folders are left out. */
export function unzip(bytes: Uint8Array): Map<string, Uint8Array> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // End of central directory: signature 0x06054b50, within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error("not a zip archive");
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out = new Map<string, Uint8Array>();
  for (let k = 0; k < count; k++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error("damaged zip archive (central directory)");
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const nameLength = buf.readUInt16LE(p + 28);
    const extraLength = buf.readUInt16LE(p + 30);
    const commentLength = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLength).toString("utf8");
    p += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith("/")) continue;
    if (buf.readUInt32LE(local) !== 0x04034b50) throw new Error(`damaged zip archive (${name})`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + compressed);
    if (method === 0) out.set(name, new Uint8Array(data));
    else if (method === 8) out.set(name, new Uint8Array(inflateRawSync(data)));
    else throw new Error(`zip entry ${name}: compression method ${method} not supported`);
  }
  return out;
}
