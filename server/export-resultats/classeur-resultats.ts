/**
 * The result workbook (spec 3 §3.15, §9; checklist C-REXP-01..09, 18, 19; decisions 0057, 0058).
 *
 * Pure part: `planClasseurResultats` turns the rows of the ticked series (the engine's `LigneResultat`, with the
 * planned/done flag the series stores) and the export form into a plan of sheets — each with its columns, its
 * row count (known before anything is written, so the spreadsheet limit is refused before work starts) and a
 * generator of its rows. `ecrireClasseurResultats` streams the plan into the session's xlsx (server/exports/classeur.ts).
 *
 * Sheets, in this order (each only when its option is ticked):
 * - Export: the name, date, version, series and options of the export;
 * - one per level (plot, plot group, management mode, crop, farm): version 2, one row per entity, indicator and
 *   planned/done (the flat table a pivot table reads); version 1, one row per entity and planned/done with the
 *   indicators in columns;
 * - Alerts: the figures of the chosen levels whose completeness is below 100 %, with the number of missing data;
 * - Yields: the harvests of each plot (crop, output type, yield, unit, planned/done);
 * - Raw data: every stored row of the chosen groups, all levels (interventions included when the series kept them),
 *   with its code, unrounded value, unit and completeness;
 * Figures are rounded as the screens show them (app/domain/calc/indicateurs/arrondi.ts: two decimals, completeness
 * whole) everywhere but the raw-data sheet; a campaign named by its harvest year is a number cell (decision 0118).
 * The English workbook (anglais) is English throughout: headings, levels, planned/done, units (uniteTraduite), and
 * the crops' and output types' English names of the reference data (read so by the service).
 * - TCD 1 (indicators in columns) and TCD 2 (indicators in rows): the cross tables of the chosen levels.
 * Figures are filtered by the chosen indicator groups and by planned/done everywhere.
 */

import type { TFunction } from "i18next";
import { decrireIndicateur, GROUPES_INDICATEURS, type GroupeIndicateurs } from "~/domain/calc/indicateurs/catalogue";
import { RATIOS, type LigneResultat } from "~/domain/calc/indicateurs/moteur";
import { agregerParSurface, type ParcelleIndicateurs } from "~/domain/calc/indicateurs/resultat";
import type { Indicateur, Indicateurs, Manquant, ParcelleCampagne } from "~/domain/calc/indicateurs/types";
import { NIVEAUX_EXPORT, type ExportResultats, type NiveauExport } from "~/domain/export-resultats";
import { resources } from "~/locales";
import { traducteur } from "../i18n";
import { ServiceError } from "../errors";
import { arrondiCompletude, arrondiIndicateur } from "~/domain/calc/indicateurs/arrondi";
import { celluleCampagne, verifierLignesExport, type Classeur } from "../exports/classeur";

/** Columns per sheet (Excel: 16,384). */
export const COLONNES_MAX_FEUILLE = 16_384;

export type Realisation = "realisee" | "prevue";
/** A stored result row: the engine's row and whether it counts the planned or the done interventions. */
export type LigneSerie = LigneResultat & { realisation?: Realisation };

export type ParcelleExport = {
  id: number;
  libelle: string;
  surface: number | null;
  idLot: number | null;
  idCulture: number | null;
  idModeConduite: number | null;
};

export type RendementExport = {
  idParcelle: number;
  culture: string | null;
  typeSortie: string | null;
  rendement: number | null;
  unite: string | null;
  realisation: Realisation;
};

/** One ticked series with what naming its rows needs (read by the service). */
export type SerieExport = {
  id: number;
  exploitation: string;
  campagne: string;
  parcelles: ParcelleExport[];
  /** Labels by id (plot groups, crops, management modes of the campaign). */
  lots: Record<string, string>;
  cultures: Record<string, string>;
  modesConduite: Record<string, string>;
  lignes: LigneSerie[];
  rendements: RendementExport[];
};

export type Cellule = string | number | boolean | Date | null;
export type ColonneFeuille = { entete: string; largeur?: number; format?: string };
export type FeuillePlan = {
  cle: string;
  nom: string;
  colonnes: ColonneFeuille[];
  /** Rows below the header, counted before writing. */
  nbLignes: number;
  lignes: () => Iterable<Cellule[]>;
};
export type PlanClasseur = { feuilles: FeuillePlan[] };

