import { index, layout, prefix, route, type RouteConfig } from "@react-router/dev/routes";

/**
 * The route tree of spec 1 §2, spec 2 §2 and spec 3 §2, written out. Guards live in the layout loaders:
 * home.tsx (signed in, terms accepted), campaign-required.tsx (a campaign selected),
 * and each screen's own loader for rights (parametre_dossier, parametre_exploitation). Error pages: shell-boundary.tsx
 * keeps the shell around any failed screen under /home (an unknown /home address included); the description,
 * interoperability, results and administration families have their own boundary (components/shell/route-error.tsx).
 */
const pending = "routes/pending-screen.tsx";
const screen = (path: string, file = pending) => route(path, file, { id: `screen.${path}` });

export default [
  index("routes/index.ts"),
  route("login", "routes/login.tsx"),
  route("api/v1/login_check", "routes/api/login-check.ts"),
  route("api/v1/actualisation", "routes/api/actualisation.ts"),
  route("api/v1/openapi.json", "routes/api/openapi.ts"),
  route("api/v1/*", "routes/api/api.ts", { id: "api.v1" }),
  route("api/v2/*", "routes/api/api.ts", { id: "api.v2" }),
  route("logout", "routes/logout.ts"),
  route("locale", "routes/locale.ts"),
  route("mot-de-passe-oublie", "routes/password-forgotten.ts", { id: "passwordForgotten" }),
  route("mentions-legales", "routes/mentions-legales.tsx"),
  route("cgu", "routes/cgu.tsx"),
  route("home", "routes/home.tsx", { id: "home" }, [
    layout("routes/shell-boundary.tsx", [
      index("routes/home-index.ts"),
      route("contexte", "routes/contexte.ts"),
      route("partage", "routes/partage.ts"),
      route("utilisateurs", "routes/utilisateurs-groupe.ts"),
      route("assolement", "routes/assolement.ts"),
      route("description", "routes/description/layout.tsx", { id: "description" }, [
        index("routes/description/index.ts"),
        route("parametre_dossier", "routes/description/parametre-dossier.tsx"),
        route("parametre_exploitation", "routes/description/parametre-exploitation.tsx"),
        route("home", "routes/description/home.tsx", { id: "homeDescriptif" }),
        layout("routes/campaign-required.tsx", [
          route("exploitation", "routes/description/section.tsx", { id: "section.exploitation" }, [
            index("routes/description/redirect-exploitation.ts"),
            screen("cultures", "routes/description/cultures.tsx"),
            screen("parcelle", "routes/description/parcelle.tsx"),
            route("parcelle/import", "routes/description/parcelle-import.ts"),
            route("parcelle/export.geojson", "routes/description/parcelle-export.ts"),
            screen("lot_parcelle", "routes/description/lot-parcelle.tsx"),
            screen("amenagements", "routes/description/amenagements.tsx"),
            screen("analyse", "routes/description/analyse.tsx"),
            screen("operations_culturales", "routes/description/operations-culturales.tsx"),
            screen("parc_materiel", "routes/description/parc-materiel.tsx"),
            screen("main_oeuvre", "routes/description/main-oeuvre.tsx"),
            screen("description", "routes/description/description.tsx"),
            screen("coordonnees", "routes/description/coordonnees.tsx"),
            screen("caracteristiques_economiques", "routes/description/caracteristiques-economiques.tsx"),
            screen("caracteristiques_pedologiques", "routes/description/caracteristiques-pedologiques.tsx"),
          ]),
          route("au_champs", "routes/description/section.tsx", { id: "section.au_champs" }, [
            index("routes/description/redirect-au-champs.ts"),
            screen("mesures", "routes/au-champs/mesures.tsx"),
            route("mesures/fichiers", "routes/au-champs/mesures-fichiers.ts"),
            route("mesures/fichiers/:id", "routes/au-champs/mesures-fichier.ts"),
            route("mesures/export.json", "routes/au-champs/mesures-export.ts"),
            route("mesures/import", "routes/au-champs/mesures-import.ts"),
            screen("interventions", "routes/au-champs/interventions.tsx"),
            route("interventions/catalogue", "routes/au-champs/interventions-catalogue.ts"),
            route("interventions/indicateurs", "routes/au-champs/interventions-indicateurs.ts"),
            route("interventions/evaluations", "routes/protocole/evaluations.ts"),
            screen("registre", "routes/au-champs/registre.tsx"),
            route("registre/export", "routes/au-champs/registre-export.ts"),
          ]),
          route("prix", "routes/description/section.tsx", { id: "section.prix" }, [
            index("routes/description/redirect-prix.ts"),
            screen("prix_approvisionnement", "routes/prix/prix-approvisionnement.tsx"),
            route("prix_approvisionnement/proposes", "routes/prix/prix-proposes.ts"),
            screen("prix_vente", "routes/prix/prix-vente.tsx"),
          ]),
          route("protocole", "routes/description/section.tsx", { id: "section.protocole" }, [
            index("routes/description/redirect-protocole.ts"),
            screen("description_systeme", "routes/protocole/description-systeme.tsx"),
            screen("rotation_mode_conduite", "routes/protocole/rotation-mode-conduite.tsx"),
            screen("rdd", "routes/protocole/rdd.tsx"),
          ]),
        ]),
      ]),
      route("interoperabilite", "routes/section-without-navbar.tsx", { id: "interoperabilite" }, [
        index("routes/interoperabilite/index.ts"),
        screen("importdaplos", "routes/interoperabilite/importdaplos.tsx"),
        route("importdaplos/fichier", "routes/interoperabilite/importdaplos-fichier.ts"),
        screen("actualisation", "routes/interoperabilite/actualisation.tsx"),
        screen("export", "routes/interoperabilite/export.tsx"),
        route("export/:id/fichier", "routes/interoperabilite/export-fichier.ts"),
      ]),
      route("resultats", "routes/section-without-navbar.tsx", { id: "resultats" }, [
        index("routes/resultats/index.ts"),
        screen("donneesbrutes", "routes/resultats/donnees-brutes.tsx"),
        screen("calcul", "routes/resultats/calcul.tsx"),
        screen("indicateurs", "routes/resultats/indicateurs.tsx"),
        screen("objectifs", "routes/resultats/objectifs.tsx"),
        screen("manquants", "routes/resultats/manquants.tsx"),
        route("session_exports", "routes/resultats/session-exports.ts"),
        route("session_exports/:id", "routes/resultats/session-export.ts"),
        route("calcul/:idSerie", "routes/resultats/calcul-serie.tsx", { id: "calculSerie" }),
        route("calcul/:idSerie/etat", "routes/resultats/calcul-serie-etat.ts"),
        route("calcul/lancement/:idTache", "routes/resultats/calcul-lancement.ts"),
        route("calcul/:idSerie/explication", "routes/resultats/calcul-serie-explication.ts"),
        route("indicateurs/export", "routes/resultats/export-resultats.ts"),
        route("calcul/:idSerie/comparaison", "routes/resultats/calcul-serie-comparaison.tsx"),
      ]),
      ...prefix("documentation", [
        index("routes/documentation/index.ts"),
        ...["notice", "guide", "cgu", "prise-en-main", "faq", "agroforestry", "material-guide", "survey-protocol"].map((doc) =>
          route(doc, "routes/documentation/document.tsx", { id: doc === "cgu" ? "documentationCgu" : `documentation.${doc}` }),
        ),
      ]),
      route("profil", "routes/profil.tsx"),
      route("profil/jetons", "routes/profil-jetons.ts"),
      route("admin", "routes/admin/layout.tsx", { id: "admin" }, [
        index("routes/admin/index.ts"),
        route("utilisateurs", "routes/admin/utilisateurs.tsx"),
        route("groupes", "routes/admin/groupes.tsx"),
        route("reseaux", "routes/admin/reseaux.tsx"),
        route("actualites", "routes/admin/actualites.tsx"),
      ]),
      route("*", "routes/not-found.tsx", { id: "homeNotFound" }),
      route("taches/:id", "routes/taches.ts"),
    ]),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
