/** French texts of the unreferenced-input dialog (decision 0032), spread into ./translation.ts. */
const texts = {
  "intrants-dossier": {
    ajouter: "Intrant non référencé",
    titre: "Nouvel intrant non référencé",
    "titre-modifier": "Intrant non référencé du dossier",
    "type-intrant": "Type d'intrant",
    nom: "Nom",
    espece: "Espèce",
    "type-produit": "Type de produit",
    "type-fertilisant": "Type de fertilisant",
    amm: "Code AMM",
    "matiere-active": "Matière active",
    "unite-matiere": "Unité de matière active",
    "unite-autre": "Autre",
    biocontrole: "Biocontrôle",
    composition: "Composition (%)",
    total: "Total : {{total}} %",
    "composition-100": "La composition doit totaliser 100 %",
    remarque: "Remarque",
    liens: "La modification s'applique à tous les intrants des interventions faits de cet intrant (libellé et, pour un fertilisant, composition).",
    "animateur-seul": "Seul un animateur du dossier peut modifier un intrant non référencé.",
    "operation-lente": "Mise à jour de tous les intrants liés : l'opération peut prendre du temps…",
    modifier: "Modifier l'intrant non référencé {{libelle}}",
    "modifier-court": "Intrant du dossier",
  },
};

export default texts;
