import type { Knex } from "knex";
import { ELEMENTS } from "~/domain/intrant";
import { campagneLibelle } from "~/domain/partage";
import type { Db } from "../../db/knex";

/**
 * What the eDaplos export reads beyond the screens' own readers (decision 0096): the plots, their crops and their
 * interventions come from server/parcelle/repo.ts, server/intervention/repo.ts and server/operation-culturale/repo.ts;
 * these add the columns only the export needs, for the same plots: the codes of the inputs (AMM, GNIS, category,
 * composition, seed shares, number of targets), the harvests' crop, output type and characteristics, and the
 * campaign's farm identity. Each read takes a batch of plots of one campaign (a join, not one query per row).
 */

const num = (v: unknown): number | null => (v == null ? null : Number(v));
const text = (v: unknown): string | null => (v == null || v === "" ? null : String(v));

export type CampagneExport = {
  id: number;
  libelle: string;
  prefixeCampagne: string | null;
  anneeRecolte: number;
  idExploitation: number;
  exploitation: string;
  siret: string | null;
  adresse: string | null;
  codePostal: string | null;
  ville: string | null;
};

export async function campagnesExport(db: Db, ids: readonly number[]): Promise<CampagneExport[]> {
  if (!ids.length) return [];
  const rows = await db("campagne as c")
    .join("exploitation as e", "e.id", "c.idExploitation")
    .whereIn("c.id", [...ids])
    .orderBy("c.id")
    .select("c.id", "c.apiLibelle", "c.prefixeCampagne", "c.anneeRecolte", "c.idExploitation", "e.libelle", "e.siret", "e.adresse", "e.codePostal", "e.ville");
  return rows.map((r) => ({
    id: Number(r.id),
    libelle: campagneLibelle({ prefixeCampagne: String(r.prefixeCampagne ?? ""), apiLibelle: String(r.apiLibelle ?? "") }) || String(r.anneeRecolte),
    prefixeCampagne: text(r.prefixeCampagne),
    anneeRecolte: Number(r.anneeRecolte),
    idExploitation: Number(r.idExploitation),
    exploitation: String(r.libelle),
    siret: text(r.siret),
    adresse: text(r.adresse),
    codePostal: text(r.codePostal),
    ville: text(r.ville),
  }));
}

const ofPlots = (q: Knex.QueryBuilder, column: string, idCampagne: number, idParcelles: number[]) =>
  q.join("action as a", "a.id", column).where("a.idCampagne", idCampagne).whereIn("a.idParcelle", idParcelles);

export type CodesIntrant = {
  idCategorie: number | null;
  idTypeIntrant: number | null;
  amm: string | null;
  gnis: string | null;
  traitementSemence: boolean;
  composition: Record<string, number | null> | null;
  semence: { ferme: number | null; certifiee: number | null; ogm: number | null } | null;
  cibles: number;
};

/** The codes of the inputs of these plots' interventions, by input id. */
export async function codesIntrants(db: Db, idCampagne: number, idParcelles: number[]): Promise<Map<number, CodesIntrant>> {
  const out = new Map<number, CodesIntrant>();
  if (!idParcelles.length) return out;
  const rows = await ofPlots(
    db("intrant as i")
      .join("categorie_intrant as c", "c.id", "i.idCategorie")
      .leftJoin("caracteristique_intrant as ci", "ci.idIntrant", "i.id")
      .leftJoin("reference_semence as rs", function () {
        this.on("rs.id", "=", "i.idIntrant").andOn("rs.idOriginIntrant", "=", "i.dicIdOrigineIntrant");
      }),
    "i.idAction",
    idCampagne,
    idParcelles,
  ).select(
    "i.id",
    "i.idCategorie",
    "c.idTypeIntrant",
    "i.codeIntrant",
    "i.codeGnis",
    "rs.codeGnis as gnisReference",
    "i.idIntrantSemence",
    "ci.id as idCaracteristique",
    "ci.semenceFerme",
    "ci.semenceCertifiee",
    "ci.semenceOgm",
    ...ELEMENTS.map((e) => `ci.${e}`),
  );
  const cibles = await ofPlots(
    db("intrant_cible_cible as cc").join("intrant_cible as ic", "ic.id", "cc.idIntrantCible").join("intrant as i", "i.id", "ic.idIntrant"),
    "i.idAction",
    idCampagne,
    idParcelles,
  )
    .groupBy("ic.idIntrant")
    .select("ic.idIntrant", db.raw("count(*) as n"));
  const nCibles = new Map<number, number>(cibles.map((r: Record<string, unknown>) => [Number(r.idIntrant), Number(r.n)]));
  for (const r of rows) {
    const aCaracteristique = r.idCaracteristique != null;
    const composition = aCaracteristique ? Object.fromEntries(ELEMENTS.map((e) => [e, num(r[e])])) : null;
    const semence =
      aCaracteristique && (r.semenceFerme != null || r.semenceCertifiee != null || r.semenceOgm != null)
        ? { ferme: num(r.semenceFerme), certifiee: num(r.semenceCertifiee), ogm: num(r.semenceOgm) }
        : null;
    out.set(Number(r.id), {
      idCategorie: num(r.idCategorie),
      idTypeIntrant: num(r.idTypeIntrant),
      amm: text(r.codeIntrant),
      gnis: text(r.codeGnis) ?? text(r.gnisReference),
      traitementSemence: r.idIntrantSemence != null,
      composition: composition && Object.values(composition).some((v) => v != null) ? composition : null,
      semence,
      cibles: nCibles.get(Number(r.id)) ?? 0,
    });
  }
  return out;
}

export type DetailRecolte = {
  idCulture: number;
  culture: string;
  idTypeSortie: number;
  typeSortie: string;
  caracteristiques: { id: number; idType: number; valeur: number | null; unite: string | null }[];
};

/** The crop, output type and characteristics of the harvests of these plots' interventions, by harvest id. */
export async function detailsRecoltes(db: Db, idCampagne: number, idParcelles: number[]): Promise<Map<number, DetailRecolte>> {
  const out = new Map<number, DetailRecolte>();
  if (!idParcelles.length) return out;
  const rows = await ofPlots(
    db("recolte as r").join("culture as c", "c.id", "r.idCulture").join("type_sortie as ts", "ts.id", "r.dicIdTypeSortie"),
    "r.idAction",
    idCampagne,
    idParcelles,
  ).select("r.id", "r.idCulture", "c.libelle as culture", "r.dicIdTypeSortie", "ts.libelle as typeSortie");
  for (const r of rows)
    out.set(Number(r.id), {
      idCulture: Number(r.idCulture),
      culture: String(r.culture),
      idTypeSortie: Number(r.dicIdTypeSortie),
      typeSortie: String(r.typeSortie),
      caracteristiques: [],
    });
  const cars = await ofPlots(db("caracteristique_recolte as cr").join("recolte as r", "r.id", "cr.idRecolte"), "r.idAction", idCampagne, idParcelles)
    .orderBy([{ column: "cr.idRecolte" }, { column: "cr.ordre" }, { column: "cr.id" }])
    .select("cr.id", "cr.idRecolte", "cr.dicIdCaracteristiqueRecolte", "cr.valeurNum", "cr.unite");
  for (const c of cars)
    out.get(Number(c.idRecolte))?.caracteristiques.push({
      id: Number(c.id),
      idType: Number(c.dicIdCaracteristiqueRecolte),
      valeur: num(c.valeurNum),
      unite: text(c.unite),
    });
  return out;
}
