import { describe, expect, test } from "vitest";
import { RegistreInterventionSchema, toHeure } from "./intervention";
import { centroide, champsManquants, controlerRegistre, echeanceRegistre, type FaitsLigne, type LigneRegistre } from "./registre";

const ligne = (over: Partial<LigneRegistre> = {}): LigneRegistre => ({
  idIntervention: 1,
  idIntrant: 10,
  idParcelle: 100,
  parcelle: "Les Grands Champs",
  siret: "73282932000074",
  produit: "FONGI ESSAI",
  amm: "9990002",
  date: "2027-04-15",
  heureDebut: null,
  heureFin: null,
  dose: 1,
  unite: "l/ha",
  surfaceTraitee: 12.5,
  culture: "Blé tendre d'hiver",
  codeEppo: "TRZAW",
  stadeBbch: "32",
  stade: null,
  ilotPac: "12",
  latitude: null,
  longitude: null,
  codeInsee: "28085",
  biologique: false,
  siretPrestataire: null,
  rentreeAnticipee: null,
  lotSemences: null,
  cibles: "Septoriose",
  ...over,
});
const usage = { libelle: "Blé*Trt Part.Aer.*Septoriose(s)", dose: 1, unite: "L/ha", nombreMaxApplication: 2, delaiAvantRecolte: 35 };
const faits = (over: Partial<FaitsLigne> = {}): FaitsLigne => ({ dateRetrait: null, usagesConnus: true, usages: [usage], recoltes: [], ...over });

