#!/usr/bin/env node
/**
 * Builds the geographic reference lists under seeds/reference/ from files the project has offline:
 *  - commune.json and departement.json from the devDependency @etalab/decoupage-administratif
 *    (COG INSEE + La Poste "base officielle des codes postaux"; data under Licence Ouverte 2.0);
 *  - pays.json from the ISO 3166-1 alpha-2 codes, named in French and English by Node's ICU (CLDR).
 *
 * Run after upgrading the package (a new "millésime"): `node scripts/build-reference-communes.mjs`.
 * The output is committed; the app never reads the package at run time.
 *
 * Ids are derived from the codes, so that they stay the same from one millésime to the next
 * (the seed loader upserts by id):
 *  - commune: the INSEE code as a number; Corsica 2Axxx → 20000 + xxx, 2Bxxx → 20500 + xxx
 *    (no current commune code starts with 20);
 *  - departement: the code as a number; 2A → 201, 2B → 202;
 *  - pays: France keeps the spec's id 26; any other country is 1000 + (letter1 − A) × 26 + (letter2 − A).
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "seeds", "reference");
const pkg = require("@etalab/decoupage-administratif/package.json");
const communes = require("@etalab/decoupage-administratif/data/communes.json");
const departements = require("@etalab/decoupage-administratif/data/departements.json");

const today = new Date().toISOString().slice(0, 10);
const sourcePkg = `@etalab/decoupage-administratif ${pkg.version} (npm; millésime ${millesime(pkg.version)}), built from the Code officiel géographique (INSEE) and the base officielle des codes postaux (La Poste, data.gouv.fr)`;

function millesime(version) {
  const major = Number(version.split(".")[0]);
  return major >= 1 ? String(2020 + major) : "before 2021";
}

export function communeId(code) {
  if (/^\d{5}$/.test(code)) return Number(code);
  const m = /^2([AB])(\d{3})$/.exec(code);
  if (m) return 20000 + (m[1] === "B" ? 500 : 0) + Number(m[2]);
  throw new Error(`unexpected INSEE code ${code}`);
}

export function departementId(code) {
  if (code === "2A") return 201;
  if (code === "2B") return 202;
  if (/^\d{2,3}$/.test(code)) return Number(code);
  throw new Error(`unexpected department code ${code}`);
}

export function paysId(iso2) {
  if (iso2 === "FR") return 26;
  return 1000 + (iso2.charCodeAt(0) - 65) * 26 + (iso2.charCodeAt(1) - 65);
}

/** One JSON file, one row per line: small diffs when a new millésime changes a few rows. */
function write(file, head, rows) {
  const lines = rows.map((r) => `    ${JSON.stringify(r)}`);
  const body = JSON.stringify({ ...head, rows: undefined }, null, 2).replace(/\n}$/, `,\n  "rows": [\n${lines.join(",\n")}\n  ]\n}\n`);
  fs.writeFileSync(path.join(outDir, file), body);
  const size = fs.statSync(path.join(outDir, file)).size;
  console.log(`${file}: ${rows.length} rows, ${(size / 1e6).toFixed(2)} MB`);
  if (size > 10e6) throw new Error(`${file} is over 10 MB`);
}

// Departments: the 101 departments plus the overseas collectivities that the COG lists with a code.
const deptRows = departements
  .map((d) => ({ id: departementId(d.code), numDept: d.code, lbl: d.nom, codeRegion: d.region }))
  .sort((a, b) => a.numDept.localeCompare(b.numDept));
const deptCodes = new Set(deptRows.map((d) => d.numDept));

// Communes: the current communes only ("commune-actuelle"; delegated and associated communes and
// municipal arrondissements are parts of one). The few without any postal code (the districts of
// the French Southern Territories) are left out: nobody farms there and cp is required.
const communeRows = communes
  .filter((c) => c.type === "commune-actuelle" && (c.codesPostaux ?? []).length > 0)
  .map((c) => {
    if (!deptCodes.has(c.departement)) throw new Error(`commune ${c.code}: unknown department ${c.departement}`);
    const cps = [...new Set(c.codesPostaux)].sort();
    return { id: communeId(c.code), ci: c.code, cp: cps[0], codesPostaux: cps.join(","), lbl: c.nom, numDept: c.departement };
  })
  .sort((a, b) => a.id - b.id);
if (new Set(communeRows.map((c) => c.id)).size !== communeRows.length) throw new Error("commune ids collide");

write(
  "departement.json",
  {
    table: "departement",
    source: `${sourcePkg}. Departments and overseas collectivities with their INSEE code (num_dept) and region code.`,
    licence: "Licence Ouverte 2.0 (Etalab) for the data; the package's code is MIT",
    date: today,
    confidence: "high: official lists, copied without change",
  },
  deptRows,
);

write(
  "commune.json",
  {
    table: "commune",
    dependsOn: ["departement"],
    source: `${sourcePkg}. Current communes (type commune-actuelle) with INSEE code (ci), name (lbl), department (num_dept) and postal codes: cp is the first in order, codes_postaux lists all of them, comma-separated. The package has no coordinates, so lat and lon are left empty (null).`,
    licence: "Licence Ouverte 2.0 (Etalab) for the data; the package's code is MIT",
    date: today,
    confidence: "high for codes, names and postal codes (official lists); lat/lon not provided",
  },
  communeRows,
);

// Countries: ISO 3166-1 alpha-2 assigned codes. Node's ICU also knows reserved, withdrawn and
// non-ISO codes (EU, UN, XK, SU, …): they are left out by this list.
const notIso = new Set("AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB XK YD YU ZR ZZ".split(" "));
const fr = new Intl.DisplayNames(["fr"], { type: "region", fallback: "none" });
const en = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
const paysRows = [];
for (let a = 65; a <= 90; a++) {
  for (let b = 65; b <= 90; b++) {
    const iso2 = String.fromCharCode(a, b);
    const libelle = fr.of(iso2);
    if (!libelle || libelle === iso2 || notIso.has(iso2)) continue;
    paysRows.push({ id: paysId(iso2), codeIso: iso2, libelle, libelleEn: en.of(iso2) });
  }
}
if (paysRows.length !== 249) throw new Error(`expected the 249 ISO 3166-1 countries, got ${paysRows.length}`);
paysRows.sort((a, b) => a.libelle.localeCompare(b.libelle, "fr"));

write(
  "pays.json",
  {
    table: "pays",
    source: `ISO 3166-1 alpha-2 country codes (249 assigned codes), with French and English names from the Unicode CLDR as shipped in Node.js ${process.versions.node} (ICU ${process.versions.icu}). France has the spec's fixed id 26 (spec 2 §4, §9); the other ids are derived from the ISO code (1000 + letter positions) so that they never change.`,
    licence: "ISO 3166-1 codes are public; CLDR data: Unicode License v3",
    date: today,
    confidence: "high for codes and names; only France's id is given by the spec",
  },
  paysRows,
);
