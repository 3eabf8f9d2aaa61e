import { describe, expect, test } from "vitest";
import { selectTilleuls, snapshot, scopeOf } from "../../tests/helpers/service";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { getPrixAppro, getPrixPropose } from "../prix/service";
import { chargerPrixPhyto, lirePrixPhyto, PrixPhytoError } from "./prix-phyto-import";

const t = useTestDb();
const file = (text: string, source: string | null = null) => lirePrixPhyto(new TextEncoder().encode(text), source);
const pricesOf = (amm: string) =>
  t
    .db()("prix_phytcom as p")
    .join("intrant_phyto as i", "i.id", "p.idIntrantPhyto")
    .where("i.ammProduit", amm)
    .orderBy("p.id")
    .select("p.prixPhytcom", "p.unite", "p.datePhytcom", "p.source", "p.libelle");

describe(`reference phyto prices loaded from a price scale (${dialect})`, () => {
  test("[C-PAPPRO-13] [C-PAPPRO-14] the demo loads illustrative reference prices: a supply price of origin 773 shows its product's, with date and source", async () => {
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const row = (await getPrixAppro(scopeOf(t.db(), redacteur))).rows.find((r) => r.libelleIntrant === "FIDOX 800")!;
    expect(row).toMatchObject({ idOrigineIntrant: 773, idTypeIntrant: 539 });
    const propose = await getPrixPropose(scopeOf(t.db(), redacteur), row.id);
    expect(propose.referenceApplicable).toBe(true);
    expect(propose.reference).toEqual({
      prixPhytcom: 11.2,
      unite: "€/L",
      datePhytcom: "2025-01-15",
      libelle: "Prix public indicatif",
      source: "Démonstration Sillon : prix indicatifs fictifs, 2025",
    });
  });

  test("a scale is matched by AMM in one transaction; a price of the same product, date and source is replaced; unknown AMMs are reported", async () => {
    const db = t.db();
    const first = await chargerPrixPhyto(db, file("amm;prix;unite;date\n2190636;24,10;€/L;01/03/2026\n1234567;5;€/L;01/03/2026\n", "Barème essai 2026"));
    expect(first).toEqual({ ajoutes: 1, modifies: 0, inchanges: 0, ammInconnus: ["1234567"] });
    const again = await chargerPrixPhyto(db, file("amm;prix;unite;date\n2190636;24,30;€/L;01/03/2026\n2190636;25;€/L;01/04/2026\n", "Barème essai 2026"));
    expect(again).toEqual({ ajoutes: 1, modifies: 1, inchanges: 0, ammInconnus: [] });
    const rows = (await pricesOf("2190636")).filter((r) => r.source === "Barème essai 2026");
    expect(rows.map((r) => Number(r.prixPhytcom))).toEqual([24.3, 25]);
    expect(await chargerPrixPhyto(db, file("amm;prix;unite;date\n2190636;25;€/L;01/04/2026\n", "Barème essai 2026"))).toEqual({
      ajoutes: 0,
      modifies: 0,
      inchanges: 1,
      ammInconnus: [],
    });

    // The panel shows the latest by date.
    const redacteur = await selectTilleuls(t, "redacteur", "tilleuls2025");
    const row = (await getPrixAppro(scopeOf(db, redacteur))).rows.find((r) => r.libelleIntrant === "AZOXYSTAR 250")!;
    expect((await getPrixPropose(scopeOf(db, redacteur), row.id)).reference).toMatchObject({
      prixPhytcom: 25,
      datePhytcom: "2026-04-01",
      source: "Barème essai 2026",
    });
  });

  test("a file with one faulty line loads nothing", async () => {
    const db = t.db();
    const before = await snapshot(db, "prix_phytcom");
    const faulty = file("amm;prix\n9100046;41\n9800336;quatre-vingts\n", "Barème fautif");
    expect(faulty.erreurs).toEqual(["ligne 3 : prix « quatre-vingts » illisible"]);
    await expect(chargerPrixPhyto(db, faulty)).rejects.toBeInstanceOf(PrixPhytoError);
    expect(await snapshot(db, "prix_phytcom")).toEqual(before);
  });
});
