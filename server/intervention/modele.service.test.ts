import { describe, expect, test } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";

/**
 * The stored shape of interventions, inputs and input characteristics (spec 3 §3.1 to §3.3), on both databases.
 * Nested objects of the spec are stored as columns or linked rows:
 * - actionTauxPassage {…} → columns of `action`;
 * - categorie {id, parentId} → `intrant.id_categorie` → `categorie_intrant.id`, parent `id_type_intrant` (538…543);
 * - intrantCible {id, idCibles, uniteRefCible1} → `intrant_cible` and its ranked `intrant_cible_cible` rows;
 * - traitementSemence {idIntrant, quantite, dicLlUnite} → an `intrant` row pointing to its seed (`id_intrant_semence`).
 */
const t = useTestDb();

// Column names as the code sees them (camelCase; snake_case in the database).
const columns = async (table: string) => Object.keys(await t.db()(table).columnInfo());

describe(`stored shape of field work (${dialect})`, () => {
  test("[C-FORM-39] an intervention holds its date, operation, type, crop, debit, done/planned, harvest year, campaign, plot, passes, pass rates and source operation label", async () => {
    expect(await columns("action")).toEqual(
      expect.arrayContaining([
        "id",
        "date",
        "idOperationCulturale",
        "dicIdTypeAction",
        "idCultureConcernee",
        "debit",
        "realisee",
        "prevue",
        "anneeRecolte",
        "idCampagne",
        "idParcelle",
        "nombrePassage",
        "frequence",
        "tauxSurface",
        "complementInfoTypeTravail",
        "consoCarburant",
        "intituleEvenement",
        "precisionStade",
        "libelleOperationSource",
      ]),
    );
  });

  test("[C-FORM-40] an input holds its intervention, category (with its parent type), product, label, codes, origin, folder, GNIS code, crop, quantity, unit, targets and seed treatment", async () => {
    expect(await columns("intrant")).toEqual(
      expect.arrayContaining([
        "id",
        "idAction",
        "idCategorie",
        "idIntrant",
        "libelleIntrant",
        "codeIntrant",
        "codeTypeIntrant",
        "dicIdOrigineIntrant",
        "idDossier",
        "codeGnis",
        "idCulture",
        "quantite",
        "dicLlUnite",
        "idIntrantSemence",
      ]),
    );
    expect(await columns("categorie_intrant")).toEqual(expect.arrayContaining(["id", "idTypeIntrant"]));
    expect(await columns("intrant_cible")).toEqual(expect.arrayContaining(["id", "idIntrant", "uniteRefCible1"]));
    expect(await columns("intrant_cible_cible")).toEqual(expect.arrayContaining(["idIntrantCible", "idCible", "rang"]));
    // Every category's parent is one of the five input types.
    const parents = await t.db()("categorie_intrant").distinct("idTypeIntrant");
    expect(parents.map((p) => Number(p.idTypeIntrant)).every((id) => [538, 539, 540, 542, 543].includes(id))).toBe(true);
  });

  test("[C-FORM-41] input characteristics hold the thirteen composition percentages and the seed shares", async () => {
    expect(await columns("caracteristique_intrant")).toEqual(
      expect.arrayContaining([
        "id",
        "idIntrant",
        "n",
        "p2o5",
        "k2o",
        "mgo",
        "cu",
        "mn",
        "so3",
        "cao",
        "na2o",
        "b",
        "fe",
        "mo",
        "co",
        "semenceFerme",
        "semenceCertifiee",
        "semenceOgm",
      ]),
    );
  });
});
