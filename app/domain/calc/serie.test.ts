import { describe, expect, test } from "vitest";
import { MESSAGES_CONTROLE } from "./indicateurs/controle";
import {
  ecranCorrection,
  etatSerie,
  groupeDuCode,
  GROUPES_SERIE,
  pireControle,
  publierGroupes,
  refusModification,
  severiteControle,
  suiteControle,
} from "./serie";

describe("calculation series rules", () => {
  test("[C-CALC-26] the indicator groups: id and ginNom, one per engine family; every code of a family has its group", () => {
    expect(GROUPES_SERIE.map((g) => g.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(groupeDuCode("ift.cible.total")).toBe(1);
    expect(groupeDuCode("phyto.qsa")).toBe(1);
    expect(groupeDuCode("bilanAzote.solde")).toBe(2);
    expect(groupeDuCode("travail.temps.mois.2025-03")).toBe(3);
    expect(groupeDuCode("economie.reel.margeBrute")).toBe(4);
    expect(groupeDuCode("energie.totale")).toBe(5);
    expect(groupeDuCode("ges.total")).toBe(6);
    expect(groupeDuCode("inconnu")).toBeNull();
  });

  test("[C-CALC-12] three states: not published, published, published and validated", () => {
    expect(etatSerie({ publication: false, visaAnimateur: false })).toBe("nonPublie");
    expect(etatSerie({ publication: true, visaAnimateur: false })).toBe("publie");
    expect(etatSerie({ publication: true, visaAnimateur: true })).toBe("valide");
  });

  test("[C-CALC-13] [C-CALC-14] [C-CALC-15] any ticked group publishes, none unpublishes, the header sets all", () => {
    const g = GROUPES_SERIE.map((x) => ({ id: x.id, publie: false }));
    const un = publierGroupes(g, { groupes: [{ id: 3, publie: true }] });
    expect(un.publication).toBe(true);
    expect(un.groupes.filter((x) => x.publie).map((x) => x.id)).toEqual([3]);
    expect(publierGroupes(un.groupes, { groupes: [{ id: 3, publie: false }] }).publication).toBe(false);
    const tous = publierGroupes(g, { tous: true });
    expect(tous.groupes.every((x) => x.publie)).toBe(true);
    expect(publierGroupes(tous.groupes, { tous: false })).toEqual({ groupes: g, publication: false });
  });

  test("[C-CALC-16] [C-CALC-19] [C-CALC-20] [C-RIGHTS-10] the visa needs the animation right and the publication; a validated series locks publication and remark", () => {
    const nonPubliee = { publication: false, visaAnimateur: false };
    const publiee = { publication: true, visaAnimateur: false };
    const validee = { publication: true, visaAnimateur: true };
    expect(refusModification(publiee, { visa: true }, false)).toBe("errors.forbidden");
    expect(refusModification(nonPubliee, { visa: true }, true)).toBe("calcul-serie.erreurs.visa-sans-publication");
    expect(refusModification(publiee, { visa: true }, true)).toBeNull();
    expect(refusModification(validee, { visa: false }, true)).toBeNull();
    expect(refusModification(validee, { visa: false }, false)).toBe("errors.forbidden");
    expect(refusModification(validee, { publication: true }, true)).toBe("calcul-serie.erreurs.serie-validee");
    expect(refusModification(validee, { remarque: true }, true)).toBe("calcul-serie.erreurs.serie-validee");
    expect(refusModification(publiee, { publication: true, remarque: true }, false)).toBeNull();
  });

  test("[C-CHECK-24] [C-CHECK-25] check severity: errors block without a confirm button, warnings are confirmed, OK runs at once", () => {
    const M = MESSAGES_CONTROLE;
    expect(severiteControle({ codeRetour: "OK", details: [] }).codeRetour).toBe("OK");
    const avert = severiteControle({ codeRetour: "Erreur", details: [{ code: M.coefficientEmission, objet: "intrant", id: 1, libelle: "Blé" }] });
    expect(avert.codeRetour).toBe("Avertissement");
    expect(avert.details[0].severite).toBe("Avertissement");
    const err = severiteControle({
      codeRetour: "Erreur",
      details: [
        { code: M.coefficientEmission, objet: "intrant", id: 1 },
        { code: M.surface, objet: "parcelle", id: 2 },
      ],
    });
    expect(err.codeRetour).toBe("Erreur");
    expect(suiteControle("OK")).toBe("lancer");
    expect(suiteControle("Avertissement")).toBe("confirmer");
    expect(suiteControle("Erreur")).toBe("bloquer");
    expect(pireControle(["OK", "Avertissement"])).toBe("Avertissement");
    expect(pireControle(["OK", "Erreur", "Avertissement"])).toBe("Erreur");
    expect(pireControle(["OK"])).toBe("OK");
    expect(ecranCorrection("parcelle")).toBe("/home/description/exploitation/parcelle");
    expect(ecranCorrection("intrant")).toBe("/home/description/au_champs/interventions");
    // Prices live in the description's Prices group (app/routes.ts), not at /home/prix.
    expect(ecranCorrection("prix")).toBe("/home/description/prix/prix_approvisionnement");
  });

  test("[C-CHECK-23] [issue30-controle] the check's problems as the screen lists them: errors first, each problem once", () => {
    const M = MESSAGES_CONTROLE;
    const c = severiteControle({
      codeRetour: "Erreur",
      details: [
        { code: M.coefficientEmission, objet: "intrant", id: 1, libelle: "Blé" },
        { code: M.surface, objet: "parcelle", id: 2 },
        { code: M.coefficientEmission, objet: "intrant", id: 1, libelle: "Blé" },
        { code: M.coefficientEmission, objet: "intrant", id: 3, libelle: "Orge" },
        { code: M.surface, objet: "parcelle", id: 2 },
        { code: M.surface, objet: "parcelle", id: 4 },
      ],
    });
    expect(c.details.map((d) => [d.severite, d.id])).toEqual([
      ["Erreur", 2],
      ["Erreur", 4],
      ["Avertissement", 1],
      ["Avertissement", 3],
    ]);
  });
});
