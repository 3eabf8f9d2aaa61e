import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { lireDaplos } from "./lecteur";
import { ligneDaplos } from "../../../tests/helpers/daplos";
import { apparierParcelles, planifier, typeAction, versWgs84 } from "./plan";

const SAMPLE = new Uint8Array(readFileSync(new URL("../../../tests/fixtures/daplos/sample-v0.94.dap", import.meta.url)));

const ENTETE = [
  "EI12345678900011005089000000000000050001",
  "DE                                    2025092500010.95",
  ligneDaplos("DA", { party_qualifier: "TF", party_id: "12345678900011", party_id_type: "107", name1: "EARL DU TEST", postcode: "72000" }),
];
const KEY = { parcel_order: "0001", parcel_ref: "12", harvest_year: "2025" };
const GUID = "0123456789ABCDEF0123456789ABCDEF";
const planDe = (lignes: string[]) => planifier(lireDaplos(new TextEncoder().encode(lignes.join("\r\n"))));

describe("Daplos import plan", () => {
  test("[issue25] the shared sample: one farm, its year, 93 plots, 138 interventions, 91 inputs, 10 harvests, every record accounted for", () => {
    const p = planifier(lireDaplos(SAMPLE));
    expect(p.exploitation).toMatchObject({ siret: "08900000000000", libelle: "EXPLOITATION TEST", codePostal: "89270", pacage: "089012052" });
    expect(p.annees).toEqual([2024]);
    expect(p.parcelles).toHaveLength(93);
    const interventions = p.parcelles.flatMap((x) => x.interventions);
    expect(interventions).toHaveLength(138);
    expect(interventions.flatMap((i) => i.intrants)).toHaveLength(91);
    expect(interventions.flatMap((i) => i.recoltes)).toHaveLength(10);
    let lus = 0;
    for (const [type, c] of Object.entries(p.comptes)) {
      expect(c.pris + c.nonPris, type).toBe(c.lus);
      expect(p.nonPris.filter((n) => n.type === type)).toHaveLength(c.nonPris);
      lus += c.lus;
    }
    expect(lus).toBe(3129);
    // The boundary of the first plot, Lambert II étendu to WGS 84, in the Yonne (Arcy-sur-Cure), closed.
    const ring = p.parcelles[0].geometrie!.coordinates[0];
    expect(ring[0]).toEqual(ring.at(-1));
    expect(ring[0][0]).toBeCloseTo(3.725, 2);
    expect(ring[0][1]).toBeCloseTo(47.532, 2);
    expect(p.parcelles[0]).toMatchObject({ libelle: "le champ du bas", surface: 8.75, codeInsee: "89266", espece: "ZDH", idCulture: 5 });
    // Kinds of operation from the work types: fertilisation, spraying, irrigation, harvest are all found.
    const kinds = new Set(interventions.map((i) => i.idTypeAction));
    for (const k of [11, 12, 14, 15]) expect(kinds.has(k), String(k)).toBe(true);
    const fert = interventions.flatMap((i) => i.intrants).find((i) => i.libelle === "24-28-00")!;
    expect(fert).toMatchObject({ genre: "fertilisant", idCategorie: 655, composition: { n: 24, p2o5: 28, k2o: 0 } });
    const phyto = interventions.flatMap((i) => i.intrants).find((i) => i.libelle === "MILDICUT")!;
    expect(phyto).toMatchObject({ genre: "phyto", amm: "2090126", unite: "l/ha" });
    // "parcelle n\uFFFD36": the sending software had lost the "°"; the name is kept and said, with its line.
    const perdus = p.avertissements.filter((a) => a.cle === "daplos.avertissement.caractere-perdu");
    expect(perdus.length).toBeGreaterThan(0);
    expect(perdus.find((a) => String(a.params?.valeur).startsWith("parcelle n\uFFFD"))).toMatchObject({ type: "DP" });
  });

  test("[issue25] Lambert II étendu, Lambert 93 and WGS 84 points; an unknown qualifier is none", () => {
    expect(versWgs84("5", 652469, 6862035)).toEqual([expect.closeTo(2.3522, 3), expect.closeTo(48.8566, 3)]);
    expect(versWgs84("3", 600000, 2200000)).toEqual([expect.closeTo(2.337, 2), expect.closeTo(46.8, 2)]);
    expect(versWgs84("4", 1.5, 45.2)).toEqual([1.5, 45.2]);
    expect(versWgs84("9", 1, 2)).toBeNull();
  });

  test("[issue25] a plot with its area, boundary, event, input with composition and a harvest; per-hectare and total quantities", () => {
    const p = planDe([
      ...ENTETE,
      ligneDaplos("DP", { ...KEY, species: "ZCS", destination: "ZLD", name: "Les Vignes", insee_commune: "72287", drained: "O" }),
      ligneDaplos("PS", { ...KEY, area_type: "A17", area_ha: "00004.000" }),
      ...[
        [652400, 6862000],
        [652500, 6862000],
        [652500, 6862100],
      ].map(([x, y]) => ligneDaplos("SC", { ...KEY, srs: "5", x_or_lon: String(x), y_or_lat: String(y) })),
      ligneDaplos("PV", {
        ...KEY,
        event_guid: GUID,
        event_type: "ZG7",
        planned_or_done: "ZK2",
        start: "202504150000",
        work_type: "SEM",
        work_type_text: "Fertilisation minérale",
        area_ha: "2",
      }),
      ligneDaplos("VI", { ...KEY, event_guid: GUID, input_family: "ZJC", label: "Urée 46", total_qty: "0.4", total_unit: "TNE" }),
      ligneDaplos("IC", { ...KEY, event_guid: GUID, component: "NT", content: "000000.46" }),
      ligneDaplos("PV", {
        ...KEY,
        event_guid: GUID.replace("0", "9"),
        event_type: "ZF7",
        planned_or_done: "ZK1",
        start: "202510010000",
        work_type: "SEQ",
        action: "2",
      }),
      ligneDaplos("VR", { ...KEY, event_guid: GUID.replace("0", "9"), produce_type: "ZJH", produce_species: "ZCS", qty: "40", qty_unit: "TNE" }),
    ]);
    const [parcelle] = p.parcelles;
    expect(parcelle).toMatchObject({ libelle: "Les Vignes", surface: 4, drainee: true, idCulture: 10, codeInsee: "72287" });
    expect(parcelle.geometrie!.coordinates[0]).toHaveLength(4);
    const [fert, recolte] = parcelle.interventions;
    expect(fert).toMatchObject({
      date: "2025-04-15",
      idTypeAction: 12,
      libelleOperation: "Fertilisation minérale",
      tauxSurface: 0.5,
      realisee: true,
      suppression: false,
    });
    // 0.4 t on the 2 ha worked: 200 kg/ha.
    expect(fert.intrants).toEqual([expect.objectContaining({ genre: "fertilisant", quantite: 0.2, unite: "t/ha", composition: { n: 46 } })]);
    expect(recolte).toMatchObject({ idTypeAction: 15, prevue: true, realisee: false, suppression: true });
    expect(recolte.recoltes).toEqual([expect.objectContaining({ rendement: 10, unite: "t/ha" })]);
    expect(p.nonPris).toEqual([]);
  });

  test("[issue25] not taken, with the reason and the line: orphan children, an unknown species, a record type without counterpart", () => {
    const other = { parcel_order: "0002", parcel_ref: "99", harvest_year: "2025" };
    const p = planDe([
      ...ENTETE,
      ligneDaplos("DP", { ...KEY, species: "ZOJ", name: "Prairie" }),
      ligneDaplos("PS", { ...other, area_type: "A17", area_ha: "1" }),
      ligneDaplos("VI", { ...KEY, event_guid: GUID, input_family: "ZIU", label: "Orphan" }),
      ligneDaplos("PC", { ...KEY, cadastral_no: "AB12" }),
      ligneDaplos("SC", { ...KEY, srs: "3", x_or_lon: "1", y_or_lat: "2" }),
    ]);
    expect(p.parcelles[0].remarques).toEqual(["Culture Daplos ZOJ sans correspondance"]);
    expect(p.avertissements).toEqual([expect.objectContaining({ ligne: 4, cle: "daplos.avertissement.espece-inconnue" })]);
    expect(p.nonPris).toEqual([
      { ligne: 5, type: "PS", raison: "parent-absent" },
      { ligne: 6, type: "VI", raison: "parent-absent" },
      { ligne: 7, type: "PC", raison: "sans-equivalent" },
      { ligne: 8, type: "SC", raison: "parent-absent" },
    ]);
  });

  test("[issue25] the kind of operation: work type first, then event type and inputs", () => {
    expect(typeAction("SEX", "ZG7", ["phyto"])).toBe(11);
    expect(typeAction("SEP", "ZF8", [])).toBe(1);
    expect(typeAction(null, "ZF7", [])).toBe(15);
    expect(typeAction("ZTC", "ZG7", ["semence"])).toBe(6);
    expect(typeAction("V95", "ZF8", [])).toBe(26);
  });
});

