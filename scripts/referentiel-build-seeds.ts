// Builds the plant-protection reference files of seeds/reference/ from the extract of the official E-Phy files
// kept in tests/fixtures/ephy/extrait/ (real rows, official column layout; see its README), with the same
// parser as the importer (decision 0029):
//   npx tsx scripts/referentiel-build-seeds.ts
// Writes intrant-phyto.json, substance-active.json, matiere-active.json, matiere-active-composition.json,
// culture-ift.json and reference-dose-cible-ift.json. A full E-Phy release is loaded with `npm run referentiel:ephy`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseFile, type ProduitEphy, type SubstanceEphy, type UsageEphy } from "../server/referentiel-intrants/ephy-import";
import { categoriePhyto } from "../server/referentiel-intrants/ephy-import";
import { compositionId, IMPORT_ID_BASE } from "../server/referentiel-intrants/import-service";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const extrait = path.join(root, "tests/fixtures/ephy/extrait");
const out = path.join(root, "seeds/reference");
const DATE = "2026-11-26";
const EPHY =
  "ANSES, données ouvertes du catalogue E-Phy (data.gouv.fr), extrait de la publication de 2026 lu dans une copie publique des fichiers produits_utf8.csv, substance_active_utf8.csv et usages_des_produits_autorises_utf8.csv";
const LICENCE = "Licence Ouverte / Open Licence 2.0 (Etalab), ANSES";
/** Harvest year of the derived reference doses: the release read is of 2026 (decisions dated up to mid-2026). */
const ANNEE = 2026;

const read = (name: string) => parseFile(name, fs.readFileSync(path.join(extrait, name)));
const produits = read("produits_utf8.csv").rows as ProduitEphy[];
const usages = read("usages_des_produits_autorises_utf8.csv").rows as UsageEphy[];
const substances = read("substance_active_utf8.csv").rows as SubstanceEphy[];

/**
 * The products of the Daplos sample (../shared/fixtures/daplos/sample-v0.94.dap) absent from the extract: AMM
 * and name as the sample gives them. COMPIL (2130068) and DEVRINOL 450 SC (8800603, a trade name of COLZAMID) are
 * in the extract and come from it; MILDICUT's composition is the product's published formulation, not read in
 * E-Phy here (confidence medium: an E-Phy import corrects it).
 */
const DAPLOS: ProduitEphy[] = [
  {
    amm: "2130068",
    idProduit: 2130068,
    typeProduit: "PPP",
    nom: "COMPIL",
    secondsNoms: null,
    titulaire: null,
    fonctions: "Herbicide",
    formulation: "Suspension concentrée",
    etat: "AUTORISE",
    dateRetrait: null,
    biocontrole: false,
    substances: [{ libelle: "diflufénicanil", substance: "Diflufenican", quantite: 500, unite: "g/L" }],
  },
  {
    amm: "8800603",
    idProduit: 8800603,
    typeProduit: "PPP",
    nom: "DEVRINOL 450 SC",
    secondsNoms: null,
    titulaire: null,
    fonctions: "Herbicide",
    formulation: "Suspension concentrée",
    etat: null,
    dateRetrait: null,
    biocontrole: false,
    substances: [{ libelle: "napropamide", substance: "Napropamide", quantite: 450, unite: "g/L" }],
  },
  {
    amm: "2090126",
    idProduit: 2090126,
    typeProduit: "PPP",
    nom: "MILDICUT",
    secondsNoms: null,
    titulaire: null,
    fonctions: "Fongicide",
    formulation: "Suspension concentrée",
    etat: null,
    dateRetrait: null,
    biocontrole: false,
    substances: [{ libelle: "cyazofamide", substance: "Cyazofamid", quantite: 25, unite: "g/L" }],
  },
];
const DAPLOS_SOURCE =
  "Échantillon Daplos v0.94 (FarmPublic/DaplosParserBundle, MIT) pour l'AMM et le nom ; composition : voir scripts/referentiel-build-seeds.ts";

/** E-Phy crop labels of the uses → Sillon crops (seeds/reference/culture.json). */
const CULTURES: Record<string, number[]> = {
  Blé: [1, 2, 3],
  Orge: [4, 5, 45],
  Avoine: [7],
  Seigle: [8],
  Triticale: [6],
  "Céréales à paille": [1, 2, 3, 4, 5, 6, 7, 8, 9, 45],
  Maïs: [10, 11],
  Sorgho: [12, 13],
  "Crucifères oléagineuses": [14, 44],
  Tournesol: [15],
  Soja: [16],
  Lin: [17, 18],
  "Graines protéagineuses": [20, 21, 22],
  "Betterave industrielle et fourragère": [25],
  "Pomme de terre": [26],
};

