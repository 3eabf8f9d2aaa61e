// Benchmark of the eDaplos writer (issue 25, decision 0096): a generated campaign of N plots (default 1,000), each
// with a season of 10 interventions (tillage, sowing with its seed and seed treatment, three sprayings, two
// fertilisers with their composition, irrigation, a harvest of grain and straw), written plot by plot by
// server/interop/edaplos/ecrivain.ts (each plot's tree built, logged, serialised and streamed to a file), against
// fast-xml-parser's XMLBuilder given the same trees already built, bare, in one document written at once. Reads from
// the database are not in either variant (they are the service tests' and the job's). Each variant runs in a child
// process of its own so that its peak RSS is its own. Goal (issue 25): the writer within 2 times the bare time.
//
//   node --import tsx bench/export-edaplos.ts [-- --parcelles 1000]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { XMLBuilder } from "fast-xml-parser";
import {
  debutMessage,
  FIN_MESSAGE,
  parcelleNoeud,
  parcelleXml,
  type CampagneEdaplos,
  type LigneJournal,
  type ParcelleEdaplos,
} from "../server/interop/edaplos/ecrivain";

const argv = process.argv.slice(2);
const arg = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const nParcelles = Number(arg("--parcelles") ?? 1000);

const campagne: CampagneEdaplos = {
  id: 1,
  libelle: "2025",
  anneeRecolte: 2025,
  exploitation: { id: 1, libelle: "EARL du banc", siret: "12345678900011", adresse: "1 rue du Banc", codePostal: "28000", ville: "Chartres" },
};

function parcelle(k: number): ParcelleEdaplos {
  let id = k * 100;
  const x = (o: Partial<ParcelleEdaplos["interventions"][number]["intrants"][number]> & { libelle: string }) => ({
    id: ++id,
    idCategorie: null,
    idTypeIntrant: null,
    quantite: 1,
    unite: "l/ha",
    amm: null,
    gnis: null,
    traitementSemence: false,
    composition: null,
    semence: null,
    cibles: 0,
    ...o,
  });
  const i = (idTypeAction: number, date: string, o: Partial<ParcelleEdaplos["interventions"][number]> = {}) => ({
    id: ++id,
    date,
    idTypeAction,
    operation: `Opération ${idTypeAction}`,
    realisee: true,
    prevue: false,
    nombrePassage: 1,
    tauxSurface: 1,
    debit: 0.5,
    volumeBouillie: idTypeAction === 11 ? 150 : null,
    intrants: [],
    recoltes: [],
    ...o,
  });
  const lon = 1.5 + (k % 100) * 0.01;
  const lat = 48.3 + Math.floor(k / 100) * 0.01;
  return {
    id: k,
    libelle: `Parcelle ${k}`,
    surface: 5 + (k % 20),
    irrigable: k % 3 === 0,
    geometrie: JSON.stringify({
      type: "Polygon",
      coordinates: [
        [
          [lon, lat],
          [lon + 0.008, lat],
          [lon + 0.008, lat + 0.004],
          [lon, lat + 0.004],
          [lon, lat],
        ],
      ],
    }),
    idModeConduite: 1,
    culture: { id: 1, libelle: "Blé tendre d'hiver" },
    interventions: [
      i(1, "2024-09-10"),
      i(6, "2024-10-15", {
        intrants: [
          x({
            idCategorie: 5381,
            idTypeIntrant: 538,
            libelle: "Blé – KWS Extase",
            quantite: 160,
            unite: "kg/ha",
            gnis: "0253007",
            semence: { ferme: 0, certifiee: 100, ogm: 0 },
          }),
          x({ idCategorie: 5397, idTypeIntrant: 539, libelle: "Celest Net", quantite: 0.2, amm: "2070137", traitementSemence: true }),
        ],
      }),
      i(11, "2024-11-05", { intrants: [x({ idCategorie: 5391, idTypeIntrant: 539, libelle: "DEFI", quantite: 3, amm: "9300449", cibles: 2 })] }),
      i(11, "2025-04-10", { intrants: [x({ idCategorie: 5392, idTypeIntrant: 539, libelle: "Elatus Era", quantite: 0.8, amm: "2160931" })] }),
      i(11, "2025-05-10", { intrants: [x({ idCategorie: 5393, idTypeIntrant: 539, libelle: "Karate Zeon", quantite: 0.075, amm: "9800336" })] }),
      i(12, "2025-02-20", {
        intrants: [x({ idCategorie: 655, idTypeIntrant: 540, libelle: "Ammonitrate 27", quantite: 200, unite: "kg/ha", composition: { n: 27 } })],
      }),
      i(12, "2025-03-25", {
        intrants: [x({ idCategorie: 655, idTypeIntrant: 540, libelle: "Solution 39", quantite: 150, unite: "kg/ha", composition: { n: 39, so3: 5 } })],
      }),
      i(14, "2025-05-25", { intrants: [x({ idCategorie: 5421, idTypeIntrant: 542, libelle: "Eau", quantite: 30, unite: "mm" })] }),
      i(15, "2025-07-15", {
        recoltes: [
          {
            id: ++id,
            idCulture: 1,
            culture: "Blé tendre d'hiver",
            idTypeSortie: 661,
            typeSortie: "Grain",
            rendement: 8.2,
            unite: "t/ha",
            caracteristiques: [{ id: 1, idType: 1, valeur: 15, unite: "%" }],
          },
          { id: ++id, idCulture: 1, culture: "Blé tendre d'hiver", idTypeSortie: 662, typeSortie: "Paille", rendement: 4, unite: "t/ha", caracteristiques: [] },
        ],
      }),
      i(2, "2025-08-01"),
    ],
  };
}

