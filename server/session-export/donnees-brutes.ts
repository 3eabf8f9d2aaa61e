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
import {
  countLignesDonneesBrutes,
  listDonneesExportablesOfIds,
  listDonneesExportablesOfIdsByOrdre,
  listPageDonneesBrutes,
  partiesOfGroupeDonneesBrutes,
  type LectureDonneesBrutes,
} from "./repo";

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
/** A sheet: its group (donnee_exportable.code, whose queries are in repo.ts) and its columns after the campaign ones. */
type Groupe = { code: string; colonnes: ColonneGroupe[] };

const TETE: ColonneGroupe[] = [{ champ: "exploitation" }, { champ: "campagne" }, { type: "nombre", champ: "annee" }];

export const GROUPES: Groupe[] = [
  {
    code: "parcelles",
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
  },
  {
    code: "interventions",
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
  },
  {
    code: "intrants",
    colonnes: [
      { champ: "parcelle" },
      { type: "date", champ: "date" },
      { champ: "operation" },
      { champ: "intrant" },
      { champ: "code" },
      { type: "nombre", champ: "quantite" },
      { champ: "unite" },
    ],
  },
  {
    code: "recoltes",
    colonnes: [
      { champ: "parcelle" },
      { type: "date", champ: "date" },
      { champ: "culture" },
      { champ: "sortie" },
      { type: "nombre", champ: "rendement" },
      { champ: "unite" },
    ],
  },
  {
    code: "observations",
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
  },
  {
    code: "materiel",
    colonnes: [
      { champ: "materiel" },
      { type: "nombre", champ: "puissance" },
      { type: "nombre", champ: "debit" },
      { type: "nombre", champ: "prixAchat" },
      { type: "nombre", champ: "utilisation" },
      { type: "nombre", champ: "amortissement" },
      { champ: "remarque" },
    ],
  },
  {
    code: "main_oeuvre",
    colonnes: [{ champ: "libelle" }, { type: "nombre", champ: "uta" }, { type: "nombre", champ: "montant" }, { champ: "remarque" }],
  },
  {
    code: "prix",
    colonnes: [{ champ: "type" }, { champ: "produit" }, { type: "nombre", champ: "prix" }, { champ: "unite" }],
  },
];

const PAGE = 2000;

/** What the group queries of server/session-export/repo.ts read: the campaigns, labels in the session's language. */
const lecture = (campagnes: number[], en: boolean): LectureDonneesBrutes => ({
  campagnes,
  anglais: en,
  typesPrix: { appro: textes(en)["types-prix"].appro, vente: textes(en)["types-prix"].vente },
});

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
    comptes[d.nom] = await countLignesDonneesBrutes(db, g.code, lecture(campagnes, false));
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
  const codes = await listDonneesExportablesOfIds(db, [...new Set(demande.groupes)]);
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
      const choisis = await listDonneesExportablesOfIdsByOrdre(db, session.groupes);
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
          for (let partie = 0; partie < partiesOfGroupeDonneesBrutes(g.code); partie++) {
            let apres = 0;
            for (;;) {
              const rows = await listPageDonneesBrutes(db, g.code, partie, lecture([idCampagne], session.anglais), { apres, limite: PAGE });
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