/** E-Phy targets (the part after the treatment) → cible codes (seeds/reference/cible.json); weed control has no target in E-Phy. */
const CIBLES: Record<string, string> = {
  "": "ADVENTICES",
  Pucerons: "PUCERONS",
  "Oïdium(s)": "OIDIUM",
  "Septoriose(s)": "SEPTORIOSE",
  "Rouille couronnée": "ROUILLE_COURONNEE",
  Rhynchosporiose: "RHYNCHOSPORIOSE",
  Cylindrosporiose: "CYLINDROSPORIOSE",
  "Régul. Croiss. Org. Aériens": "REGULATEUR",
  "Maladies fongiques des siliques": "ALTERNARIOSE",
  Phoma: "PHOMA",
  Sclérotiniose: "SCLEROTINIOSE",
  "Maladies du feuillage": "MALADIES_FEUILLAGE",
  "Champignons (autres que pythiacées)": "MALADIES_SEMENCES",
  Cicadelles: "CICADELLES",
  "Chenilles phytophages": "CHENILLES",
  Mouches: "MOUCHES",
  "Coléoptères phytophages": "COLEOPTERES",
  "Pyrale(s) (1)": "PYRALE",
  Thrips: "THRIPS",
  "Ravageurs du sol": "RAVAGEURS_SOL",
};

const cibleFile = JSON.parse(fs.readFileSync(path.join(out, "cible.json"), "utf8")) as {
  rows: Array<{ id: number; code: string; libelle: string; nature?: string }>;
};
const cibleByCode = new Map(cibleFile.rows.map((c) => [c.code, c]));

/**
 * Stable ids across rebuilds: a row keeps the id it had in the current file (matched by its natural key), new rows
 * take the next ids. The seeding upserts by id, so renumbering would rewrite other rows of existing databases.
 * Ids stay below IMPORT_ID_BASE, above which the importer numbers the rows it adds.
 */
function stableIds(file: string, keyOf: (row: Record<string, unknown>) => string): (key: string) => number {
  const full = path.join(out, file);
  const old = fs.existsSync(full) ? (JSON.parse(fs.readFileSync(full, "utf8")) as { rows: Array<Record<string, unknown> & { id: number }> }).rows : [];
  const ids = new Map(old.map((r) => [keyOf(r), r.id]));
  let next = Math.max(0, ...old.map((r) => r.id)) + 1;
  const given = new Set<number>();
  return (key) => {
    let id = ids.get(key);
    if (id === undefined || given.has(id)) id = next++;
    if (id >= IMPORT_ID_BASE) throw new Error(`${file}: id ${id} reaches the importer's range`);
    given.add(id);
    return id;
  };
}

const write = (file: string, body: object) => {
  const { rows, ...head } = body as { rows: object[] };
  const text = `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "rows": [\n${rows.map((r) => `    ${JSON.stringify(r)}`).join(",\n")}\n  ]\n}\n`;
  fs.writeFileSync(path.join(out, file), text);
  console.log(`${file}: ${rows.length} lignes`);
};

