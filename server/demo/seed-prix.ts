import type { Knex } from "knex";
import { TYPE_INTRANT } from "~/domain/intrant";
import { roundPrix } from "~/domain/prix";
import { usedAppro, usedVente } from "../prix/repo";
import { inChunks } from "../db/chunks";

/**
 * Demo prices (issue 13): the supply price of every product the demo campaigns' inputs use and the sale price of
 * every output their harvests give, so that both price screens, their filters and the proposed prices (statistics
 * over the other campaigns) show something. Prices are typical French farm-gate figures of 2024 (€ excl. VAT per the
 * unit's part before the slash), moved a little per farm and year. In EARL des Tilleuls 2025 a few rows stay
 * unpriced (the other inputs, the cover-crop seeds, one sale price), so the 'unspecified price' filter finds them.
 *
 * Tilleuls 2025 has harvest interventions but no harvest products yet: each gets its crop's main output and a
 * yield, so that the sale prices of that campaign have rows.
 */

/** € per unit before the slash (L, KG, T, MM, AUTRE). */
const PRIX_APPRO: Record<string, number> = {
  "FIDOX 800": 11.5,
  "AZOXYSTAR 250": 21,
  MODDUS: 38,
  "BETAGRI SC": 19,
  "COLZOR TRIO": 29,
  "KARATE AVEC TECHNOLOGIE ZEON": 85,
  "ADENGO XTRA": 95,
  "ROUNDUP DYNAMIC": 6.8,
  COCKPIT: 24,
  "Ammonitrate 33,5": 0.42,
  "Urée 46": 0.48,
  "Solution azotée 390": 0.35,
  "Engrais NPK 15-15-15": 0.55,
  "Superphosphate 45": 0.52,
  "Chlorure de potasse 60": 0.45,
  "Bore foliaire": 3.2,
  "Sulfate d'ammoniaque 21": 0.33,
  "Fumier de bovins": 12,
  "Lisier de bovins": 3,
  "Chaux magnésienne": 0.06,
  "Blé tendre d'hiver – KWS Extase": 0.75,
  "Orge de printemps – RGT Planet": 0.8,
  "Colza d'hiver – variété hybride restaurée": 95,
  Féverole: 0.9,
  "Pois protéagineux de printemps – Kayanne": 0.85,
  "Maïs grain – variété demi-précoce": 3.6,
  "Maïs ensilage – variété précoce": 3.4,
  "Betterave sucrière – variété tolérante rhizomanie": 280,
  "Ficelle de presse": 3,
};
const PRIX_APPRO_PAR_TYPE: Record<number, number> = {
  [TYPE_INTRANT.SEMENCE]: 1,
  [TYPE_INTRANT.PHYTO]: 20,
  [TYPE_INTRANT.FERTILISANT]: 0.4,
  [TYPE_INTRANT.EAU]: 1.5,
  [TYPE_INTRANT.AUTRE]: 2,
};

/** €/t by crop label (its start), else 200. */
const PRIX_VENTE: [string, number][] = [
  ["Blé", 210],
  ["Orge", 190],
  ["Colza", 450],
  ["Betterave", 38],
  ["Pois", 260],
  ["Maïs ensilage", 45],
  ["Maïs", 185],
  ["Féverole", 280],
];

const RENDEMENTS_2025: [string, number][] = [
  ["Blé", 7.4],
  ["Orge", 6.5],
  ["Colza", 3.5],
  ["Betterave", 88],
  ["Pois", 3.8],
  ["Maïs", 10.5],
];

/** Left unpriced in Tilleuls 2025: the other inputs and these seeds. */
const SANS_PRIX_2025 = new Set(["Moutarde blanche", "Phacélie", "Mélange d'interculture (avoine, vesce, phacélie)"]);

const FARM_OFFSET: Record<string, number> = { tilleuls: 0, moulin: 0.03, vallee: -0.02 };

