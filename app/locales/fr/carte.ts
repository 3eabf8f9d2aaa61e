/** French texts of the carte area (the plot map and the map previews), spread into ./translation.ts. */
const texts = {
  carte: {
    chargement: "Chargement de la carte…",
    indisponible: "La carte ne peut pas s'afficher dans ce navigateur (WebGL indisponible). Les autres champs restent utilisables.",
    outils: "Outils de dessin",
    polygone: "Dessiner un polygone",
    marqueur: "Placer un marqueur",
    modifier: "Modifier la forme",
    "terminer-modification": "Terminer la modification",
    supprimer: "Supprimer la forme",
    annuler: "Annuler le dessin",
    "aide-polygone":
      "Cliquez sur la carte pour placer les sommets, puis cliquez sur le premier sommet ou appuyez sur Entrée pour fermer le polygone (Échap pour annuler).",
    "aide-marqueur": "Cliquez sur la carte pour placer le marqueur.",
    "aide-modification": "Faites glisser la forme ou ses sommets ; cliquez sur « Terminer la modification » quand c'est fait.",
    "aide-une-forme": "Une seule forme par parcelle : supprimez-la pour en dessiner une autre.",
    // The map library's own buttons and texts (maplibre's locale option, map-base.client.ts).
    controles: {
      "zoom-avant": "Zoom avant",
      "zoom-arriere": "Zoom arrière",
      nord: "Faire glisser pour tourner la carte, cliquer pour revenir au nord",
      credits: "Afficher ou masquer les crédits",
      signaler: "Signaler une erreur de carte",
      "plein-ecran": "Plein écran",
      "quitter-plein-ecran": "Quitter le plein écran",
      carte: "Carte",
      "fermer-bulle": "Fermer la bulle",
      logo: "Logo MapLibre",
      repere: "Repère sur la carte",
      "aide-ctrl": "Ctrl + molette pour zoomer la carte",
      "aide-mac": "⌘ + molette pour zoomer la carte",
      "aide-mobile": "Deux doigts pour déplacer la carte",
    },
  },
};

export default texts;