const enTete = {
  identification: "000001",
  creation: new Date("2026-02-04T10:18:35Z"),
  logiciel: { nom: "Sillon", version: "1.0" },
  emetteur: { id: "banc", nom: "Banc" },
};

async function ecrivain(fichier: string) {
  const flux = fs.createWriteStream(fichier);
  const ecrire = async (s: string) => {
    if (!flux.write(s)) await new Promise<void>((r) => flux.once("drain", () => r()));
  };
  const logs: LigneJournal[] = [];
  const debut = performance.now();
  await ecrire(debutMessage(enTete));
  for (let k = 1; k <= nParcelles; k++) await ecrire(parcelleXml(campagne, parcelle(k), (l) => logs.push(l)));
  await ecrire(FIN_MESSAGE);
  flux.end();
  await new Promise<void>((r) => flux.once("finish", () => r()));
  return { ms: performance.now() - debut, logs: logs.length };
}

async function nu(fichier: string) {
  // The same trees, built before the clock starts: what remains is fast-xml-parser serialising them, and the write.
  const plots = Array.from({ length: nParcelles }, (_, k) => parcelleNoeud(campagne, parcelle(k + 1), () => {}));
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: false, processEntities: true });
  const debut = performance.now();
  const xml = builder.build({ "rsm:CropDataSheetMessage": { "rsm:AgriculturalPlot": plots } });
  fs.writeFileSync(fichier, xml);
  return { ms: performance.now() - debut, logs: 0 };
}

const variante = arg("--variante");
if (variante) {
  const fichier = arg("--fichier")!;
  const r = await (variante === "ecrivain" ? ecrivain(fichier) : nu(fichier));
  const taille = fs.statSync(fichier).size;
  process.stdout.write(JSON.stringify({ ...r, taille, rssMo: Math.round(process.resourceUsage().maxRSS / 1024) }));
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-edaplos-"));
  const self = fileURLToPath(import.meta.url);
  const resultats: Record<string, { ms: number; taille: number; rssMo: number; logs: number }> = {};
  for (const nom of ["nu", "ecrivain"]) {
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", self, "--variante", nom, "--fichier", path.join(dir, `${nom}.xml`), "--parcelles", String(nParcelles)],
      {
        encoding: "utf8",
      },
    );
    if (r.status !== 0) throw new Error(r.stderr);
    resultats[nom] = JSON.parse(r.stdout);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const { nu: b, ecrivain: e } = resultats;
  console.log(`| variant | plots | time (ms) | file (MB) | peak RSS (MB) | log lines |`);
  console.log(`|---|---|---|---|---|---|`);
  console.log(`| fast-xml-parser bare (trees built beforehand) | ${nParcelles} | ${b.ms.toFixed(0)} | ${(b.taille / 1e6).toFixed(1)} | ${b.rssMo} | - |`);
  console.log(`| eDaplos writer (plot by plot, streamed) | ${nParcelles} | ${e.ms.toFixed(0)} | ${(e.taille / 1e6).toFixed(1)} | ${e.rssMo} | ${e.logs} |`);
  console.log(`\nratio writer / bare: ${(e.ms / b.ms).toFixed(2)}`);
}
