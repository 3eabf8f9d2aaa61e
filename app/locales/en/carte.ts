import type fr from "../fr/carte";

/** English texts of the carte area, spread into ./translation.ts. */
const texts = {
  carte: {
    chargement: "Loading the map…",
    indisponible: "The map cannot be shown in this browser (WebGL unavailable). The other fields can still be used.",
    outils: "Drawing tools",
    polygone: "Draw a polygon",
    marqueur: "Place a marker",
    modifier: "Edit the shape",
    "terminer-modification": "Finish editing",
    supprimer: "Delete the shape",
    annuler: "Cancel drawing",
    "aide-polygone": "Click on the map to place the vertices, then click the first vertex or press Enter to close the polygon (Escape to cancel).",
    "aide-marqueur": "Click on the map to place the marker.",
    "aide-modification": "Drag the shape or its vertices; click “Finish editing” when done.",
    "aide-une-forme": "One shape per plot: delete it to draw another.",
  },
} satisfies typeof fr;

export default texts;
