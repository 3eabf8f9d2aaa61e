import { bool } from "../db/dialect";
import type { Db } from "../db/knex";

/** The farms a folder links, by name. */
export async function listExploitationsDossier(db: Db, idDossier: number) {
  const rows = await db("dossier_exploitation as de")
    .join("exploitation as e", "e.id", "de.idExploitation")
    .where("de.idDossier", idDossier)
    .orderBy([{ column: "e.libelle" }, { column: "e.id" }])
    .select("e.id", "e.libelle");
  return rows.map((r) => ({ id: Number(r.id), libelle: String(r.libelle) }));
}

/** The campaigns (not simulations) of some farms. */
export async function listCampagnesReelles(db: Db, idExploitations: number[]) {
  if (!idExploitations.length) return [];
  const rows = await db("campagne")
    .whereIn("idExploitation", idExploitations)
    .orderBy([{ column: "anneeRecolte", order: "desc" }, { column: "id" }])
    .select("id", "idExploitation", "anneeRecolte", "prefixeCampagne", "apiLibelle", "simulation");
  return rows
    .filter((r) => !bool(r.simulation))
    .map((r) => ({
      id: Number(r.id),
      idExploitation: Number(r.idExploitation),
      anneeRecolte: Number(r.anneeRecolte),
      prefixeCampagne: String(r.prefixeCampagne ?? ""),
      apiLibelle: String(r.apiLibelle ?? ""),
    }));
}
