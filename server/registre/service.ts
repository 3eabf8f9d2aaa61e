import ExcelJS from "exceljs";
import { hasFarmPermission, hasFolderPermission } from "~/domain/access/rights";
import {
  COLONNES_REGISTRE,
  controlerRegistre,
  echeanceRegistre,
  REFERENTIEL_REGISTRE,
  RegistreDemandeSchema,
  RegistreDossierSchema,
  registreCsv,
  statutRegistre,
  VERSION_REGISTRE,
  type Constat,
  type LigneRegistre,
  type StatutRegistre,
} from "~/domain/registre";
import { findFarmLink } from "../access/abilities";
import { campaignContext } from "../access/description";
import type { Scope } from "../access/scope";
import { findFolderRight, listExploitationsOfDossier } from "../contexte/repo";
import { failingWith, parse, ServiceError } from "../errors";
import { campagnesDePeriode, farmHeader, findCampagneOfExploitation, lignesRegistre } from "./repo";
import { zip } from "./zip";

/**
 * The plant-protection register (issue 28, decisions 0104, 0105): one farm's register for a campaign or a date range,
 * its checks, its files (CSV, XLSX, JSON), and a folder's farms by register status. Reading it needs the reading
 * right on the folder and on the farm's link (a synthesis right is not enough: the register names every treatment).
 */

/** The load error of the register (app/locales/fr/registre.ts and its English twin). */
export const REGISTRE_ERROR = "registre.erreur-chargement";

export type Registre = {
  referentiel: string;
  version: number;
  exploitation: { id: number; libelle: string; siret: string | null };
  periode: { idCampagne: number | null; du: string | null; au: string | null };
  lignes: LigneRegistre[];
  constats: Constat[];
  statut: StatutRegistre;
  /** The last day the electronic register of the period's last treatment is due (arrêté of 24 December 2025, art. 4). */
  echeance: string | null;
};

/** The reading right on the folder and on the farm's link in it; once per scope. */
export function ensureReadRegistre(scope: Scope, idDossier: number, idExploitation: number): Promise<void> {
  return scope.remember(`registre:read:${idDossier}:${idExploitation}`, async () => {
    const { db, user } = scope;
    const [folder, farm] = await Promise.all([findFolderRight(db, user.id, idDossier), findFarmLink(db, idDossier, idExploitation)]);
    if (!hasFolderPermission(folder, "Lecture") || !hasFarmPermission(farm, "Lecture")) throw new ServiceError("errors.forbidden", 403);
  });
}

/** One farm's register: `input` is parsed with RegistreDemandeSchema (a campaign of the farm, or a date range). */
export async function registreExploitation(scope: Scope, input: unknown): Promise<Registre> {
  const demande = parse(RegistreDemandeSchema, input);
  await ensureReadRegistre(scope, demande.idDossier, demande.idExploitation);
  const { db } = scope;
  return failingWith(REGISTRE_ERROR, async () => {
    const farm = await farmHeader(db, demande.idExploitation);
    if (!farm) throw new ServiceError("errors.not-found", 404);
    let idCampagnes: number[];
    if (demande.idCampagne != null) {
      const c = await findCampagneOfExploitation(db, demande.idCampagne, demande.idExploitation);
      if (!c) throw new ServiceError("errors.not-found", 404);
      idCampagnes = [demande.idCampagne];
    } else idCampagnes = await campagnesDePeriode(db, demande.idExploitation, demande.du!, demande.au!);
    const { lignes, faits } = await lignesRegistre(db, demande.idExploitation, { idCampagnes, du: demande.du, au: demande.au });
    const constats = controlerRegistre(lignes, faits);
    const last = lignes.reduce<string | null>((m, l) => (m == null || l.date > m ? l.date : m), null);
    return {
      referentiel: REFERENTIEL_REGISTRE,
      version: VERSION_REGISTRE,
      exploitation: { id: farm.id, libelle: farm.libelle, siret: farm.siret },
      periode: { idCampagne: demande.idCampagne ?? null, du: demande.du ?? null, au: demande.au ?? null },
      lignes,
      constats,
      statut: statutRegistre(lignes.length, constats),
      echeance: last ? echeanceRegistre(last) : null, // none for uses before 2027
    };
  });
}

/** A date range asked on the screen (`?du=&au=`): both ends, else none. */
export type Periode = { du?: string | null; au?: string | null };

/**
 * The register of the selected campaign (the screen and its exports): the selected folder, farm and campaign; or,
 * when a date range is given, the selected farm's treatments in that range (parsed with RegistreDemandeSchema).
 */
export async function registreDeLaCampagne(scope: Scope, periode: Periode = {}): Promise<Registre> {
  const ctx = await campaignContext(scope);
  const base = { idDossier: ctx.view.selected.idDossier, idExploitation: ctx.idExploitation };
  if (periode.du || periode.au) return registreExploitation(scope, { ...base, du: periode.du, au: periode.au });
  return registreExploitation(scope, { ...base, idCampagne: ctx.idCampagne });
}

/** The range of the folder view: the one asked, else the calendar year of the selected campaign's harvest (arrêté art. 4: year N due 31 January N+1). */
async function periodeDuDossier(scope: Scope, periode: Periode) {
  const ctx = await campaignContext(scope);
  const year = ctx.view.campagne!.anneeRecolte;
  return { idDossier: ctx.view.selected.idDossier, du: periode.du || `${year}-01-01`, au: periode.au || `${year}-12-31` };
}

/** The selected folder's farms by register status (the adviser's view), without their lines. */
export async function statutsDuDossier(scope: Scope, periode: Periode = {}) {
  const { du, au, exploitations } = await registreDossier(scope, await periodeDuDossier(scope, periode));
  return { du, au, exploitations };
}

