/** French texts of the Daplos import (server/interop/daplos, decision 0094), spread into ./translation.ts. */
const texts = {
  daplos: {
    vide: "Le fichier est vide.",
    "format-edifact": "Ce fichier est un message EDIFACT, pas un fichier Daplos à plat : il n'est pas pris en charge.",
    "format-edaplos": "Ce fichier est un eDaplos (XML), pas un fichier Daplos à plat.",
    "format-inconnu": "Ce fichier n'est pas un fichier Daplos : il doit commencer par un enregistrement EI.",
    extension: "Seuls les fichiers .dap et .edi sont acceptés.",
    version: "Ligne {{ligne}} : la version {{version}} de l'en-tête n'est pas prise en charge (0.93, 0.94 ou 0.95).",
    tronque: "Le fichier est tronqué (ligne {{ligne}}) : {{lues}} fiches parcellaires lues sur {{annoncees}} annoncées.",
    "trop-gros": "Le fichier dépasse la taille maximale ({{max}} octets).",
    "type-inconnu": "Ligne {{ligne}} : le type d'enregistrement « {{type}} » est inconnu.",
    "nombre-invalide": "Ligne {{ligne}} ({{type}}) : « {{valeur}} » n'est pas un nombre ({{champ}}).",
    "date-invalide": "Ligne {{ligne}} ({{type}}) : « {{valeur}} » n'est pas une date ({{champ}}).",
    "ligne-refusee": "Ligne {{ligne}} ({{type}}) : enregistrement refusé ({{cause}}). Rien n'a été importé.",
    echec: "L'import a échoué. Rien n'a été importé.",
    avertissement: {
      "espece-inconnue": "L'espèce {{espece}} n'a pas de correspondance : la parcelle est créée sans culture, le code est gardé en remarque.",
      "quantite-absente": "L'intrant « {{libelle}} » n'a pas de quantité utilisable.",
      "contour-incomplet": "Le contour n'a que {{points}} points : il n'est pas importé.",
      "commune-inconnue": "La commune {{codeInsee}} est inconnue : la parcelle est créée sans commune.",
    },
    raison: {
      "parent-absent": "Enregistrement sans parent (clé de parcelle ou GUID d'évènement différent)",
      "sans-equivalent": "Pas d'équivalent dans Sillon",
      "espece-inconnue": "Espèce sans correspondance",
      "date-absente": "Date absente",
      "date-hors-campagne": "Date hors de la campagne",
      "coordonnees-inconnues": "Système de coordonnées inconnu",
      "contour-incomplet": "Contour incomplet",
      "quantite-absente": "Quantité absente",
      doublon: "Doublon",
      "suppression-sans-objet": "Suppression d'un évènement jamais importé",
    },
    etat: { en_cours: "En cours", termine: "Terminé", echec: "Échec" },
  },
};
export default texts;
