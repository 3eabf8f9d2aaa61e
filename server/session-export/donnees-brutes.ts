import type { Knex } from "knex";
import type { Db } from "../db/knex";
import { bool } from "../db/dialect";
import { definirTache } from "../jobs/runner";
import { celluleCampagne, verifierLignesExport, type TypeColonne, type Valeur } from "../exports/classeur";
import { resources } from "~/locales";
import { campagneLibelle } from "~/domain/partage";
import {
  creerSessionExport,
  ecrireSessionExport,
  NATURE_DONNEES_BRUTES,
  sessionsInterrompues,
  verifierCampagnesExportables,
  type DemandeSessionExport,
  type ParametresSessionExport,
} from "./service";
import type { Scope } from "../access/scope";

/**
 * The raw-data export (spec 1 "Raw-data export screen"; decision 0052): one sheet per chosen data group
 * (donnee_exportable, by code), rows of every chosen campaign, columns in French (English with the session's
 * anglais flag). Each sheet starts with the farm, the campaign and its harvest year. Rows are read in pages by key
 * (constant memory) and counted first: a sheet over the spreadsheet limit refuses the export before any row is
 * written (A-EXPORT-25). Rows come campaign by campaign in the session's campaign order (ascending ids).
 *
 * Version 2 (default) writes dates as date cells; version 1 (test role only) writes them as dd/mm/yyyy text, as the
 * former exports did.
 */

export const TACHE_EXPORT_DONNEES_BRUTES = "export-donnees-brutes";

/** A column: `champ` its row field, and its heading `exports.colonnes.<champ>` in the locales. */
type ColonneGroupe = { champ: Champ; type?: TypeColonne };
type Champ = keyof (typeof resources)["fr"]["translation"]["exports"]["colonnes"];
/** The export's texts in the session's language (French, English with its anglais flag). */
const textes = (en: boolean) => resources[en ? "en" : "fr"].translation.exports;
/** One query of a group: rows of the campaigns, with `cle` the unique key of its main table (the paging key). */
type Partie = (db: Db, campagnes: number[], en: boolean) => Knex.QueryBuilder;
type Groupe = { code: string; colonnes: ColonneGroupe[]; parties: Partie[]; cle: string };

const TETE: ColonneGroupe[] = [{ champ: "exploitation" }, { champ: "campagne" }, { type: "nombre", champ: "annee" }];

const lib = (db: Db, alias: string, en: boolean) => (en ? db.raw(`coalesce(??, ??)`, [`${alias}.libelle_en`, `${alias}.libelle`]) : `${alias}.libelle`);

/** The campaign and farm columns of a query whose campaign column is `colonneCampagne`. */
function avecCampagne(q: Knex.QueryBuilder, colonneCampagne: string, campagnes: number[]): Knex.QueryBuilder {
  return q
    .join("campagne as c", "c.id", colonneCampagne)
    .join("exploitation as e", "e.id", "c.idExploitation")
    .whereIn(colonneCampagne, campagnes)
    .select({ exploitation: "e.libelle", prefixeCampagne: "c.prefixeCampagne", apiLibelle: "c.apiLibelle", annee: "c.anneeRecolte" });
}