// Products: the extract, then the Daplos products it lacks.
const usagesOf = (amm: string) => usages.filter((u) => u.amm === amm && /autoris/i.test(u.etat ?? ""));
const all = [...produits, ...DAPLOS.filter((d) => !produits.some((p) => p.amm === d.amm))];
write("intrant-phyto.json", {
  table: "intrant_phyto",
  dependsOn: ["categorie_intrant"],
  source: `${EPHY}; the Daplos sample's products are included (COMPIL, DEVRINOL 450 SC = COLZAMID from E-Phy; MILDICUT: ${DAPLOS_SOURCE}). Built by scripts/referentiel-build-seeds.ts. id = id_produit = AMM number, id_source 1 = E-Phy. The category (dic_id_type_intrant) follows the E-Phy functions (decision 0029).`,
  licence: LICENCE,
  date: DATE,
  confidence:
    "high for the rows read in E-Phy (AMM, names, holders, state); medium for MILDICUT's composition (not read in E-Phy); an extract of a few hundred rows, not the whole catalogue (npm run referentiel:ephy loads a full release)",
  rows: all.map((p) => {
    const daplos = DAPLOS.includes(p);
    const c = categoriePhyto(p.typeProduit, p.fonctions, usagesOf(p.amm));
    return {
      id: p.idProduit,
      idProduit: p.idProduit,
      idSource: 1,
      nomProduit: p.nom.trim(),
      ammProduit: p.amm,
      typeProduit: p.fonctions,
      source: daplos ? "Daplos v0.94" : "E-Phy (ANSES)",
      biocontrole: p.biocontrole,
      remarque: daplos ? "Produit de l'échantillon Daplos ; composition à confirmer par l'import E-Phy" : null,
      dicIdTypeIntrant: c.id,
      codeTypeIntrant: c.code,
      secondsNoms: p.secondsNoms,
      titulaire: p.titulaire?.trim() ?? null,
      formulation: p.formulation,
      etatAutorisation: p.etat,
      dateRetrait: p.dateRetrait,
      retire: p.etat != null && !/^autoris/i.test(p.etat),
      millesime: daplos ? null : "2026",
    };
  }),
});

// Active substances: the extract's, then every substance a product cites that it lacks (name only).
const names = new Map<string, SubstanceEphy>(substances.map((s) => [s.nom, s]));
for (const p of all)
  for (const s of p.substances)
    if (s.substance && !names.has(s.substance)) names.set(s.substance, { nom: s.substance, numeroCas: null, etat: null, variantes: s.libelle });
const substanceId0 = stableIds("substance-active.json", (r) => String(r.nom));
const substanceRows = [...names.values()].map((s) => ({
  id: substanceId0(s.nom),
  nom: s.nom,
  variantes: s.variantes,
  numeroCas: s.numeroCas,
  etatAutorisation: s.etat,
}));
const substanceId = new Map(substanceRows.map((s) => [s.nom, s.id]));
write("substance-active.json", {
  table: "substance_active",
  source: `${EPHY} (substance_active_utf8.csv, and the substances the products' 'Substances actives' column names, with the French name of the form used as variant when the substance file extract lacks them)`,
  licence: LICENCE,
  date: DATE,
  confidence: "high",
  rows: substanceRows,
});

const matieres = all.filter((p) => p.substances.length > 0);
write("matiere-active.json", {
  table: "matiere_active",
  dependsOn: ["intrant_phyto"],
  source: `${EPHY} ('Substances actives' of each product); id = the product's id. quantite is the total when every substance has the same unit`,
  licence: LICENCE,
  date: DATE,
  confidence: "high",
  rows: matieres.map((p) => {
    const units = new Set(p.substances.map((s) => s.unite));
    const same = units.size === 1 && p.substances.every((s) => s.quantite != null);
    return {
      id: p.idProduit,
      idIntrantPhyto: p.idProduit,
      quantite: same ? Math.round(p.substances.reduce((t, s) => t + (s.quantite ?? 0), 0) * 10000) / 10000 : null,
      unite: units.size === 1 ? [...units][0] : "autre",
    };
  }),
});
write("matiere-active-composition.json", {
  table: "matiere_active_composition",
  dependsOn: ["matiere_active", "substance_active"],
  source: `${EPHY} ('Substances actives': French name of the form, substance, content and unit); id = product id × 100 + rank, as the importer numbers them`,
  licence: LICENCE,
  date: DATE,
  confidence: "high",
  rows: matieres.flatMap((p) =>
    p.substances.map((s, i) => ({
      id: compositionId(p.idProduit, i + 1),
      idMatiereActive: p.idProduit,
      idSubstanceActive: s.substance ? (substanceId.get(s.substance) ?? null) : null,
      rang: i + 1,
      libelle: s.libelle,
      quantite: s.quantite,
      unite: s.unite,
      famille: null,
    })),
  ),
});

