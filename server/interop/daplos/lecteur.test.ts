import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { ligneDaplos } from "../../../tests/helpers/daplos";
import { DISPOSITIONS, lireDaplos, lireDate, lireNombre, reconnaitreFormat, TYPES_ENREGISTREMENT, type Enregistrement } from "./lecteur";

const SAMPLE = new Uint8Array(readFileSync(new URL("../../../tests/fixtures/daplos/sample-v0.94.dap", import.meta.url)));
const texteSample = new TextDecoder().decode(SAMPLE);

const ENTETE = [
  "EI08900000000000005089000000000000050001",
  "DE                                    2024092500010.95",
  ligneDaplos("DA", { party_qualifier: "TF", party_id: "12345678900011", party_id_type: "107", name1: "EARL TEST" }),
];
const DP = ligneDaplos("DP", { parcel_order: "0001", parcel_ref: "12", harvest_year: "2025", species: "ZDH", name: "La pièce" });
const fichier = (lignes: string[], eol = "\r\n") => new TextEncoder().encode(lignes.join(eol) + eol);

function refusDe(octets: Uint8Array): { key: string; params?: Record<string, unknown> } {
  try {
    lireDaplos(octets);
  } catch (e) {
    return e as { key: string; params?: Record<string, unknown> };
  }
  throw new Error("not refused");
}

const premier = (records: Enregistrement[], type: string) => records.find((r) => r.type === type)!;

describe("Daplos reader: the shared sample (v0.94)", () => {
  const f = lireDaplos(SAMPLE);

  test("[issue25] encoding, line ends, version and the count of every record type", () => {
    expect(f.encodage).toBe("utf-8");
    expect(f.finDeLigne).toBe("crlf");
    expect(f.version).toBe("0.94");
    const counts: Record<string, number> = {};
    for (const r of f.enregistrements) counts[r.type] = (counts[r.type] ?? 0) + 1;
    expect(counts).toEqual({ EI: 1, DE: 1, DA: 3, DP: 93, PS: 93, SC: 2270, PE: 24, PH: 89, PA: 6, PV: 138, VI: 91, IC: 306, IL: 3, VR: 10, RL: 1 });
    expect(f.enregistrements.length).toBe(3129);
  });

  test("[issue25] EI, DE and DA fields", () => {
    expect(premier(f.enregistrements, "EI")).toMatchObject({
      ligne: 1,
      champs: { sender_id: "08900000000000", sender_id_type: "005", recipient_id: "08900000000000", recipient_id_type: "005", document_count: 1 },
    });
    expect(premier(f.enregistrements, "DE").champs).toMatchObject({
      document_ref: null,
      document_date: "2024-09-25",
      plot_sheet_count: 93,
      message_version: "0.94",
    });
    expect(premier(f.enregistrements, "DA")).toMatchObject({
      ligne: 3,
      champs: {
        party_qualifier: "TF",
        party_id: "08900000000000",
        party_id_type: "107",
        name1: "EXPLOITATION TEST",
        street1: "Grande rue",
        city: "ARCY-SUR-CURE",
        postcode: "89270",
        country: "FR",
        pacage: "089012052",
      },
    });
  });

  test("[issue25] DP, PS, SC, PE, PH and PA fields (plot key repeated on each child)", () => {
    const key = { parcel_order: 1, parcel_ref: "78", harvest_year: 2024 };
    expect(premier(f.enregistrements, "DP")).toMatchObject({
      ligne: 6,
      champs: {
        ...key,
        started_on: "2023-05-15",
        species: "ZDH",
        species_qualifier: "ZMV",
        sowing_period: "ZFA",
        name: "le champ du bas",
        pac_islet: "1",
        insee_commune: "89266",
        soil_type_v095_arvalis: "BO5531003",
        n_dose: null,
      },
    });
    expect(premier(f.enregistrements, "PS").champs).toMatchObject({ ...key, area_type: "A17", area_ha: 8.75 });
    expect(premier(f.enregistrements, "SC").champs).toMatchObject({ ...key, srs: "3", x_or_lon: 704536.7215, y_or_lat: 2282288.65, altitude: null });
    expect(premier(f.enregistrements, "PE").champs).toMatchObject({
      ...key,
      commitment_code: null,
      other_contract_label: "Mesures Agro-Environnementales et C",
    });
    expect(premier(f.enregistrements, "PH").champs).toMatchObject({ ...key, previous_order: "-1", species: "ZCU" });
    expect(premier(f.enregistrements, "PA")).toMatchObject({
      ligne: 722,
      champs: { analysis_ticket: "80", analysed_on: "2023-01-27", sampled_on: "2023-01-27" },
    });
  });

  test("[issue25] PV, VI, IC, IL, VR and RL fields (event GUID repeated on each child)", () => {
    const pv = f.enregistrements.find((r) => r.type === "PV" && r.champs.event_type === "ZF7")!;
    expect(pv.champs).toMatchObject({
      event_guid: expect.stringMatching(/^[0-9A-F]{32}$/),
      planned_or_done: "ZK2",
      start: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
    });
    const vi = f.enregistrements.find((r) => r.type === "VI" && r.champs.input_family === "ZJF")!;
    expect(vi.champs).toMatchObject({ label: "avoine-vesce", seed_q1: "ZQA", total_qty: 0.041, total_unit: "TNE" });
    const ic = f.enregistrements.filter((r) => r.type === "IC").slice(0, 3);
    expect(ic.map((r) => [r.champs.component, r.champs.content])).toEqual([
      ["NT", 0.24],
      ["PT", 0.28],
      ["KT", 0],
    ]);
    expect(premier(f.enregistrements, "IL").champs).toMatchObject({ event_guid: "70846EBACFBA8D801B7BAECFB94A119A", product_code: "000", batch_qty: null });
    const vr = f.enregistrements.find((r) => r.type === "VR" && r.champs.produce_species === "ZBE")!;
    expect(vr.champs).toMatchObject({ produce_type: "ZJH", label: "Colza", qty: 406.20001, qty_unit: "TNE" });
    expect(premier(f.enregistrements, "RL").champs).toMatchObject({ event_guid: "3BE6ADC0C5A48156741168345E22527B", os_batch_no: null, batch_qty_t: null });
  });

  test("[issue25] every record type of the layout reads its fields at their places (synthetic lines for the types the sample lacks)", () => {
    expect(TYPES_ENREGISTREMENT).toHaveLength(24);
    for (const type of TYPES_ENREGISTREMENT) {
      const valeurs: Record<string, string> = {};
      for (const c of DISPOSITIONS[type].fields)
        valeurs[c.name] = c.type === "n" ? "1".repeat(Math.min(c.length, 4)) : c.type === "d8" ? "20250102" : c.type === "d12" ? "202501020830" : "X";
      const ligne = ligneDaplos(type, valeurs);
      const f2 = lireDaplos(fichier([...ENTETE, DP, ...(type === "EI" || type === "DE" || type === "DA" || type === "DP" ? [] : [ligne])]));
      const r = type === "EI" || type === "DE" || type === "DA" || type === "DP" ? null : f2.enregistrements.at(-1)!;
      if (!r) continue;
      expect(r.type).toBe(type);
      for (const c of DISPOSITIONS[type].fields) {
        const attendu =
          c.type === "n" ? Number("1".repeat(Math.min(c.length, 4))) : c.type === "d8" ? "2025-01-02" : c.type === "d12" ? "2025-01-02T08:30" : "X";
        expect(r.champs[c.name], `${type}.${c.name}`).toBe(attendu);
      }
    }
  });
});