function factor(name: string, annee: number) {
  const farm = name.slice(0, name.search(/\d/));
  return 1 + (annee - 2024) * 0.04 + (FARM_OFFSET[farm] ?? 0) + (name.endsWith("Simulation") ? -0.05 : 0);
}

/**
 * The harvests of a campaign's harvest interventions, at the typical yields above, when it has none yet: the demo's
 * margins, production costs and yields need a product on every farm (the Tilleuls 2024 harvests come from
 * seedDemoRecoltes with their own figures).
 */
async function harvests2025(trx: Knex.Transaction, idCampagne: number): Promise<void> {
  const has = await trx("recolte as r").join("action as a", "a.id", "r.idAction").where("a.idCampagne", idCampagne).first("r.id");
  if (has) return;
  const actions = await trx("action as a")
    .join("culture as c", "c.id", "a.idCultureConcernee")
    .where("a.idCampagne", idCampagne)
    .whereIn("a.dicIdTypeAction", [15, 16, 17])
    .orderBy("a.id")
    .select("a.id", "a.idCultureConcernee", "c.libelle");
  for (const a of actions) {
    const rendement = RENDEMENTS_2025.find(([crop]) => String(a.libelle).startsWith(crop))?.[1];
    const type = await trx("culture_type_sortie as cts")
      .join("type_sortie as ts", "ts.id", "cts.idTypeSortie")
      .where("cts.idCulture", a.idCultureConcernee)
      .orderBy([{ column: "ts.ordre" }, { column: "ts.id" }])
      .first("ts.id", "ts.unite");
    if (!type || rendement === undefined) continue;
    await trx("recolte").insert({ idAction: a.id, idCulture: a.idCultureConcernee, dicIdTypeSortie: type.id, rendement, dicLlUnite: type.unite });
  }
}

export async function seedDemoPrix(trx: Knex.Transaction, campagnes: Record<string, number>): Promise<void> {
  for (const idCampagne of Object.values(campagnes)) await harvests2025(trx, idCampagne);
  for (const [name, idCampagne] of Object.entries(campagnes)) {
    const annee = Number(name.match(/\d{4}/)?.[0] ?? 2024);
    const f = factor(name, annee);
    const demoUnpriced = name === "tilleuls2025";
    const appro = (await usedAppro(trx, idCampagne)).map(
      ({ cle, idOrigineIntrant, idTypeIntrant, idIntrant, idModalite, traitementSemence, libelleIntrant, libelleIntrantConcat, unite }) => {
        const unpriced = demoUnpriced && (idTypeIntrant === TYPE_INTRANT.AUTRE || SANS_PRIX_2025.has(libelleIntrant));
        const base = PRIX_APPRO[libelleIntrant] ?? PRIX_APPRO_PAR_TYPE[idTypeIntrant] ?? 1;
        return {
          idCampagne,
          cle,
          idOrigineIntrant,
          idTypeIntrant,
          idIntrant,
          idModalite,
          traitementSemence,
          libelleIntrant,
          libelleIntrantConcat,
          unite,
          prixAchat: unpriced ? null : roundPrix(base * f),
        };
      },
    );
    for (const chunk of inChunks(appro, 200)) await trx("prix_appro").insert(chunk);

    const ventes = await usedVente(trx, idCampagne);
    const crops = new Map(
      (
        await trx("culture")
          .whereIn("id", [...new Set(ventes.map((v) => v.idCulture))])
          .select("id", "libelle")
      ).map((c) => [Number(c.id), String(c.libelle)]),
    );
    const rows = ventes.map((v, i) => {
      const base = PRIX_VENTE.find(([crop]) => (crops.get(v.idCulture) ?? "").startsWith(crop))?.[1] ?? 200;
      const unpriced = demoUnpriced && i === ventes.length - 1;
      return { idCampagne, ...v, prixVente: unpriced ? null : roundPrix(base * f) };
    });
    if (rows.length) await trx("prix_vente").insert(rows);
  }
}