export const GROUPES: Groupe[] = [
  {
    code: "parcelles",
    cle: "p.id",
    colonnes: [
      { champ: "parcelle" },
      { type: "nombre", champ: "surface" },
      { type: "nombre", champ: "surfaceReelle" },
      { champ: "mode" },
      { champ: "ilot" },
      { champ: "insee" },
      { type: "booleen", champ: "irrigable" },
      { type: "booleen", champ: "drainee" },
      { type: "nombre", champ: "objectif" },
      { champ: "remarque" },
    ],
    parties: [
      (db, ids) =>
        avecCampagne(db("parcelle as p"), "p.idCampagne", ids).leftJoin("mode_conduite as m", "m.id", "p.idModeConduite").select({
          cle: "p.id",
          parcelle: "p.libelle",
          surface: "p.surface",
          surfaceReelle: "p.surfaceReelle",
          mode: "m.libelle",
          ilot: "p.noIlotPac",
          insee: "p.codeInsee",
          irrigable: "p.irrigable",
          drainee: "p.drainee",
          objectif: "p.objectifRendement",
          remarque: "p.remarque",
        }),
    ],
  },
  {
    code: "interventions",
    cle: "a.id",
    colonnes: [
      { champ: "parcelle" },
      { type: "date", champ: "date" },
      { champ: "operation" },
      { champ: "cultureConcernee" },
      { type: "booleen", champ: "realisee" },
      { type: "booleen", champ: "prevue" },
      { type: "nombre", champ: "frequence" },
      { type: "nombre", champ: "tauxSurface" },
      { type: "nombre", champ: "passages" },
      { type: "nombre", champ: "carburant" },
      { champ: "evenement" },
    ],
    parties: [
      (db, ids, en) =>
        avecCampagne(db("action as a"), "a.idCampagne", ids)
          .join("parcelle as p", "p.id", "a.idParcelle")
          .leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
          .leftJoin("culture as cu", "cu.id", "a.idCultureConcernee")
          .select({
            cle: "a.id",
            parcelle: "p.libelle",
            date: "a.date",
            operation: "o.libelle",
            cultureConcernee: lib(db, "cu", en),
            realisee: "a.realisee",
            prevue: "a.prevue",
            frequence: "a.frequence",
            tauxSurface: "a.tauxSurface",
            passages: "a.nombrePassage",
            carburant: "a.consoCarburant",
            evenement: "a.intituleEvenement",
          }),
    ],
  },
  {
    code: "intrants",
    cle: "i.id",
    colonnes: [
      { champ: "parcelle" },
      { type: "date", champ: "date" },
      { champ: "operation" },
      { champ: "intrant" },
      { champ: "code" },
      { type: "nombre", champ: "quantite" },
      { champ: "unite" },
    ],
    parties: [
      (db, ids) =>
        avecCampagne(db("intrant as i").join("action as a", "a.id", "i.idAction"), "a.idCampagne", ids)
          .join("parcelle as p", "p.id", "a.idParcelle")
          .leftJoin("operation_culturale as o", "o.id", "a.idOperationCulturale")
          .select({
            cle: "i.id",
            parcelle: "p.libelle",
            date: "a.date",
            operation: "o.libelle",
            intrant: "i.libelleIntrant",
            code: "i.codeIntrant",
            quantite: "i.quantite",
            unite: "i.dicLlUnite",
          }),
    ],
  },
  {
    code: "recoltes",
    cle: "r.id",
    colonnes: [
      { champ: "parcelle" },
      { type: "date", champ: "date" },
      { champ: "culture" },
      { champ: "sortie" },
      { type: "nombre", champ: "rendement" },
      { champ: "unite" },
    ],
    parties: [
      (db, ids, en) =>
        avecCampagne(db("recolte as r").join("action as a", "a.id", "r.idAction"), "a.idCampagne", ids)
          .join("parcelle as p", "p.id", "a.idParcelle")
          .leftJoin("culture as cu", "cu.id", "r.idCulture")
          .leftJoin("type_sortie as ts", "ts.id", "r.dicIdTypeSortie")
          .select({
            cle: "r.id",
            parcelle: "p.libelle",
            date: "a.date",
            culture: lib(db, "cu", en),
            sortie: lib(db, "ts", en),
            rendement: "r.rendement",
            unite: "r.dicLlUnite",
          }),
    ],
  },
  {
    code: "observations",
    cle: "ob.id",
    colonnes: [
      { champ: "serie" },
      { champ: "parcelle" },
      { type: "date", champ: "date" },
      { champ: "element" },
      { type: "nombre", champ: "valeur" },
      { champ: "texte" },
      { champ: "unite" },
      { champ: "remarque" },
    ],
    parties: [
      (db, ids, en) =>
        avecCampagne(db("observation as ob").join("observation_serie as s", "s.id", "ob.idObservationSerie"), "s.idCampagne", ids)
          .join("parcelle as p", "p.id", "ob.idParcelle")
          .leftJoin("element_observe as el", "el.id", "ob.dicoIdEltObserve")
          .select({
            cle: "ob.id",
            serie: "s.nom",
            parcelle: "p.libelle",
            date: db.raw("coalesce(ob.date, s.date)"),
            element: lib(db, "el", en),
            valeur: "ob.obsValNum",
            texte: "ob.obsValTxt",
            unite: "ob.dicLlUnite",
            remarque: "ob.remarque",
          }),
    ],
  },
  {
    code: "materiel",
    cle: "m.id",
    colonnes: [
      { champ: "materiel" },
      { type: "nombre", champ: "puissance" },
      { type: "nombre", champ: "debit" },
      { type: "nombre", champ: "prixAchat" },
      { type: "nombre", champ: "utilisation" },
      { type: "nombre", champ: "amortissement" },
      { champ: "remarque" },
    ],
    parties: [
      (db, ids) =>
        avecCampagne(db("parc_materiel as m"), "m.idCampagne", ids).select({
          cle: "m.id",
          materiel: "m.libelle",
          puissance: "m.puissance",
          debit: "m.debit",
          prixAchat: "m.prixAchat",
          utilisation: "m.utilisationAnnuelle",
          amortissement: "m.dureeAmortissement",
          remarque: "m.remarque",
        }),
    ],
  },
  {
    code: "main_oeuvre",
    cle: "mo.id",
    colonnes: [{ champ: "libelle" }, { type: "nombre", champ: "uta" }, { type: "nombre", champ: "montant" }, { champ: "remarque" }],
    parties: [
      (db, ids) =>
        avecCampagne(db("main_oeuvre as mo"), "mo.idCampagne", ids).select({
          cle: "mo.id",
          libelle: "mo.libelle",
          uta: "mo.uta",
          montant: "mo.montant",
          remarque: "mo.remarque",
        }),
    ],
  },
  {
    code: "prix",
    cle: "x.id",
    colonnes: [{ champ: "type" }, { champ: "produit" }, { type: "nombre", champ: "prix" }, { champ: "unite" }],
    parties: [
      (db, ids, en) =>
        avecCampagne(db("prix_appro as x"), "x.idCampagne", ids).select({
          cle: "x.id",
          type: db.raw("?", [textes(en)["types-prix"].appro]),
          produit: "x.libelleIntrant",
          prix: "x.prixAchat",
          // The price is in euros per the part of the dose unit before the slash (KG/HA: €/kg).
          unitePrix: "x.unite",
        }),
      (db, ids, en) =>
        avecCampagne(db("prix_vente as x"), "x.idCampagne", ids)
          .join("culture as cu", "cu.id", "x.idCulture")
          .join("type_sortie as ts", "ts.id", "x.idTypeSortie")
          .select({
            cle: "x.id",
            type: db.raw("?", [textes(en)["types-prix"].vente]),
            produit: db.raw(
              `${en ? "coalesce(cu.libelle_en, cu.libelle)" : "cu.libelle"} || ' - ' || ${en ? "coalesce(ts.libelle_en, ts.libelle)" : "ts.libelle"}`,
            ),
            prix: "x.prixVente",
            unite: db.raw("'€/t'"),
            unitePrix: db.raw("null"),
          }),
    ],
  },
];