describe("Daplos reader: real-world defects (research notes §1.1)", () => {
  test("[issue25] Windows-1252 bytes are found and decoded; positions stay in characters", () => {
    const l = ligneDaplos("DP", {
      parcel_order: "0001",
      parcel_ref: "12",
      harvest_year: "2025",
      species: "ZDH",
      name: "Pièce du Thél",
      insee_commune: "72287",
    });
    const texte = [...ENTETE, l].join("\r\n");
    const octets = new Uint8Array([...texte].map((c) => (c === "è" ? 0xe8 : c === "é" ? 0xe9 : c.charCodeAt(0))));
    const f = lireDaplos(octets);
    expect(f.encodage).toBe("windows-1252");
    expect(premier(f.enregistrements, "DP").champs).toMatchObject({ name: "Pièce du Thél", insee_commune: "72287" });
  });

  test("[issue25] UTF-8 with a BOM, LF line ends, right-trimmed lines and blank lines", () => {
    const texte = "\uFEFF" + [...ENTETE, DP.trimEnd(), "", "PS000112  2025A17  8.64"].join("\n");
    const f = lireDaplos(new TextEncoder().encode(texte));
    expect(f).toMatchObject({ encodage: "utf-8", finDeLigne: "lf" });
    expect(premier(f.enregistrements, "PS")).toMatchObject({ ligne: 6, champs: { area_type: "A17", area_ha: 8.64 } });
    expect(premier(f.enregistrements, "DP").champs.soil_type_v095_arvalis).toBeNull();
  });

  test("[issue25] every number shape of real files", () => {
    for (const [brut, n] of [
      ["0000002.2", 2.2],
      ["00002.200", 2.2],
      ["000000200", 200],
      ["8.6400003", 8.6400003],
      [".18837328", 0.18837328],
      ["00932    ", 932],
      ["000294.84", 294.84],
      ["000000   ", 0],
      ["     12.5", 12.5],
      ["-1", -1],
      ["12.", 12],
    ] as const)
      expect(lireNombre(brut), brut).toBe(n);
    expect(lireNombre("         ")).toBeNull();
    for (const bad of ["12,5", "1.2.3", "abc", "1e5"]) expect(lireNombre(bad), bad).toBeUndefined();
  });

  test("[issue25] dates and date-times, zeros and unknown times", () => {
    expect(lireDate("20240514", false)).toBe("2024-05-14");
    expect(lireDate("202405140000", true)).toBe("2024-05-14");
    expect(lireDate("202405140830", true)).toBe("2024-05-14T08:30");
    expect(lireDate("00000000", false)).toBeNull();
    expect(lireDate("        ", false)).toBeNull();
    for (const bad of ["20240231", "2024051", "20241301", "202405142560"]) expect(lireDate(bad, true), bad).toBeUndefined();
  });

  test("[issue25] the content says the format, not the extension", () => {
    expect(reconnaitreFormat(texteSample)).toBe("daplos");
    expect(reconnaitreFormat("UNA:+.? 'UNB+UNOC:3")).toBe("edifact");
    expect(reconnaitreFormat('<?xml version="1.0"?><rsm:CropDataSheetMessage/>')).toBe("edaplos");
    expect(reconnaitreFormat("id;libelle\n1;a")).toBe("inconnu");
    expect(reconnaitreFormat("  \r\n")).toBe("vide");
  });
});

