/** French texts of the eDaplos export (server/interop/edaplos, the interoperabilite/export screen), spread into ./translation.ts. */
const texts = {
  edaplos: {
    logs: {
      "parcelle-sans-surface": "Parcelle sans surface : la surface n'est pas exportée.",
      "parcelle-sans-culture": "Parcelle sans culture : l'occupation du sol est exportée sans espèce.",
      "culture-sans-code": "La culture « {{culture}} » n'a pas de code d'espèce AgroEDI : exportée par son libellé seul.",
      "culture-code-proche": "La culture « {{culture}} » est exportée avec le code d'espèce le plus proche ({{code}}).",
      "intervention-sans-travail": "L'intervention « {{operation}} » n'a pas de type de travail AgroEDI : exportée sans code de travail.",
      "travail-code-proche": "L'intervention « {{operation}} » est exportée avec le type de travail le plus proche ({{code}}).",
      "intrant-sans-famille": "L'intrant « {{intrant}} » n'a pas de type d'intrant AgroEDI : exporté sans code de type.",
      "intrant-famille-proche": "L'intrant « {{intrant}} » est exporté avec le type d'intrant le plus proche ({{code}}).",
      "phyto-sans-amm": "Le produit « {{intrant}} » n'a pas de numéro AMM : exporté sans identifiant.",
      "semence-sans-gnis": "La semence « {{intrant}} » n'a pas de code GNIS : exportée sans identifiant de variété.",
      "intrant-sans-dose": "L'intrant « {{intrant}} » n'a pas de dose : la dose n'est pas exportée.",
      "intrant-unite": "La dose de l'intrant « {{intrant}} » est en « {{unite}} », qui n'est pas une unité par hectare : la dose n'est pas exportée.",
      "composition-litres": "La composition de « {{intrant}} » est exportée en pourcentages seulement : la dose est en litres.",
      "fertilisant-sans-composition": "Le fertilisant « {{intrant}} » n'a pas de composition : exporté sans composants.",
      "semence-parts": "La semence « {{intrant}} » est certifiée à {{certifiee}} % et de ferme à {{ferme}} % : seul le qualifiant majoritaire est exporté.",
      "cibles-non-exportees": "Les {{nombre}} cible(s) de « {{intrant}} » ne sont pas exportées (pas de liste AgroEDI correspondante).",
      "recolte-sans-type": "La récolte « {{culture}} - {{sortie}} » n'a pas de type de produit AgroEDI (pâturage) : non exportée.",
      "recolte-sans-rendement": "La récolte « {{culture}} - {{sortie}} » n'a pas de rendement : le rendement n'est pas exporté.",
      "recolte-unite": "Le rendement de « {{culture}} - {{sortie}} » est en « {{unite}} » : le rendement n'est pas exporté.",
      "recolte-culture-sans-code": "La culture de la récolte « {{culture}} - {{sortie}} » n'a pas de code AgroEDI : exportée par son libellé.",
      "caracteristique-recolte": "Une caractéristique de la récolte « {{culture}} - {{sortie}} » n'a pas d'équivalent AgroEDI : non exportée.",
      "geometrie-illisible": "Le contour de la parcelle n'est pas un polygone lisible : non exporté.",
      "geometrie-multiple": "Le contour de la parcelle a plusieurs parties : seule la première est exportée.",
      "geometrie-trous": "Le contour de la parcelle a des trous : seul le contour extérieur est exporté.",
    },
  },
};
export default texts;
