/** English texts of the unreferenced-input dialog (decision 0032), spread into ./translation.ts. */
const texts = {
  "intrants-dossier": {
    ajouter: "Unreferenced input",
    titre: "New unreferenced input",
    "titre-modifier": "Unreferenced input of the folder",
    "type-intrant": "Input type",
    nom: "Name",
    espece: "Species",
    "type-produit": "Product type",
    "type-fertilisant": "Fertiliser type",
    amm: "Marketing authorisation (AMM) code",
    "matiere-active": "Active matter",
    "unite-matiere": "Active matter unit",
    "unite-autre": "Other",
    biocontrole: "Biocontrol",
    composition: "Composition (%)",
    total: "Total: {{total}} %",
    "composition-100": "The composition must total 100 %",
    remarque: "Remark",
    liens: "The change applies to every intervention input made from this input (label and, for a fertiliser, composition).",
    "animateur-seul": "Only an animator of the folder may edit an unreferenced input.",
    "operation-lente": "Updating every linked input: this may take a while…",
    modifier: "Edit the unreferenced input {{libelle}}",
    "modifier-court": "Folder input",
  },
};

export default texts;