describe("plots no key names, matched to the campaign's (decision 0138)", () => {
  const f = (cle: string, libelle: string, noIlotPac: string | null = null) => ({ cle, libelle, noIlotPac });
  const c = (id: number, libelle: string, noIlotPac: string | null = null) => ({ id, libelle, noIlotPac });

  test("[issue25-siret] by name (spaces and case aside) when the islets agree or one is blank, else by a PAC islet only one plot of the file has", () => {
    const r = apparierParcelles(
      [f("a", "Reprise RD", "12"), f("b", "parcelle 9", "3"), f("c", "Le Bois", "7"), f("d", "Nouvelle")],
      [c(1, "  reprise   rd "), c(2, "Autre nom", "3"), c(3, "le bois", "8"), c(4, "Sans rapport")],
    );
    expect(r.trouvees).toEqual(
      new Map([
        ["a", 1],
        ["b", 2],
      ]),
    );
    expect(r.ambigues).toEqual([]);
  });

  test("[issue25-siret] ambiguity matches nothing and is listed: a name several plots of the file bear, an islet several plots share", () => {
    const r = apparierParcelles(
      [
        f("a", "le champ du bas", "1"),
        f("b", "le champ du bas", "1"),
        f("c", "la prairie", "2"),
        f("d", "la prairie", "4"),
        f("e", "x", "5"),
        f("g", "y", "5"),
      ],
      [c(1, "le champ du bas"), c(2, "la prairie", "4"), c(3, "la prairie"), c(4, "z", "5")],
    );
    // "la prairie" of islet 4 is the one plot of that name and islet on both sides; the islet-2 one is not guessed.
    expect(r.trouvees).toEqual(new Map([["d", 2]]));
    expect(r.ambigues.sort()).toEqual(["a", "b", "c", "e", "g"]);
  });
});