describe("the register's checks (issue 28)", () => {
  test("a complete line of an authorised use within its dose, count and pre-harvest interval has no finding", () => {
    expect(controlerRegistre([ligne()], new Map([[10, faits({ recoltes: ["2027-07-20"] })]]))).toEqual([]);
  });

  // Rule: Regulation (EC) No 1107/2009, art. 46: after a withdrawal, a grace period of at most 6 months for sale and
  // distribution and 1 more year for the use of existing stocks; E-Phy gives the product's withdrawal date (products
  // file, "Date de retrait du produit") and, use by use, the end of use (uses file, "date fin utilisation"). Decision 0117.
  describe("[issue28-registre] the product was authorised on the date of use (withdrawal and grace dates)", () => {
    const grace = { ...usage, dateFinDistribution: "2027-03-31", dateFinUtilisation: "2028-03-31" };
    const check = (date: string, over: Partial<FaitsLigne>) => controlerRegistre([ligne({ date })], new Map([[10, faits(over)]]));

    test("[issue28-registre] used on or before the withdrawal date: no finding", () => {
      expect(check("2027-09-30", { dateRetrait: "2027-09-30" })).toEqual([]);
      expect(check("2027-04-15", { dateRetrait: "2027-09-30", usages: [grace] })).toEqual([]);
    });

    test("[issue28-registre] withdrawn, used within the grace period of the crop's use (up to its end of use): no finding", () => {
      // Withdrawn on 30 September 2027, its Blé use may be used until 31 March 2028 (past the end of distribution).
      const withdrawn = { dateRetrait: "2027-09-30", usages: [{ ...grace, dateFinUtilisation: "2028-03-31" }] };
      expect(check("2027-10-02", withdrawn)).toEqual([]);
      expect(check("2028-03-31", withdrawn)).toEqual([]);
    });

    test("[issue28-registre] withdrawn, used after the end of use of the crop's use: the finding names the end-of-use date passed", () => {
      const c = check("2028-04-01", { dateRetrait: "2027-09-30", usages: [{ ...grace, dateFinUtilisation: "2028-03-31" }] });
      expect(c).toEqual([
        expect.objectContaining({
          regle: "produit-retire",
          valeurs: { motif: "fin-utilisation", date: "2028-04-01", dateRetrait: "2027-09-30", dateFinUtilisation: "2028-03-31" },
        }),
      ]);
      expect(c[0].source).toMatch(/1107\/2009, art\. 46/);
      // Several uses fit the crop (several targets): the latest end of use counts.
      const two = [
        { ...grace, dateFinUtilisation: "2028-03-31" },
        { ...grace, libelle: "Blé*Trt Part.Aer.*Rouille brune", dateFinUtilisation: "2028-06-30" },
      ];
      expect(check("2028-04-01", { dateRetrait: "2027-09-30", usages: two })).toEqual([]);
      expect(check("2028-07-01", { dateRetrait: "2027-09-30", usages: two })[0].valeurs).toMatchObject({ dateFinUtilisation: "2028-06-30" });
    });

    test("[issue28-registre] withdrawn without an end-of-use date for the crop: used after the withdrawal date is the finding, naming it", () => {
      expect(check("2027-10-02", { dateRetrait: "2027-09-30" })).toEqual([
        expect.objectContaining({ regle: "produit-retire", valeurs: { motif: "retrait", date: "2027-10-02", dateRetrait: "2027-09-30" } }),
      ]);
      // No use fitting the crop, or uses without dates: no grace period known either.
      expect(check("2027-10-02", { dateRetrait: "2027-09-30", usages: [] }).map((c) => c.regle)).toContain("produit-retire");
      expect(check("2027-10-02", { dateRetrait: "2027-09-30", usagesConnus: false, usages: [] })[0].valeurs).toMatchObject({ motif: "retrait" });
    });
  });

  // Rule: E-Phy's file of uses (usages_des_produits_autorises), columns "date fin distribution" and "date fin utilisation"
  // of the use: a single use withdrawn while the product stays authorised may be used until its end of use (the grace
  // period of Regulation (EC) No 1107/2009, art. 46, read use by use as decision 0117 does for a product). Decision 0132.
  describe("[issue28-usage-retire] the use was authorised on the date of use while the product is", () => {
    // The Blé use withdrawn: sold until 31 March 2027, used until 30 September 2027; the product has no withdrawal date.
    const retire = { ...usage, dateFinDistribution: "2027-03-31", dateFinUtilisation: "2027-09-30" };
    const check = (date: string, over: Partial<FaitsLigne>) => controlerRegistre([ligne({ date })], new Map([[10, faits(over)]]));

    test("[issue28-usage-retire] used after the use's end of use: the finding names the use, its dates and its source", () => {
      const c = check("2027-10-01", { usages: [retire] });
      expect(c).toEqual([
        expect.objectContaining({
          regle: "usage-retire",
          valeurs: { date: "2027-10-01", usage: usage.libelle, dateFinUtilisation: "2027-09-30", dateFinDistribution: "2027-03-31" },
        }),
      ]);
      expect(c[0].source).toMatch(/date fin utilisation/);
      expect(c[0].source).toMatch(/1107\/2009, art\. 46/);
      // The product's withdrawal date still to come: the use's own end counts.
      expect(check("2027-10-01", { dateRetrait: "2028-06-30", usages: [retire] }).map((x) => x.regle)).toEqual(["usage-retire"]);
    });

    test("[issue28-usage-retire] used within the use's grace period (past its end of distribution, up to its end of use): no finding", () => {
      expect(check("2027-04-15", { usages: [retire] })).toEqual([]);
      expect(check("2027-09-30", { usages: [retire] })).toEqual([]);
    });

    test("[issue28-usage-retire] a use still valid: no finding; another fitting use without end dates keeps the line valid", () => {
      expect(check("2027-10-01", { usages: [usage] })).toEqual([]);
      const otherTarget = { ...usage, libelle: "Blé*Trt Part.Aer.*Rouille brune" };
      expect(check("2027-10-01", { usages: [retire, otherTarget] })).toEqual([]);
      // Two withdrawn uses: the latest end of use counts.
      const later = { ...retire, libelle: "Blé*Trt Part.Aer.*Rouille brune", dateFinUtilisation: "2027-12-31" };
      expect(check("2027-10-01", { usages: [retire, later] })).toEqual([]);
      expect(check("2028-01-02", { usages: [retire, later] })[0].valeurs).toMatchObject({ usage: later.libelle, dateFinUtilisation: "2027-12-31" });
    });

    test("[issue28-usage-retire] the product withdrawn takes precedence: one finding, of the product", () => {
      const c = check("2027-10-01", { dateRetrait: "2027-06-30", usages: [retire] });
      expect(c.map((x) => x.regle)).toEqual(["produit-retire"]);
      expect(c[0].valeurs).toMatchObject({ motif: "fin-utilisation", dateFinUtilisation: "2027-09-30" });
    });
  });

  // Rule: E-Phy's uses of the product (usages_des_produits_autorises): a product is used only on a crop it is authorised for.
  test("a product without any use for the crop is a finding; unknown uses (not imported) judge nothing", () => {
    expect(controlerRegistre([ligne()], new Map([[10, faits({ usages: [] })]]))).toEqual([expect.objectContaining({ regle: "usage-non-autorise" })]);
    expect(controlerRegistre([ligne()], new Map([[10, faits({ usages: [], usagesConnus: false })]]))).toEqual([]);
  });

  // Rule: E-Phy's "dose retenue" of the use, in the use's unit.
  test("a dose above the authorised dose of the use is a finding; another unit is not compared", () => {
    expect(controlerRegistre([ligne({ dose: 1.2 })], new Map([[10, faits()]]))).toEqual([
      expect.objectContaining({ regle: "dose-depassee", valeurs: { dose: 1.2, doseMax: 1, unite: "l/ha" } }),
    ]);
    expect(controlerRegistre([ligne({ dose: 5, unite: "kg/ha" })], new Map([[10, faits()]]))).toEqual([]);
  });

  // Rule: E-Phy's "nombre max d'application" of the use.
  test("a third application of a two-application use is a finding, on the third only", () => {
    const lines = [
      ligne({ idIntervention: 1, idIntrant: 11, date: "2027-03-01" }),
      ligne({ idIntervention: 3, idIntrant: 13, date: "2027-05-01" }),
      ligne({ idIntervention: 2, idIntrant: 12, date: "2027-04-01" }),
    ];
    const c = controlerRegistre(lines, new Map(lines.map((l) => [l.idIntrant, faits()])));
    expect(c).toEqual([expect.objectContaining({ regle: "applications-depassees", idIntrant: 13, valeurs: { rang: 3, maximum: 2 } })]);
  });

  // Rule: E-Phy's "délai avant récolte" (days) of the use, against the plot's harvest date.
  test("a harvest inside the pre-harvest interval is a finding", () => {
    const c = controlerRegistre([ligne({ date: "2027-06-20" })], new Map([[10, faits({ recoltes: ["2027-07-10"] })]]));
    expect(c).toEqual([expect.objectContaining({ regle: "delai-avant-recolte", valeurs: { recolte: "2027-07-10", jours: 20, delai: 35 } })]);
  });

  // Rule: the fields of Regulation (EU) 2023/564's Annex and the arrêté's annex I (decision 0104).
  test("a missing mandatory field is a finding naming it; a location is a PAC block or coordinates", () => {
    expect(controlerRegistre([ligne({ codeEppo: null, siret: "" })], new Map())).toEqual([
      expect.objectContaining({ regle: "champ-manquant", champ: "siret" }),
      expect.objectContaining({ regle: "champ-manquant", champ: "codeEppo" }),
    ]);
    expect(champsManquants(ligne({ ilotPac: null }))).toEqual(["localisation"]);
    expect(champsManquants(ligne({ ilotPac: null, latitude: 48.4, longitude: 1.5 }))).toEqual([]);
    expect(champsManquants(ligne({ biologique: null }))).toEqual(["biologique"]);
  });
});