export type OptionsClasseur = Pick<
  ExportResultats,
  "libelle" | "version" | "prevu" | "realise" | "alertes" | "rendements" | "donneesBrutes" | "tcd1" | "tcd2" | NiveauExport | "groupes" | "anglais"
>;

// ---------------------------------------------------------------------------------------------
// Texts

type Indic = { code: string; groupe: GroupeIndicateurs; libelle: string; unite: string; ordre: number };

/** Label of an indicator code: its label, then its qualifier (IFT mode, price set, month). */
function libelleIndicateur(t: TFunction, code: string): { groupe: GroupeIndicateurs; libelle: string } | null {
  const d = decrireIndicateur(code);
  if (!d) return null;
  const q = d.qualificatif ? t(d.qualificatif.cle, { valeur: d.qualificatif.valeur }) : "";
  return { groupe: d.groupe, libelle: q ? `${t(d.libelle)} — ${q}` : t(d.libelle) };
}

// ---------------------------------------------------------------------------------------------
// The rows of one level

type Entite = { niveau: NiveauExport; serie: SerieExport; id: string; realisation: Realisation; noms: Cellule[]; libelle: string };
type Valeur = { valeur: number | null; unite: string; completude: number; nbManquants: number };
/** The figures of one entity (level, series, id, planned/done), by code. */
type Bloc = { entite: Entite; valeurs: Map<string, Valeur> };

/**
 * A unit as the workbook writes it: in English, its French words (exportResultats.classeur.unites) replaced, in one
 * pass, whole words only ("doses de référence/ha": "reference doses/ha", "passages": "passes"); "€/ha", "kg N/ha",
 * "MJ/ha" are the same in both languages.
 */
export function uniteTraduite(unite: string, anglais: boolean): string;
export function uniteTraduite(unite: string | null, anglais: boolean): string | null;
export function uniteTraduite(unite: string | null, anglais: boolean): string | null {
  if (unite == null || !anglais) return unite;
  return unite.replace(MOTS_UNITES, (_, avant: string, mot: string) => avant + UNITES_EN[mot]);
}
const UNITES_EN: Record<string, string> = resources.en.translation.exportResultats.classeur.unites;
const echapper = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const MOTS_UNITES = new RegExp(
  `(^|[\\s/(])(${Object.keys(UNITES_EN)
    .sort((a, b) => b.length - a.length)
    .map(echapper)
    .join("|")})(?=$|[\\s/)])`,
  "gu",
);

/**
 * A plot's figures as the engine's aggregation reads them: expected items are given back from completeness and
 * the number of missing data (completeness = 100 × (expected − missing) / expected, docs/indicators.md §7.1).
 */
function indicateursDeLignes(valeurs: Map<string, Valeur>): Indicateurs {
  const r: Indicateurs = {};
  for (const [code, v] of valeurs) {
    const attendus = v.completude >= 100 ? v.nbManquants : Math.round((100 * v.nbManquants) / (100 - v.completude));
    const manquants: Manquant[] = Array.from({ length: v.nbManquants }, (_, i) => ({ objet: "parcelle", id: i, champ: code }));
    r[code] = {
      code,
      valeur: v.valeur,
      unite: v.unite,
      completude: v.completude,
      attendus,
      manquants,
      explication: { formule: "", entrees: [] },
    } satisfies Indicateur;
  }
  return r;
}

function cleLigne(serie: number, niveau: string, id: string, realisation: Realisation) {
  return `${serie}|${niveau}|${id}|${realisation}`;
}

// ---------------------------------------------------------------------------------------------
// The plan

