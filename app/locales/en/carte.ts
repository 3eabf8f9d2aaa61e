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
    // The map library's own buttons and texts (maplibre's locale option, map-base.client.ts).
    controles: {
      "zoom-avant": "Zoom in",
      "zoom-arriere": "Zoom out",
      nord: "Drag to rotate the map, click to reset north",
      credits: "Show or hide the credits",
      signaler: "Report a map error",
      "plein-ecran": "Full screen",
      "quitter-plein-ecran": "Exit full screen",
      carte: "Map",
      "fermer-bulle": "Close the popup",
      logo: "MapLibre logo",
      repere: "Map marker",
      "aide-ctrl": "Ctrl + scroll to zoom the map",
      "aide-mac": "⌘ + scroll to zoom the map",
      "aide-mobile": "Two fingers to move the map",
    },
  },
} satisfies typeof fr;

export default texts;
