import { z } from "zod";
import { ORIGINES_INTRANT } from "~/domain/intrant";
import { queryId, resourceLoader } from "#server/http/route.server";
import { ServiceError } from "#server/errors";
import { dialogLists, dosesReference, fertilisants, matiereActiveOf, phytoProducts, varietes } from "#server/intrant/catalogue.server";
import { getIntrant, intrantsGrille } from "#server/intrant/service.server";
import { getIntrantDossier } from "#server/intrant-dossier/service.server";
import { getRecolte, listQualifiants, recolteDialogLists, typesSortie } from "#server/recolte/service.server";

/**
 * What the input dialogs read (spec 3 §7 Interventions, inputs): `?intrant=` one stored input;
 * `?categories&action=` the lists a dialog opens with; `?kind=phyto|fertilisant|semence|doses` a catalogue;
 * `?grille=` an intervention's inputs as the interventions grid edits them; `?recolte=` one harvest, `?kind=recolte&action=`, `?kind=types-sortie&culture=`, `?kind=qualifiants` the harvest dialog's.
 * A reader typing the address gets the interventions screen.
 */
const origine = z.coerce
  .number()
  .int()
  .refine((v) => (ORIGINES_INTRANT as number[]).includes(v));
const cibles = z
  .string()
  .max(100)
  .transform((s) => s.split(",").filter(Boolean).map(Number))
  .pipe(z.array(z.number().int().positive()).max(4));

export const loader = resourceLoader("/home/description/au_champs/interventions", async ({ scope, query }) => {
  const bad = (name: string) => new ServiceError("warning.invalid", 400, { [name]: ["warning.invalid"] });
  const intrant = queryId(query, "intrant");
  if (intrant) return { intrant: await getIntrant(scope, intrant) };
  const action = queryId(query, "action");
  // The interventions grid's inputs of one intervention (decision 0126): its rows, the phyto catalogue, the targets.
  const grille = queryId(query, "grille");
  if (grille) {
    const [rows, phytos, lists] = await Promise.all([intrantsGrille(scope, grille), phytoProducts(scope, ""), dialogLists(scope, grille)]);
    return { grille: { rows, phytos, cibles: lists.cibles } };
  }
  if (query.has("categories")) {
    if (!action) throw bad("action");
    return dialogLists(scope, action);
  }
  // The harvest dialog (decision 0031): one harvest, the lists it opens with, a crop's output types, the qualifiers.
  const intrantDossier = queryId(query, "intrantDossier");
  if (intrantDossier) return { intrantDossier: await getIntrantDossier(scope, intrantDossier) };
  const recolte = queryId(query, "recolte");
  if (recolte) return { recolte: await getRecolte(scope, recolte) };
  switch (query.get("kind")) {
    case "recolte": {
      if (!action) throw bad("action");
      return { recolteLists: await recolteDialogLists(scope, action) };
    }
    case "types-sortie": {
      const culture = queryId(query, "culture");
      if (!culture) throw bad("culture");
      return { typesSortie: await typesSortie(scope, culture) };
    }
    case "qualifiants":
      return { qualifiants: await listQualifiants(scope) };
    case "phyto": {
      const selected = queryId(query, "selected");
      const o = origine.safeParse(query.get("origineSelected"));
      return { items: await phytoProducts(scope, (query.get("q") ?? "").slice(0, 100), selected && o.success ? { id: selected, origine: o.data } : null) };
    }
    case "fertilisant": {
      const categorie = queryId(query, "categorie");
      if (!categorie) throw bad("categorie");
      return { items: await fertilisants(scope, categorie) };
    }
    case "semence": {
      const culture = queryId(query, "culture");
      if (!culture) throw bad("culture");
      return { items: await varietes(scope, culture) };
    }
    case "doses": {
      const produit = queryId(query, "produit");
      const o = origine.safeParse(query.get("origine"));
      const c = cibles.safeParse(query.get("cibles") ?? "");
      if (!produit || !action || !o.success || !c.success) throw bad("produit");
      return { doses: await dosesReference(scope, action, { id: produit, origine: o.data }, c.data) };
    }
    case "matiere": {
      const produit = queryId(query, "produit");
      const o = origine.safeParse(query.get("origine"));
      if (!produit || !o.success) throw bad("produit");
      return { matiere: await matiereActiveOf(scope, { id: produit, origine: o.data }) };
    }
    default:
      throw bad("kind");
  }
});
