/** The header menus and the drawer groups of spec 1 §2, as data: the shell renders them, tests read them. */

export type MenuLink = { key: string; to: string; external?: "actualisation" };

export const INTEROPERABILITY_MENU: MenuLink[] = [
  { key: "menu.import", to: "/home/interoperabilite/importdaplos" },
  { key: "menu.actualisation", to: "/home/interoperabilite/actualisation", external: "actualisation" },
  { key: "menu.export", to: "/home/interoperabilite/export" },
];

export const RESULTS_MENU: MenuLink[] = [
  { key: "menu.raw-data", to: "/home/resultats/donneesbrutes" },
  { key: "menu.calculation", to: "/home/resultats/calcul" },
  { key: "menu.indicators", to: "/home/resultats/indicateurs" },
  { key: "menu.objectives", to: "/home/resultats/objectifs" },
  { key: "menu.missing-data", to: "/home/resultats/manquants" },
];

export const DOCUMENTATION_MENU: MenuLink[] = [
  { key: "menu.getting-started", to: "/home/documentation/prise-en-main" },
  { key: "menu.notice", to: "/home/documentation/notice" },
  { key: "menu.material-guide", to: "/home/documentation/material-guide" },
  { key: "menu.faq", to: "/home/documentation/faq" },
  { key: "menu.guide", to: "/home/documentation/guide" },
  { key: "menu.survey-protocol", to: "/home/documentation/survey-protocol" },
  { key: "menu.agroforestry", to: "/home/documentation/agroforestry" },
  { key: "menu.cgu", to: "/home/documentation/cgu" },
];

export type DrawerGroup = { key: string; sections: { key?: string; links: MenuLink[] }[] };

const d = (path: string) => `/home/description/${path}`;

export const DRAWER_GROUPS: DrawerGroup[] = [
  {
    key: "drawer.farm",
    sections: [
      {
        key: "drawer.general",
        links: [
          { key: "drawer.coordinates", to: d("exploitation/coordonnees") },
          { key: "drawer.description", to: d("exploitation/description") },
          { key: "drawer.economic", to: d("exploitation/caracteristiques_economiques") },
          { key: "drawer.soil", to: d("exploitation/caracteristiques_pedologiques") },
        ],
      },
      {
        key: "drawer.equipment-labour",
        links: [
          { key: "drawer.equipment", to: d("exploitation/parc_materiel") },
          { key: "drawer.workers", to: d("exploitation/main_oeuvre") },
          { key: "drawer.operations", to: d("exploitation/operations_culturales") },
        ],
      },
      { links: [{ key: "drawer.crops", to: d("exploitation/cultures") }] },
      {
        key: "drawer.plots",
        links: [
          { key: "drawer.plot-groups", to: d("exploitation/lot_parcelle") },
          { key: "drawer.plot-list", to: d("exploitation/parcelle") },
          { key: "drawer.arrangements", to: d("exploitation/amenagements") },
        ],
      },
    ],
  },
  {
    key: "drawer.field",
    sections: [
      {
        links: [
          { key: "drawer.interventions", to: d("au_champs/interventions") },
          { key: "drawer.measures", to: d("au_champs/mesures") },
          { key: "registre.menu", to: d("au_champs/registre") },
        ],
      },
    ],
  },
  {
    key: "drawer.prices",
    sections: [
      {
        links: [
          { key: "drawer.supply-price", to: d("prix/prix_approvisionnement") },
          { key: "drawer.sale-price", to: d("prix/prix_vente") },
        ],
      },
    ],
  },
  {
    key: "drawer.protocols",
    sections: [
      {
        links: [
          { key: "drawer.system-description", to: d("protocole/description_systeme") },
          { key: "drawer.rdd", to: d("protocole/rdd") },
        ],
      },
    ],
  },
];

export const HEADER_HEIGHT = 40;
export const DRAWER_WIDTH = 300;
export const VERSION_DATE = "23-09-2025 10h18";
