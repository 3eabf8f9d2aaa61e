import { ELEMENT } from "~/domain/observation";
import type { Db } from "../db/knex";
import { insertId } from "../db/insert-id";

/**
 * Demo observation series (issue 15): on every plot of the demo farms' campaigns, the measures an adviser records
 * in a season: a soil analysis by horizon (1124) and the end-of-winter soil mineral nitrogen (1129) with their
 * laboratory, the crop stage (1125), diseases and pests on the main crop (1126, 1127), a weed count with density
 * classes and weeding efficacy (1131); on the first plot of each campaign two placettes and a plant analysis
 * recorded per placette (1130). Values are plausible for the Beauce and the Bocage, varied by plot.
 */

type Serie = { type: number; nom: string; date: string; stade?: boolean; labo?: string; organe?: number; placettes?: boolean; remarque?: string };

/** A small deterministic spread per plot and element, so the demo values differ from plot to plot. */
const vary = (seed: number, base: number, spread: number, decimals = 1) => Number((base + (((seed * 7919) % 101) / 100 - 0.5) * 2 * spread).toFixed(decimals));

/** A square of `side` degrees inside the plot's outline bounding box (placettes of the demo). */
function square(geometrie: string | null, corner: number): string | null {
  if (!geometrie) return null;
  const g = JSON.parse(geometrie) as { type: string; coordinates: number[][][] };
  if (g.type !== "Polygon") return null;
  const xs = g.coordinates[0].map((c) => c[0]);
  const ys = g.coordinates[0].map((c) => c[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const w = (x1 - x0) / 4;
  const h = (y1 - y0) / 4;
  const x = corner === 0 ? x0 + w / 2 : x1 - w * 1.5;
  const y = corner === 0 ? y0 + h / 2 : y1 - h * 1.5;
  return JSON.stringify({
    type: "Polygon",
    coordinates: [
      [
        [x, y],
        [x + w, y],
        [x + w, y + h],
        [x, y + h],
        [x, y],
      ],
    ],
  });
}

export async function seedDemoObservations(trx: Db, campagnes: Record<string, number>, idUser: number): Promise<void> {
  const stades = await trx("stade_culture").orderBy(["idEchelleStadeAee", "ordre"]).select("id", "idEchelleStadeAee");
  const weeds = await trx("adventice").orderBy("ordre").select("id", "groupe");
  const weedStages = await trx("adventice_stade").orderBy(["idAdventice", "ordre"]).select("id", "idAdventice");
  const densities = await trx("adventice_densite").orderBy(["idAdventice", "ordre"]).select("id", "idAdventice", "ordre");
  const efficacies = await trx("efficacite_desherbage").orderBy("ordre").select("id", "ordre");

  for (const [name, idCampagne] of Object.entries(campagnes)) {
    if (name.endsWith("Simulation")) continue;
    const campagne = await trx("campagne").where({ id: idCampagne }).first("anneeRecolte", "idExploitation");
    const year = Number(campagne.anneeRecolte);
    const idExploitation = Number(campagne.idExploitation);
    const plots = await trx("parcelle")
      .where({ idCampagne })
      .orderBy([{ column: "libelle" }, { column: "id" }])
      .select("id", "idModeConduite", "geometrie");
    for (const [index, plot] of plots.entries()) {
      const idParcelle = Number(plot.id);
      const crop = plot.idModeConduite
        ? await trx("mode_conduite_culture as m")
            .join("culture as c", "c.id", "m.idCulture")
            .where("m.idModeConduite", plot.idModeConduite)
            .orderBy("m.ordre")
            .first("c.id", "c.idEchelleStadeAee")
        : undefined;
      const scale = stades.filter((s) => Number(s.idEchelleStadeAee) === Number(crop?.idEchelleStadeAee ?? 0));
      const stageAt = (rank: number) => (scale.length ? Number(scale[Math.min(rank, scale.length - 1)].id) : null);
      const actions = await trx("action").where({ idCampagne, idParcelle }).orderBy("date").select("id", "date");
      const seed = idParcelle;

      const serie = async (
        s: Serie,
        rows: {
          element: number;
          valeur?: number | null;
          unite?: string | null;
          remarque?: string;
          horizon?: number;
          weed?: number;
          stage?: number;
          placettes?: Record<number, number>;
        }[],
        horizons?: [string, number, number][],
      ) => {
        const id = await insertId(trx, "observation_serie", {
          idCampagne,
          idExploitation,
          idParcelle,
          nom: s.nom,
          date: s.date,
          dicIdTypeSerie: s.type,
          idUser,
          remarque: s.remarque ?? null,
          idCulture: s.stade && crop ? Number(crop.id) : null,
          idStade: s.stade && crop ? stageAt(Number(s.date.slice(5, 7)) > 4 ? 6 : 3) : null,
          idAction: actions.length ? Number(actions[Math.min(1, actions.length - 1)].id) : null,
          isPlacetteSelected: !!s.placettes,
        });
        if (s.labo)
          await trx("observation").insert({
            idObservationSerie: id,
            idParcelle,
            dicoIdEltObserve: ELEMENT.laboratoire,
            obsValTxt: s.labo,
            date: s.date,
            idUser,
          });
        if (s.organe)
          await trx("observation").insert({ idObservationSerie: id, idParcelle, dicoIdEltObserve: ELEMENT.organe, obsValNum: s.organe, date: s.date, idUser });
        const hids: number[] = [];
        for (const [i, [hname, sup, inf]] of (horizons ?? []).entries()) {
          const hid = await insertId(trx, "horizon", { idParent: id, idParcelle, name: hname, ordre: i + 1 });
          hids.push(hid);
          await trx("observation").insert([
            { idObservationSerie: id, idParcelle, idHorizon: hid, dicoIdEltObserve: ELEMENT.limiteSup, obsValNum: sup, dicLlUnite: "cm", date: s.date },
            { idObservationSerie: id, idParcelle, idHorizon: hid, dicoIdEltObserve: ELEMENT.limiteInf, obsValNum: inf, dicLlUnite: "cm", date: s.date },
          ]);
        }
        for (const [i, r] of rows.entries()) {
          const oid = await insertId(trx, "observation", {
            idObservationSerie: id,
            idParcelle,
            dicoIdEltObserve: r.element,
            obsValNum: r.valeur ?? null,
            dicLlUnite: r.unite ?? null,
            remarque: r.remarque ?? null,
            idHorizon: r.horizon != null ? hids[r.horizon] : null,
            idPereStade: r.weed ?? null,
            stadeAdventice: r.stage ?? null,
            date: s.date,
            idUser,
            ordre: i + 1,
          });
          for (const [idPlacette, v] of Object.entries(r.placettes ?? {})) {
            await trx("observation").insert({
              idObservationSerie: id,
              idParcelle,
              idObservationParent: oid,
              idPlacette: Number(idPlacette),
              dicoIdEltObserve: r.element,
              obsValNum: v,
              dicLlUnite: r.unite ?? null,
              date: s.date,
              idUser,
            });
          }
        }
        return id;
      };

      // Soil analysis by horizon, every other year's plots; soil nitrogen at the end of winter on every plot.
      if (index % 2 === 0 || name.startsWith("tilleuls")) {
        const soil: [number, number, string][] = [
          [2010, 7.2, "pH"],
          [2012, 2.1, "%"],
          [2016, 62, "mg/kg"],
          [2018, 180, "mg/kg"],
          [2019, 120, "mg/kg"],
          [2022, 24, "%"],
        ];
        await serie(
          { type: 1124, nom: "Analyse de sol", date: `${year - 1}-08-28`, stade: false, labo: "LDAR – Laboratoire départemental, Laon" },
          soil.flatMap(([element, base, unite], k) =>
            [0, 1].map((h) => ({ element, valeur: vary(seed + k + h, base * (h ? 0.85 : 1), base * 0.1, element === 2010 ? 1 : 1), unite, horizon: h })),
          ),
          [
            ["0-30 cm", 30, 0],
            ["30-60 cm", 60, 30],
          ],
        );
      }
      await serie(
        { type: 1129, nom: "Reliquat sortie d'hiver", date: `${year}-02-05`, stade: true, labo: "Auréa AgroSciences" },
        [0, 1, 2].map((h) => ({ element: 2030, valeur: vary(seed + h, [22, 14, 9][h], 4, 0), unite: "kg N/ha", horizon: h })),
        [
          ["0-30 cm", 30, 0],
          ["30-60 cm", 60, 30],
          ["60-90 cm", 90, 60],
        ],
      );
      if (!crop) continue;
      await serie({ type: 1125, nom: "Stade de la culture", date: `${year}-04-10`, stade: true }, [
        { element: 2040, valeur: vary(seed, 80, 15, 0), unite: "%" },
        { element: 2041, valeur: vary(seed, 45, 8, 0), unite: "%" },
      ]);
      await serie({ type: 1126, nom: "Maladies", date: `${year}-05-12`, stade: true, organe: 3, remarque: "Notation sur 20 plantes" }, [
        { element: 2050, valeur: vary(seed, 25, 15, 0), unite: "% plantes atteintes" },
        { element: 2052, valeur: vary(seed + 3, 8, 6, 0), unite: "% surface atteinte" },
      ]);
      await serie({ type: 1127, nom: "Ravageurs", date: `${year}-04-02`, stade: true, organe: 1 }, [
        { element: 2070, valeur: vary(seed, 4, 3, 1), unite: "individus/plante" },
        { element: 2071, valeur: vary(seed + 1, 2, 2, 0), unite: "individus/piège" },
      ]);
      const weed = weeds[index % weeds.length];
      const stage = weedStages.find((s) => Number(s.idAdventice) === Number(weed.id));
      const density = densities.find((d) => Number(d.idAdventice) === Number(weed.id) && Number(d.ordre) === 2 + (index % 3));
      await serie({ type: 1131, nom: "Adventices", date: `${year}-03-20`, remarque: "Comptage sur 10 quadrats de 0,25 m²" }, [
        { element: ELEMENT.densiteAdventice, valeur: Number(density?.id), weed: Number(weed.id), stage: Number(stage?.id) },
        { element: ELEMENT.efficaciteDesherbage, valeur: Number(efficacies[3 + (index % 2)].id) },
        { element: 2120, valeur: vary(seed, 12, 8, 0), unite: "%" },
      ]);
      // Placettes of the first plot, with a plant analysis recorded on each.
      if (index === 0) {
        const p1 = await insertId(trx, "placette", {
          idParcelle,
          idCampagne,
          idExploitation,
          libelle: "Placette témoin",
          geometrie: square(plot.geometrie, 0),
        });
        const p2 = await insertId(trx, "placette", {
          idParcelle,
          idCampagne,
          idExploitation,
          libelle: "Placette bande fleurie",
          geometrie: square(plot.geometrie, 1),
        });
        const id = await serie(
          { type: 1130, nom: "Analyse de plante", date: `${year}-04-25`, stade: true, organe: 1, labo: "Auréa AgroSciences", placettes: true },
          [
            { element: 2100, valeur: null, unite: "t MS/ha", placettes: { [p1]: vary(seed, 4.2, 0.6, 2), [p2]: vary(seed + 1, 3.8, 0.6, 2) } },
            { element: 2101, valeur: null, unite: "% MS", placettes: { [p1]: vary(seed, 3.1, 0.3, 2), [p2]: vary(seed + 2, 2.9, 0.3, 2) } },
            { element: 2102, valeur: null, unite: "kg N/ha", placettes: { [p1]: vary(seed, 130, 20, 0), [p2]: vary(seed + 3, 112, 20, 0) } },
          ],
        );
        await trx("observation_serie_placette").insert([
          { idObservationSerie: id, idPlacette: p1, ordre: 0 },
          { idObservationSerie: id, idPlacette: p2, ordre: 1 },
        ]);
      }
    }
  }
}