export async function planClasseurResultats(series: SerieExport[], options: OptionsClasseur, date: Date): Promise<PlanClasseur> {
  const t = await traducteur(options.anglais);
  const c = (k: string) => t(`exportResultats.classeur.${k}`);
  const groupes = new Set<string>(options.groupes);
  const realisations = new Set<Realisation>([...(options.prevu ? (["prevue"] as const) : []), ...(options.realise ? (["realisee"] as const) : [])]);
  const niveaux = NIVEAUX_EXPORT.filter((n) => options[n]);
  const libelleRealisation = (r: Realisation) => c(r);
  const unite = (u: string) => uniteTraduite(u, options.anglais);

  // The indicators of the chosen groups, described once per code.
  const descriptions = new Map<string, Indic | null>();
  const indicateur = (code: string, unite: string): Indic | null => {
    let i = descriptions.get(code);
    if (i === undefined) {
      const l = libelleIndicateur(t, code);
      i = l && groupes.has(l.groupe) ? { code, groupe: l.groupe, libelle: l.libelle, unite, ordre: descriptions.size } : null;
      descriptions.set(code, i);
    }
    return i;
  };
  const garde = (l: LigneSerie) => realisations.has(l.realisation ?? "realisee") && indicateur(l.code, l.unite) !== null;

  // Blocks by level: each entity's figures (the plot-group level aggregated from the plots, §7.2).
  const blocs = new Map<NiveauExport, Bloc[]>(niveaux.map((n) => [n, []]));
  for (const serie of series) {
    const campagne = celluleCampagne(serie.campagne);
    const parcelles = new Map(serie.parcelles.map((p) => [String(p.id), p]));
    const nomParcelle = (id: string) => parcelles.get(id)?.libelle ?? id;
    const nomLot = (id: number | null) => (id === null ? c("sans-lot") : (serie.lots[String(id)] ?? String(id)));
    const nomCulture = (id: string) => (id === "null" ? c("sans-culture") : (serie.cultures[id] ?? id));
    const nomMode = (id: string) => (id === "null" ? c("sans-mode") : (serie.modesConduite[id] ?? id));
    const entite = (niveau: NiveauExport, id: string, realisation: Realisation): Entite => {
      const base = [serie.exploitation, campagne];
      if (niveau === "parcelle") {
        const p = parcelles.get(id);
        const culture = p?.idCulture != null ? nomCulture(String(p.idCulture)) : c("sans-culture");
        const mode = p?.idModeConduite != null ? nomMode(String(p.idModeConduite)) : c("sans-mode");
        return {
          niveau,
          serie,
          id,
          realisation,
          noms: [...base, nomParcelle(id), nomLot(p?.idLot ?? null), culture, mode, p?.surface ?? null],
          libelle: nomParcelle(id),
        };
      }
      const nom =
        niveau === "lot"
          ? nomLot(id === "null" ? null : Number(id))
          : niveau === "culture"
            ? nomCulture(id)
            : niveau === "modeConduite"
              ? nomMode(id)
              : serie.exploitation;
      return { niveau, serie, id, realisation, noms: niveau === "exploitation" ? base : [...base, nom], libelle: nom };
    };

    const parCle = new Map<string, Bloc>();
    const bloc = (niveau: NiveauExport, id: string, realisation: Realisation) => {
      const k = cleLigne(serie.id, niveau, id, realisation);
      let b = parCle.get(k);
      if (!b) {
        b = { entite: entite(niveau, id, realisation), valeurs: new Map() };
        parCle.set(k, b);
        blocs.get(niveau)?.push(b);
      }
      return b;
    };
    // Plot rows, kept for the plot-group level even when the plot level is not exported.
    const plots = new Map<string, Map<string, Valeur>>();
    for (const l of serie.lignes) {
      if (!garde(l) || l.niveau === "intervention") continue;
      const realisation = l.realisation ?? "realisee";
      const v: Valeur = { valeur: arrondiIndicateur(l.valeur, l.unite), unite: l.unite, completude: l.completude, nbManquants: l.nbManquants };
      if (l.niveau === "parcelle") {
        const k = `${l.id}|${realisation}`;
        const m = plots.get(k) ?? new Map<string, Valeur>();
        m.set(l.code, { ...v, valeur: l.valeur });
        plots.set(k, m);
      }
      if (options[l.niveau]) bloc(l.niveau, String(l.id), realisation).valeurs.set(l.code, v);
    }
    if (options.lot) {
      for (const realisation of realisations) {
        const parLot = new Map<string, ParcelleIndicateurs[]>();
        for (const p of serie.parcelles) {
          const valeurs = plots.get(`${p.id}|${realisation}`);
          if (!valeurs) continue;
          const k = String(p.idLot ?? "null");
          const parcelle = { id: p.id, libelle: p.libelle, surface: p.surface } as ParcelleCampagne;
          parLot.set(k, [...(parLot.get(k) ?? []), { parcelle, indicateurs: indicateursDeLignes(valeurs) }]);
        }
        for (const [idLot, liste] of parLot) {
          const b = bloc("lot", idLot, realisation);
          for (const ind of Object.values(agregerParSurface(liste, RATIOS)))
            b.valeurs.set(ind.code, {
              valeur: arrondiIndicateur(ind.valeur, ind.unite),
              unite: ind.unite,
              completude: ind.completude,
              nbManquants: ind.manquants.length,
            });
        }
      }
    }
  }
  // The columns of the cross tables: the indicators the chosen levels have, in the catalogue's group order, then in
  // the order met.
  const presents = new Set<string>();
  for (const n of niveaux) for (const b of blocs.get(n) ?? []) for (const code of b.valeurs.keys()) presents.add(code);
  const ordreIndicateurs = [...presents]
    .map((code) => descriptions.get(code)!)
    .filter((i) => i != null)
    .sort((a, b) => GROUPES_INDICATEURS.indexOf(a.groupe) - GROUPES_INDICATEURS.indexOf(b.groupe) || a.ordre - b.ordre);

  const colonnesNoms = (niveau: NiveauExport): ColonneFeuille[] => {
    const base = [
      { entete: c("exploitation"), largeur: 24 },
      { entete: c("campagne"), largeur: 16 },
    ];
    if (niveau === "parcelle")
      return [
        ...base,
        { entete: c("parcelle"), largeur: 20 },
        { entete: c("lot"), largeur: 16 },
        { entete: c("culture"), largeur: 18 },
        { entete: c("modeConduite"), largeur: 18 },
        { entete: c("surface"), largeur: 10, format: "0.00##" },
      ];
    return niveau === "exploitation" ? base : [...base, { entete: c(niveau), largeur: 20 }];
  };
  const colonnesIndicateur: ColonneFeuille[] = [
    { entete: c("realisation"), largeur: 10 },
    { entete: c("groupe"), largeur: 20 },
    { entete: c("indicateur"), largeur: 36 },
    { entete: c("code"), largeur: 28 },
    { entete: c("unite"), largeur: 12 },
    { entete: c("valeur"), largeur: 12, format: "#,##0.##" },
    { entete: c("completude"), largeur: 10, format: "0.0" },
    { entete: c("manquants"), largeur: 10 },
  ];
  const cellulesIndicateur = (b: Bloc, i: Indic, v: Valeur): Cellule[] => [
    libelleRealisation(b.entite.realisation),
    t(`indicateurs.groupes.${i.groupe}`),
    i.libelle,
    i.code,
    unite(v.unite),
    v.valeur,
    arrondiCompletude(v.completude),
    v.nbManquants,
  ];
  const enteteIndicateur = (i: Indic): ColonneFeuille => ({
    entete: i.unite ? `${i.libelle} (${unite(i.unite)})` : i.libelle,
    largeur: 14,
    format: "#,##0.##",
  });
  const compter = (liste: Bloc[], filtre: (v: Valeur) => boolean = () => true) => {
    let n = 0;
    for (const b of liste)
      for (const i of ordreIndicateurs) {
        const v = b.valeurs.get(i.code);
        if (v && filtre(v)) n++;
      }
    return n;
  };

  const feuilles: FeuillePlan[] = [];
  const nomFeuille = (cle: string) => c(`feuilles.${cle}`).slice(0, 31);

  // Export: what was asked.
  const oui = (b: boolean) => c(b ? "oui" : "non");
  const resume: Cellule[][] = [
    [c("libelle"), options.libelle ?? ""],
    [
      c("date"),
      new Intl.DateTimeFormat(options.anglais ? "en-GB" : "fr-FR", { timeZone: "Europe/Paris", dateStyle: "short", timeStyle: "short" }).format(date),
    ],
    [c("version"), options.version],
    [c("groupes"), options.groupes.map((g) => t(`indicateurs.groupes.${g}`)).join(", ")],
    ...(["prevu", "realise", "alertes", "rendements", "donneesBrutes", "tcd1", "tcd2", ...NIVEAUX_EXPORT] as const).map((k) => [
      t(`exportResultats.${k}`),
      oui(options[k]),
    ]),
    ...series.map((s) => [c("series"), `${s.exploitation} — ${s.campagne}`]),
  ];
  feuilles.push({
    cle: "export",
    nom: nomFeuille("export"),
    colonnes: [
      { entete: c("export"), largeur: 40 },
      { entete: "", largeur: 60 },
    ],
    nbLignes: resume.length,
    lignes: () => resume,
  });

  // One sheet per level.
  for (const niveau of niveaux) {
    const liste = blocs.get(niveau) ?? [];
    if (options.version === 1) {
      feuilles.push({
        cle: niveau,
        nom: nomFeuille(niveau),
        colonnes: [...colonnesNoms(niveau), { entete: c("realisation"), largeur: 10 }, ...ordreIndicateurs.map(enteteIndicateur)],
        nbLignes: liste.length,
        lignes: function* () {
          for (const b of liste)
            yield [...b.entite.noms, libelleRealisation(b.entite.realisation), ...ordreIndicateurs.map((i) => b.valeurs.get(i.code)?.valeur ?? null)];
        },
      });
    } else {
      feuilles.push({
        cle: niveau,
        nom: nomFeuille(niveau),
        colonnes: [...colonnesNoms(niveau), ...colonnesIndicateur],
        nbLignes: compter(liste),
        lignes: function* () {
          for (const b of liste)
            for (const i of ordreIndicateurs) {
              const v = b.valeurs.get(i.code);
              if (v) yield [...b.entite.noms, ...cellulesIndicateur(b, i, v)];
            }
        },
      });
    }
  }

  const tousBlocs = niveaux.flatMap((n) => blocs.get(n) ?? []);
  if (options.alertes) {
    const incomplet = (v: Valeur) => v.completude < 100 || v.nbManquants > 0;
    feuilles.push({
      cle: "alertes",
      nom: nomFeuille("alertes"),
      colonnes: [
        { entete: c("niveau"), largeur: 16 },
        { entete: c("exploitation"), largeur: 24 },
        { entete: c("campagne"), largeur: 16 },
        { entete: c("entite"), largeur: 20 },
        ...colonnesIndicateur,
      ],
      nbLignes: compter(tousBlocs, incomplet),
      lignes: function* () {
        for (const b of tousBlocs)
          for (const i of ordreIndicateurs) {
            const v = b.valeurs.get(i.code);
            if (v && incomplet(v))
              yield [
                c(b.entite.niveau),
                b.entite.serie.exploitation,
                celluleCampagne(b.entite.serie.campagne),
                b.entite.libelle,
                ...cellulesIndicateur(b, i, v),
              ];
          }
      },
    });
  }

  if (options.rendements) {
    const rendements = series.flatMap((s) => s.rendements.filter((r) => realisations.has(r.realisation)).map((r) => ({ s, r })));
    feuilles.push({
      cle: "rendements",
      nom: nomFeuille("rendements"),
      colonnes: [
        { entete: c("exploitation"), largeur: 24 },
        { entete: c("campagne"), largeur: 16 },
        { entete: c("parcelle"), largeur: 20 },
        { entete: c("culture"), largeur: 18 },
        { entete: c("type-sortie"), largeur: 18 },
        { entete: c("realisation"), largeur: 10 },
        { entete: c("rendement"), largeur: 12, format: "#,##0.##" },
        { entete: c("unite"), largeur: 10 },
      ],
      nbLignes: rendements.length,
      lignes: function* () {
        for (const { s, r } of rendements) {
          const p = s.parcelles.find((x) => x.id === r.idParcelle);
          yield [
            s.exploitation,
            celluleCampagne(s.campagne),
            p?.libelle ?? String(r.idParcelle),
            r.culture,
            r.typeSortie,
            libelleRealisation(r.realisation),
            arrondiIndicateur(r.rendement, r.unite),
            r.unite == null ? null : unite(r.unite),
          ];
        }
      },
    });
  }

  if (options.donneesBrutes) {
    let n = 0;
    for (const s of series) for (const l of s.lignes) if (garde(l)) n++;
    feuilles.push({
      cle: "donneesBrutes",
      nom: nomFeuille("donneesBrutes"),
      colonnes: [
        { entete: c("exploitation"), largeur: 24 },
        { entete: c("campagne"), largeur: 16 },
        { entete: c("niveau"), largeur: 14 },
        { entete: c("identifiant"), largeur: 10 },
        { entete: c("id-parcelle"), largeur: 10 },
        { entete: c("realisation"), largeur: 10 },
        { entete: c("code"), largeur: 28 },
        { entete: c("valeur"), largeur: 14 },
        { entete: c("unite"), largeur: 12 },
        { entete: c("completude"), largeur: 10 },
        { entete: c("manquants"), largeur: 10 },
      ],
      nbLignes: n,
      lignes: function* () {
        for (const s of series)
          for (const l of s.lignes)
            if (garde(l))
              yield [
                s.exploitation,
                celluleCampagne(s.campagne),
                c(l.niveau),
                typeof l.id === "number" ? l.id : String(l.id),
                l.idParcelle ?? null,
                libelleRealisation(l.realisation ?? "realisee"),
                l.code,
                l.valeur,
                unite(l.unite),
                l.completude,
                l.nbManquants,
              ];
      },
    });
  }

  const colonnesEntite: ColonneFeuille[] = [
    { entete: c("niveau"), largeur: 16 },
    { entete: c("exploitation"), largeur: 24 },
    { entete: c("campagne"), largeur: 16 },
    { entete: c("entite"), largeur: 20 },
    { entete: c("realisation"), largeur: 10 },
  ];
  if (options.tcd1) {
    feuilles.push({
      cle: "tcd1",
      nom: nomFeuille("tcd1"),
      colonnes: [...colonnesEntite, ...ordreIndicateurs.map(enteteIndicateur)],
      nbLignes: tousBlocs.length,
      lignes: function* () {
        for (const b of tousBlocs)
          yield [
            c(b.entite.niveau),
            b.entite.serie.exploitation,
            celluleCampagne(b.entite.serie.campagne),
            b.entite.libelle,
            libelleRealisation(b.entite.realisation),
            ...ordreIndicateurs.map((i) => b.valeurs.get(i.code)?.valeur ?? null),
          ];
      },
    });
  }
  if (options.tcd2) {
    const titre = (b: Bloc) =>
      [
        c(b.entite.niveau),
        b.entite.serie.exploitation,
        b.entite.serie.campagne,
        ...(b.entite.niveau === "exploitation" ? [] : [b.entite.libelle]),
        libelleRealisation(b.entite.realisation),
      ].join(" / ");
    feuilles.push({
      cle: "tcd2",
      nom: nomFeuille("tcd2"),
      colonnes: [
        { entete: c("groupe"), largeur: 20 },
        { entete: c("indicateur"), largeur: 36 },
        { entete: c("unite"), largeur: 12 },
        ...tousBlocs.map((b) => ({ entete: titre(b), largeur: 16, format: "#,##0.##" })),
      ],
      nbLignes: ordreIndicateurs.length,
      lignes: function* () {
        for (const i of ordreIndicateurs)
          yield [t(`indicateurs.groupes.${i.groupe}`), i.libelle, unite(i.unite), ...tousBlocs.map((b) => b.valeurs.get(i.code)?.valeur ?? null)];
      },
    });
  }
  return { feuilles };
}