describe("the register's output", () => {
  test("a polygon is located by its centroid, a point by itself", () => {
    const square = centroide({
      type: "Polygon",
      coordinates: [
        [
          [1, 48],
          [1.002, 48],
          [1.002, 48.002],
          [1, 48.002],
          [1, 48],
        ],
      ],
    });
    expect(square?.longitude).toBeCloseTo(1.001, 6);
    expect(square?.latitude).toBeCloseTo(48.001, 6);
    expect(centroide({ type: "Point", coordinates: [1.5, 48.4] })).toEqual({ latitude: 48.4, longitude: 1.5 });
    expect(centroide(null)).toBeNull();
  });

  test("the electronic register is due before 31 January of the next year until 2029, 30 days after the use from 2030, never for uses before 2027 (arrêté, art. 4)", () => {
    expect(echeanceRegistre("2026-12-31")).toBeNull();
    expect(echeanceRegistre("2027-04-15")).toBe("2028-01-30");
    expect(echeanceRegistre("2030-04-15")).toBe("2030-05-15");
  });
});

describe("the register's fields of an intervention", () => {
  test("times of day, the BBCH stage, the contractor's SIRET, the re-entry and the seed lot are read; all may be empty", () => {
    expect(toHeure("7:30")).toBe("07:30");
    expect(toHeure("24:00")).toBeNull();
    const ok = RegistreInterventionSchema.safeParse({
      heureDebut: "07:30",
      heureFin: "9h15",
      idStadeCulture: "106",
      precisionStade: "2 nœuds",
      siretPrestataire: "732 829 320 00074",
      rentreeAnticipee: "on",
      lotSemences: "",
    });
    expect(ok.success && ok.data).toEqual({
      heureDebut: "07:30",
      heureFin: "09:15",
      idStadeCulture: 106,
      precisionStade: "2 nœuds",
      siretPrestataire: "73282932000074",
      rentreeAnticipee: true,
      lotSemences: undefined,
    });
    expect(RegistreInterventionSchema.safeParse({}).success).toBe(true);
  });

  test("a bad SIRET, a time that is none or an end before the start is refused on its field", () => {
    const r = RegistreInterventionSchema.safeParse({ heureDebut: "10:00", heureFin: "09:00", siretPrestataire: "12345678901234" });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["heureFin", "siretPrestataire"]));
    expect(RegistreInterventionSchema.safeParse({ heureDebut: "25:00" }).success).toBe(false);
  });
});