describe("Daplos reader: refusals, with the line", () => {
  test("[issue25] an empty file", () => {
    expect(refusDe(new Uint8Array())).toMatchObject({ key: "daplos.vide" });
    expect(refusDe(new TextEncoder().encode("\r\n  \r\n"))).toMatchObject({ key: "daplos.vide" });
  });

  test("[issue25] another format: EDIFACT, eDaplos, a spreadsheet", () => {
    expect(refusDe(new TextEncoder().encode("UNB+UNOC:3+123"))).toMatchObject({ key: "daplos.format-edifact" });
    expect(refusDe(new TextEncoder().encode("<?xml version='1.0'?>"))).toMatchObject({ key: "daplos.format-edaplos" });
    expect(refusDe(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]))).toMatchObject({ key: "daplos.format-inconnu" });
  });

  test("[issue25] another version in the header", () => {
    const de = "DE                                    2024092500010.80";
    expect(refusDe(fichier([ENTETE[0], de, ENTETE[2], DP]))).toMatchObject({ key: "daplos.version", params: { ligne: 2, version: "0.80" } });
  });

  test("[issue25] a truncated file: no header, or fewer plot sheets than announced", () => {
    expect(refusDe(fichier([ENTETE[0]]))).toMatchObject({ key: "daplos.tronque" });
    const cut = texteSample.slice(0, Math.floor(texteSample.length / 2));
    expect(refusDe(new TextEncoder().encode(cut))).toMatchObject({ key: "daplos.tronque", params: { annoncees: 93 } });
  });

  test("[issue25] over the size limit", () => {
    expect(() => lireDaplos(SAMPLE, { tailleMax: 1000 })).toThrow(expect.objectContaining({ key: "daplos.trop-gros" }));
  });

  test("[issue25] an unknown record type, a number or a date that is none: the line is named", () => {
    expect(refusDe(fichier([...ENTETE, DP, "ZZ000112  2025"]))).toMatchObject({ key: "daplos.type-inconnu", params: { ligne: 5, type: "ZZ" } });
    expect(refusDe(fichier([...ENTETE, "PS000112  2025A17  8,64"]))).toMatchObject({
      key: "daplos.nombre-invalide",
      params: { ligne: 4, champ: "area_ha" },
    });
    const pv = ligneDaplos("PV", { parcel_order: "0001", parcel_ref: "12", harvest_year: "2025", event_guid: "A".repeat(32), start: "202513400000" });
    expect(refusDe(fichier([...ENTETE, DP, pv]))).toMatchObject({ key: "daplos.date-invalide", params: { ligne: 5, champ: "start" } });
  });
});