// Crop correspondence (E-Phy / IFT labels → Sillon crops).
const cultureIftId = stableIds("culture-ift.json", (r) => `${r.libelleIft}|${r.idCulture}`);
write("culture-ift.json", {
  table: "culture_ift",
  dependsOn: ["culture"],
  source:
    "Crop labels of the E-Phy uses (ANSES) matched by the Sillon team to the crops of seeds/reference/culture.json; the IFT importer also matches the ministry's crop labels to them. A label may stand for several crops (Blé: soft and durum wheats). code_ift: the ministry's crop code, filled when known",
  licence: "CC0-1.0",
  date: DATE,
  confidence: "medium: E-Phy groups crops ('Céréales à paille', 'Graines protéagineuses'); a use may exclude some crops of the group in its conditions",
  rows: Object.entries(CULTURES).flatMap(([libelleIft, ids]) =>
    ids.map((idCulture) => ({ id: cultureIftId(`${libelleIft}|${idCulture}`), libelleIft, codeIft: null, idCulture })),
  ),
});

// Reference doses derived from the authorised uses: per product, crop and target, the largest authorised dose.
type Dose = { codeAmm: string; idCulture: number; idCible: number; cible: string; biocontrole: boolean; doseRef: number; uniteDoseRef: string; usage: string };
const doses = new Map<string, Dose>();
for (const u of usages) {
  if (!/autoris/i.test(u.etat ?? "") || u.dose == null || !u.unite || !u.culture) continue;
  const cultures = CULTURES[u.culture];
  const code = CIBLES[u.cible ?? ""];
  if (!cultures || !code) continue;
  const cible = cibleByCode.get(code)!;
  const produit = all.find((p) => p.amm === u.amm);
  // g/ha → KG/HA, as the ministry's list and the dialog's units (l/ha, kg/ha) do.
  const grams = /^g\/ha$/i.test(u.unite);
  const dose = grams ? u.dose / 1000 : u.dose;
  const unite = grams ? "KG/HA" : u.unite.toUpperCase();
  for (const idCulture of cultures) {
    const key = `${u.amm}|${idCulture}|${cible.id}`;
    const old = doses.get(key);
    if (!old || dose > old.doseRef)
      doses.set(key, {
        codeAmm: u.amm,
        idCulture,
        idCible: cible.id,
        cible: cible.libelle,
        biocontrole: produit?.biocontrole ?? false,
        doseRef: dose,
        uniteDoseRef: unite,
        usage: u.libelle,
      });
  }
}
/**
 * The IFT segment of a row from its target's nature (research §2.2: S3 herbicides, S4 insecticides-acaricides,
 * S5 fungicides-bactericides): the row, not the product's first function, says where a treatment counts
 * (decision 0085). A target of another nature leaves the segment to the input's category.
 */
const SEGMENT_DE_NATURE: Record<string, string> = { adventice: "S3", ravageur: "S4", maladie: "S5" };
const CIBLES_CODE_DE_ID = new Map(cibleFile.rows.map((c) => [c.id, c.code]));
const doseId = stableIds("reference-dose-cible-ift.json", (r) => `${r.codeAmm}|${r.idCulture}|${r.idCible}|${r.anneeRecolte}`);
write("reference-dose-cible-ift.json", {
  table: "reference_dose_cible_ift",
  dependsOn: ["culture", "cible"],
  source: `Derived from the authorised uses of ${EPHY}: for each product, crop and target, the largest authorised dose ('dose retenue') of the use, which is how the ministry's IFT reference dose is set for a use (Guide méthodologique IFT; ../shared/research/indicators-and-reference-data.md §2). Harvest year ${ANNEE}. Weed control (no target in E-Phy) is given the target 'Adventices'. g/ha converted to KG/HA. Segment from the target's nature (weeds S3, pests S4, diseases S5). Replaced by the ministry's own list when it is imported (npm run referentiel:ephy -- <doses.csv>)`,
  licence: LICENCE,
  date: DATE,
  confidence: "medium: derived from E-Phy, not the ministry's list itself; E-Phy crop groups are spread over their crops",
  rows: [...doses.values()].map((d) => ({
    id: doseId(`${d.codeAmm}|${d.idCulture}|${d.idCible}|${ANNEE}`),
    codeAmm: d.codeAmm,
    idCulture: d.idCulture,
    anneeRecolte: ANNEE,
    idCible: d.idCible,
    cible: d.cible,
    biocontrole: d.biocontrole,
    doseRef: d.doseRef,
    idUniteDoseRef: null,
    uniteDoseRef: d.uniteDoseRef,
    segment: SEGMENT_DE_NATURE[cibleByCode.get(CIBLES_CODE_DE_ID.get(d.idCible) ?? "")?.nature ?? ""] ?? null,
    source: `E-Phy, usage « ${d.usage} »`,
    confiance: "medium",
  })),
});