/** The selected folder's archive: one CSV per farm the user may read, for the range. */
export async function archiveDuDossier(scope: Scope, periode: Periode = {}): Promise<{ du: string; au: string; zip: Buffer }> {
  const input = await periodeDuDossier(scope, periode);
  return { du: input.du, au: input.au, zip: await archiveDossier(scope, input) };
}

/** The register as a CSV file: UTF-8 with its byte-order mark (so that spreadsheets read the accents), annex columns. */
export function fichierCsv(registre: Registre): Buffer {
  return Buffer.from("\uFEFF" + registreCsv(registre.lignes), "utf8");
}

/** The register as JSON: the reference text and version, the farm, the period, the lines and the findings. */
export function fichierJson(registre: Registre): Buffer {
  const { referentiel, version, exploitation, periode, lignes, constats, echeance } = registre;
  const colonnes = COLONNES_REGISTRE.map((c) => ({ cle: c.cle, nom: c.nom }));
  return Buffer.from(JSON.stringify({ referentiel, version, exploitation, periode, echeance, colonnes, lignes, constats }, null, 2), "utf8");
}

/** The register as a workbook: the lines (annex columns), the findings, and what the file follows. */
export async function fichierXlsx(registre: Registre): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = "Sillon";
  const ws = wb.addWorksheet("Registre");
  ws.columns = COLONNES_REGISTRE.map((c) => ({ header: c.nom, key: c.cle, width: Math.max(12, c.nom.length + 2) }));
  for (const l of registre.lignes) {
    ws.addRow(Object.fromEntries(COLONNES_REGISTRE.map((c) => [c.cle, typeof l[c.cle] === "boolean" ? (l[c.cle] ? "oui" : "non") : l[c.cle]])));
  }
  ws.getRow(1).font = { bold: true };
  ws.views = [{ state: "frozen", ySplit: 1 }];
  const checks = wb.addWorksheet("Contrôles");
  checks.columns = [
    { header: "Date", key: "date", width: 12 },
    { header: "Parcelle", key: "parcelle", width: 24 },
    { header: "Produit", key: "produit", width: 24 },
    { header: "Règle", key: "regle", width: 24 },
    { header: "Champ", key: "champ", width: 16 },
    { header: "Valeurs", key: "valeurs", width: 40 },
    { header: "Source", key: "source", width: 60 },
  ];
  const byInput = new Map(registre.lignes.map((l) => [l.idIntrant, l]));
  for (const c of registre.constats) {
    const l = byInput.get(c.idIntrant);
    checks.addRow({
      date: l?.date,
      parcelle: l?.parcelle,
      produit: l?.produit,
      regle: c.regle,
      champ: c.champ ?? "",
      valeurs: Object.entries(c.valeurs)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ; "),
      source: c.source,
    });
  }
  checks.getRow(1).font = { bold: true };
  const about = wb.addWorksheet("À propos");
  about.addRows([
    ["Référentiel", registre.referentiel],
    ["Version", registre.version],
    ["Exploitation", registre.exploitation.libelle],
    ["SIRET", registre.exploitation.siret ?? ""],
    ["Campagne", registre.periode.idCampagne ?? ""],
    ["Du", registre.periode.du ?? ""],
    ["Au", registre.periode.au ?? ""],
  ]);
  about.getColumn(1).width = 16;
  about.getColumn(2).width = 120;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export type LigneDossier = {
  idExploitation: number;
  libelle: string;
  statut: StatutRegistre;
  lignes: number;
  champsManquants: number;
  constats: number;
  echeance: string | null;
};

/**
 * A folder's farms by register status for a date range (the adviser's view): every farm of the folder the user may
 * read (reading right on the folder and on the farm's link); the others are left out, never named.
 */
export async function registreDossier(scope: Scope, input: unknown): Promise<{ du: string; au: string; exploitations: LigneDossier[]; registres: Registre[] }> {
  const { idDossier, du, au } = parse(RegistreDossierSchema, input);
  const { db, user } = scope;
  const folder = await findFolderRight(db, user.id, idDossier);
  if (!hasFolderPermission(folder, "Lecture")) throw new ServiceError("errors.forbidden", 403);
  const farms = (await listExploitationsOfDossier(db, idDossier)).filter((f) => hasFarmPermission(f.right, "Lecture"));
  const registres: Registre[] = [];
  for (const f of farms) registres.push(await registreExploitation(scope, { idDossier, idExploitation: f.id, du, au }));
  return {
    du,
    au,
    registres,
    exploitations: registres.map((r) => ({
      idExploitation: r.exploitation.id,
      libelle: r.exploitation.libelle,
      statut: r.statut,
      lignes: r.lignes.length,
      champsManquants: r.constats.filter((c) => c.regle === "champ-manquant").length,
      constats: r.constats.filter((c) => c.regle !== "champ-manquant").length,
      echeance: r.echeance,
    })),
  };
}

/** A file name part from a farm's name: letters, digits and dashes only. */
const slug = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();

/**
 * The folder's registers in one zip archive: one CSV per farm the user may read (named by its SIRET, else its id,
 * and its name), and `statuts-dossier.json` with each farm's status, for the date range.
 */
export async function archiveDossier(scope: Scope, input: unknown): Promise<Buffer> {
  const { du, au, exploitations, registres } = await registreDossier(scope, input);
  const files = registres.map((r) => ({
    name: `registre-${r.exploitation.siret ?? r.exploitation.id}-${slug(r.exploitation.libelle)}.csv`,
    data: fichierCsv(r),
  }));
  files.push({
    name: "statuts-dossier.json",
    data: Buffer.from(JSON.stringify({ referentiel: REFERENTIEL_REGISTRE, version: VERSION_REGISTRE, du, au, exploitations }, null, 2)),
  });
  return zip(files);
}