const PAGE = 2000;

/** The rows a part would write (its count query, without paging). */
async function compter(db: Db, partie: Partie, campagnes: number[], cle: string): Promise<number> {
  const q = partie(db, campagnes, false).clearSelect().clearOrder().countDistinct({ n: cle });
  const r = await q.first();
  return Number((r as { n?: number | string } | undefined)?.n ?? 0);
}

/**
 * A row as the sheet shows it (issue 29): the campaign as the screens name it (its prefix and label, as
 * campagneLibelle), and a supply price's unit in euros per the dose unit's first part (KG/HA: €/kg).
 */
function ligneExport(r: Record<string, unknown>): Record<string, unknown> {
  const campagne = campagneLibelle({ prefixeCampagne: String(r.prefixeCampagne ?? ""), apiLibelle: String(r.apiLibelle ?? "") });
  const l: Record<string, unknown> = { ...r, campagne: celluleCampagne(campagne) };
  if (r.unitePrix != null && r.unitePrix !== "") l.unite = uniteDePrix(String(r.unitePrix));
  return l;
}

/** The unit of a price per dose unit: "KG/HA" → "€/kg", "L" → "€/l", "T/HA" → "€/t". */
export function uniteDePrix(uniteDose: string): string {
  const base = uniteDose.split("/")[0].trim();
  return base ? `€/${base.toLowerCase()}` : "€";
}

function jourTexte(v: unknown): string | null {
  if (v == null) return null;
  const s = v instanceof Date ? v.toISOString() : String(v);
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : s;
}

