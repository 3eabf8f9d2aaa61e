import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, test } from "vitest";
import routes from "./routes";

type Flat = { id?: string; path: string; file: string; index: boolean };

/** Every route of the tree with its full path (layouts add no segment). */
function flatten(entries: RouteConfigEntry[], parent = ""): Flat[] {
  return entries.flatMap((e) => {
    const path = e.path ? `${parent}/${e.path}`.replace(/\/+/g, "/") : parent;
    return [{ id: e.id, path: path || "/", file: e.file, index: !!e.index }, ...flatten(e.children ?? [], path)];
  });
}

const all = flatten(routes);
const byId = (id: string) => all.find((r) => r.id === id);

describe("route tree", () => {
  test("[A-ROUTE-29] [A-HOME-01] the named routes homeDescriptif, description, documentationCgu and passwordForgotten exist", () => {
    expect(byId("homeDescriptif")?.path).toBe("/home/description/home");
    expect(byId("description")?.path).toBe("/home/description");
    expect(byId("documentationCgu")?.path).toBe("/home/documentation/cgu");
    expect(byId("passwordForgotten")?.path).toBe("/mot-de-passe-oublie");
  });

  test("[A-DOC-02] /home/documentation has the children notice, guide, cgu, prise-en-main, faq, agroforestry, material-guide and survey-protocol", () => {
    const docs = all.filter((r) => r.path.startsWith("/home/documentation/")).map((r) => r.path.replace("/home/documentation/", ""));
    expect(docs.sort()).toEqual(["agroforestry", "cgu", "faq", "guide", "material-guide", "notice", "prise-en-main", "survey-protocol"]);
    expect(all.some((r) => r.index && r.path === "/home/documentation")).toBe(true);
  });

  test("[A-ROUTE-12] [A-ROUTE-15] [A-ROUTE-18] [A-ROUTE-21] [A-ROUTE-24] [A-ROUTE-27] each section has the children of the spec", () => {
    // Screens only: resource routes (modules without a component, `.ts`) such as resultats/session_exports are calls, not children.
    const children = (prefix: string) =>
      all
        .filter((r) => r.path.startsWith(`${prefix}/`) && r.path.split("/").length === prefix.split("/").length + 1 && !r.file.endsWith(".ts"))
        .map((r) => r.path.slice(prefix.length + 1));
    expect(children("/home/description/exploitation").sort()).toEqual([
      "amenagements",
      "analyse",
      "caracteristiques_economiques",
      "caracteristiques_pedologiques",
      "coordonnees",
      "cultures",
      "description",
      "lot_parcelle",
      "main_oeuvre",
      "operations_culturales",
      "parc_materiel",
      "parcelle",
    ]);
    expect(children("/home/description/au_champs").sort()).toEqual(["interventions", "mesures", "registre"]);
    expect(children("/home/description/prix").sort()).toEqual(["prix_approvisionnement", "prix_vente"]);
    expect(children("/home/description/protocole").sort()).toEqual(["description_systeme", "rdd", "rotation_mode_conduite"]);
    expect(children("/home/interoperabilite").sort()).toEqual(["actualisation", "export", "importdaplos"]);
    expect(children("/home/resultats").sort()).toEqual(["calcul", "donneesbrutes", "indicateurs", "manquants", "objectifs"]);
  });

  test("[B-LIST-01] [B-LIST-02] the farm-description routes exist under the base path and every one of them needs a selected campaign", () => {
    /** Paths of the routes nested, at any depth, in the campaign-required layout. */
    const underCampaign = (entries: RouteConfigEntry[], parent = "", inside = false): string[] =>
      entries.flatMap((e) => {
        const path = e.path ? `${parent}/${e.path}`.replace(/\/+/g, "/") : parent;
        const here = inside || e.file === "routes/campaign-required.tsx";
        return [...(here && e.path ? [path] : []), ...underCampaign(e.children ?? [], path, here)];
      });
    const guarded = underCampaign(routes);
    for (const screen of [
      "description",
      "coordonnees",
      "caracteristiques_economiques",
      "caracteristiques_pedologiques",
      "parc_materiel",
      "main_oeuvre",
      "operations_culturales",
      "cultures",
      "parcelle",
      "lot_parcelle",
      "amenagements",
      "analyse",
    ]) {
      expect(guarded).toContain(`/home/description/exploitation/${screen}`);
    }
    expect(guarded).toContain("/home/description/au_champs/mesures");
    expect(byId("homeDescriptif")).toBeDefined();
    expect(byId("description")).toBeDefined();
  });

  test("[B-LIST-03] under field work, mesures opens the observation series screen", () => {
    expect(all.find((r) => r.path === "/home/description/au_champs/mesures")?.file).toBe("routes/au-champs/mesures.tsx");
  });
});