/**
 * The spreadsheet's capacity, checked on the plan before anything is written (spec 3 §5, §9; C-REXP-09): at most
 * LIGNES_MAX_EXPORT (1,048,575) rows under the header of a sheet — 1,048,576 lines in all — (413
 * exports.trop-de-lignes, server/exports/classeur.ts), at most 16,384 columns (413 exportResultats.trop-de-colonnes).
 */
export function verifierCapacite(plan: PlanClasseur): void {
  verifierLignesExport(Object.fromEntries(plan.feuilles.map((f) => [f.nom, f.nbLignes])));
  for (const f of plan.feuilles)
    if (f.colonnes.length > COLONNES_MAX_FEUILLE)
      throw new ServiceError("exportResultats.trop-de-colonnes", 413, undefined, { max: COLONNES_MAX_FEUILLE, feuille: f.nom });
}

/** Rows the plan will write (the job's progress total). */
export const totalLignes = (plan: PlanClasseur) => plan.feuilles.reduce((n, f) => n + f.nbLignes, 0);

/**
 * Streams the plan into the session's workbook (server/exports/classeur.ts: one row in memory at a time, formula-like
 * texts kept as text); `progression` is told the rows written every 2,000 rows and at the end.
 */
export async function ecrireClasseurResultats(
  plan: PlanClasseur,
  classeur: Classeur,
  progression: (fait: number, total: number) => Promise<void> = async () => {},
): Promise<void> {
  const total = totalLignes(plan);
  let fait = 0;
  await progression(0, total);
  for (const f of plan.feuilles) {
    const feuille = classeur.feuille(
      f.nom,
      f.colonnes.map((c) => ({ entete: c.entete, largeur: c.largeur, ...(c.format ? { type: "nombre" as const } : {}) })),
    );
    for (const cellules of f.lignes()) {
      await feuille.ligne(cellules);
      if (++fait % 2000 === 0) await progression(fait, total);
    }
  }
  await progression(fait, total);
}