function valeur(v: unknown, type: TypeColonne | undefined): Valeur {
  if (v == null) return null;
  if (type === "nombre") {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  if (type === "booleen") return bool(v);
  if (type === "date") return v instanceof Date ? v : String(v);
  return typeof v === "string" || typeof v === "number" ? v : String(v);
}

/** The rows each chosen group would write for these campaigns, by sheet name. */
async function compterGroupes(db: Db, codes: { code: string; nom: string }[], campagnes: number[]): Promise<Record<string, number>> {
  const comptes: Record<string, number> = {};
  for (const d of codes) {
    const g = GROUPES.find((x) => x.code === d.code);
    if (!g) continue;
    let n = 0;
    for (const p of g.parties) n += await compter(db, p, campagnes, g.cle);
    comptes[d.nom] = n;
  }
  return comptes;
}

/**
 * POST session_exports for raw data: the campaigns' rights, then the rows of every sheet counted, so that an export
 * over the spreadsheet limit is refused at once (413 exports.trop-de-lignes, A-EXPORT-25) and no session is created;
 * then the session and its job.
 */
export async function creerExportDonneesBrutes(scope: Scope, demande: Omit<DemandeSessionExport, "nature">): Promise<{ id: number; idTache: number }> {
  const { db } = scope;
  await verifierCampagnesExportables(scope, demande.campagnes, NATURE_DONNEES_BRUTES);
  const codes = (await db("donnee_exportable")
    .whereIn("id", [...new Set(demande.groupes)])
    .select("code", "libelle")) as { code: string; libelle: string }[];
  verifierLignesExport(
    await compterGroupes(
      db,
      codes.map((c) => ({ code: c.code, nom: c.libelle })),
      [...new Set(demande.campagnes)],
    ),
  );
  return creerSessionExport(scope, { ...demande, nature: NATURE_DONNEES_BRUTES }, TACHE_EXPORT_DONNEES_BRUTES);
}

definirTache<ParametresSessionExport>(
  TACHE_EXPORT_DONNEES_BRUTES,
  (ctx) =>
    ecrireSessionExport(ctx, async ({ classeur, session, progression, db }) => {
      const choisis = (await db("donnee_exportable").whereIn("id", session.groupes).orderBy("ordre").select("code", "libelle", "libelleEn")) as {
        code: string;
        libelle: string;
        libelleEn: string | null;
      }[];
      const groupes = choisis.flatMap((d) => {
        const g = GROUPES.find((x) => x.code === d.code);
        return g ? [{ ...g, nom: session.anglais ? d.libelleEn || d.libelle : d.libelle }] : [];
      });
      // Counted before anything is written: one sheet over the limit refuses the whole export (A-EXPORT-25).
      const comptes = await compterGroupes(db, groupes, session.campagnes);
      verifierLignesExport(comptes);
      const total = Object.values(comptes).reduce((a, b) => a + b, 0);
      let fait = 0;
      await progression(0, total);
      const v1 = session.version === 1;
      for (const g of groupes) {
        const colonnes = [...TETE, ...g.colonnes];
        const feuille = classeur.feuille(
          g.nom,
          colonnes.map((c) => ({ entete: textes(session.anglais).colonnes[c.champ], type: c.type === "date" && v1 ? "texte" : c.type })),
        );
        // One campaign at a time, each paged by key (issue 30): a page reads the next rows of one campaign through
        // its campaign index in key order, where `id_campagne IN (...) AND id > ? ORDER BY id` sorted every
        // remaining row of all the campaigns at each page (quadratic). Rows come campaign by campaign, in the
        // session's campaign order: the export of several campaigns is the concatenation of the single ones.
        for (const idCampagne of session.campagnes)
          for (const partie of g.parties) {
            let apres = 0;
            for (;;) {
              const rows = (await partie(db, [idCampagne], session.anglais).where(g.cle, ">", apres).orderBy(g.cle).limit(PAGE)) as Record<string, unknown>[];
              for (const r of rows) {
                const l = ligneExport(r);
                await feuille.ligne(colonnes.map((c) => (c.type === "date" && v1 ? jourTexte(l[c.champ]) : valeur(l[c.champ], c.type))));
              }
              fait += rows.length;
              if (rows.length) await progression(fait, total);
              if (rows.length < PAGE) break;
              apres = Number(rows[rows.length - 1].cle);
            }
          }
      }
      return;
    }),
  { siInterrompue: sessionsInterrompues },
);
