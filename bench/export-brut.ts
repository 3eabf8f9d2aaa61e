// Benchmark of the export writer (issue 14, decision 0052): a raw-data sheet of LIGNES_MAX_EXPORT (1,048,575) rows
// shaped as the interventions group (farm, campaign, year, plot, date, operation, crop, two booleans, four numbers,
// an event text; one row in 500 has user text starting with "=") written through server/exports/classeur.ts, against
// exceljs' streaming WorkbookWriter given the same cells bare (addRow + commit, no types, no checks). Each variant
// runs in a child process of its own so that its peak RSS is its own; both in the same run. Markdown rows for
// docs/performance.md. Goals: the writer within 1.3 times the bare time, peak RSS at most 300 MB.
//
//   node --import tsx bench/export-brut.ts [-- --lignes 1048575]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ExcelJS from "exceljs";
import { LIGNES_MAX_EXPORT, ouvrirClasseur, type Colonne, type Valeur } from "../server/exports/classeur";

const argv = process.argv.slice(2);
const arg = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const lignes = Number(arg("--lignes") ?? LIGNES_MAX_EXPORT);

const COLONNES: Colonne[] = [
  { entete: "Exploitation" },
  { entete: "Campagne" },
  { entete: "Année de récolte", type: "nombre" },
  { entete: "Parcelle" },
  { entete: "Date", type: "date" },
  { entete: "Opération culturale" },
  { entete: "Culture concernée" },
  { entete: "Réalisée", type: "booleen" },
  { entete: "Prévue", type: "booleen" },
  { entete: "Fréquence", type: "nombre" },
  { entete: "Taux de surface", type: "nombre" },
  { entete: "Nombre de passages", type: "nombre" },
  { entete: "Consommation de carburant (l/ha)", type: "nombre" },
  { entete: "Événement" },
];

const OPERATIONS = ["Labour", "Semis", "Désherbage", "Fertilisation azotée", "Traitement fongicide", "Récolte"];
const CULTURES = ["Blé tendre d'hiver", "Orge de printemps", "Colza d'hiver", "Maïs grain", "Tournesol"];

/** Row i, as the raw export reads it from the database (dates as YYYY-MM-DD text). */
function ligne(i: number): Valeur[] {
  const jour = new Date(Date.UTC(2025, 0, 1) + (i % 365) * 86_400_000).toISOString().slice(0, 10);
  return [
    "EARL des Tilleuls",
    "Campagne 2025",
    2025,
    `Parcelle ${i % 240}`,
    jour,
    OPERATIONS[i % OPERATIONS.length],
    CULTURES[i % CULTURES.length],
    i % 7 !== 0,
    i % 7 === 0,
    1,
    0.5 + (i % 50) / 100,
    1 + (i % 3),
    12.5 + (i % 40) / 10,
    i % 500 === 0 ? `=passage ${i}` : `Intervention ${i}`,
  ];
}

async function variante(nom: string, fichier: string): Promise<void> {
  const debut = performance.now();
  if (nom === "sillon") {
    const c = ouvrirClasseur(fichier);
    const f = c.feuille("Interventions", COLONNES);
    for (let i = 0; i < lignes; i++) await f.ligne(ligne(i));
    await c.fermer();
  } else {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: fichier, useStyles: false, useSharedStrings: false });
    const ws = wb.addWorksheet("Interventions");
    ws.addRow(COLONNES.map((c) => c.entete)).commit();
    for (let i = 0; i < lignes; i++) {
      ws.addRow(ligne(i)).commit();
      if ((i + 1) % 4096 === 0) await new Promise((r) => setImmediate(r)); // the same yield, so its zip stream drains too
    }
    ws.commit();
    await wb.commit();
  }
  const ms = performance.now() - debut;
  process.stdout.write(`${JSON.stringify({ nom, ms, rssMo: process.resourceUsage().maxRSS / 1024, octets: fs.statSync(fichier).size })}\n`);
}

const choisie = arg("--variante");
if (choisie) {
  await variante(choisie, arg("--fichier")!);
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sillon-bench-export-"));
  const self = fileURLToPath(import.meta.url);
  const resultats: { nom: string; ms: number; rssMo: number; octets: number }[] = [];
  try {
    for (const nom of ["nu", "sillon"]) {
      const r = spawnSync(
        process.execPath,
        ["--import", "tsx", self, "--variante", nom, "--fichier", path.join(dir, `${nom}.xlsx`), "--lignes", String(lignes)],
        {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      if (r.status !== 0) throw new Error(`variant ${nom} failed (${r.status})`);
      resultats.push(JSON.parse(r.stdout.trim().split("\n").pop()!));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const [nu, sillon] = resultats;
  console.log(
    `${lignes.toLocaleString("en")} data rows × ${COLONNES.length} columns, ${new Date().toISOString().slice(0, 10)}, load average ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log("| writer | time s | peak RSS MB | file MB |");
  console.log("|---|---|---|---|");
  for (const r of resultats)
    console.log(
      `| ${r.nom === "nu" ? "exceljs WorkbookWriter, bare cells" : "server/exports/classeur.ts"} | ${(r.ms / 1000).toFixed(1)} | ${r.rssMo.toFixed(0)} | ${(r.octets / 1e6).toFixed(1)} |`,
    );
  console.log(`ratio ${(sillon.ms / nu.ms).toFixed(2)} (goal ≤ 1.3), peak RSS ${sillon.rssMo.toFixed(0)} MB (goal ≤ 300)`);
}
