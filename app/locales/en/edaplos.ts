import type fr from "../fr/edaplos";

/** English texts of the eDaplos export, spread into ./translation.ts. */
const texts = {
  edaplos: {
    logs: {
      "parcelle-sans-surface": "Plot without an area: no area exported.",
      "parcelle-sans-culture": "Plot without a crop: its land use is exported without a species.",
      "culture-sans-code": "The crop “{{culture}}” has no AgroEDI species code: exported by its name only.",
      "culture-code-proche": "The crop “{{culture}}” is exported with the nearest species code ({{code}}).",
      "intervention-sans-travail": "The intervention “{{operation}}” has no AgroEDI work type: exported without a work code.",
      "travail-code-proche": "The intervention “{{operation}}” is exported with the nearest work type ({{code}}).",
      "intrant-sans-famille": "The input “{{intrant}}” has no AgroEDI input type: exported without a type code.",
      "intrant-famille-proche": "The input “{{intrant}}” is exported with the nearest input type ({{code}}).",
      "phyto-sans-amm": "The product “{{intrant}}” has no marketing authorisation (AMM) number: exported without an identifier.",
      "semence-sans-gnis": "The seed “{{intrant}}” has no GNIS code: exported without a variety identifier.",
      "intrant-sans-dose": "The input “{{intrant}}” has no dose: no dose exported.",
      "intrant-unite": "The dose of the input “{{intrant}}” is in “{{unite}}”, not a per-hectare unit: no dose exported.",
      "composition-litres": "The composition of “{{intrant}}” is exported as percentages only: its dose is in litres.",
      "fertilisant-sans-composition": "The fertiliser “{{intrant}}” has no composition: exported without components.",
      "semence-parts": "The seed “{{intrant}}” is {{certifiee}} % certified and {{ferme}} % farm-saved: only the larger share's qualifier is exported.",
      "cibles-non-exportees": "The {{nombre}} target(s) of “{{intrant}}” are not exported (no matching AgroEDI list).",
      "recolte-sans-type": "The harvest “{{culture}} - {{sortie}}” has no AgroEDI product type (grazing): not exported.",
      "recolte-sans-rendement": "The harvest “{{culture}} - {{sortie}}” has no yield: no yield exported.",
      "recolte-unite": "The yield of “{{culture}} - {{sortie}}” is in “{{unite}}”: no yield exported.",
      "recolte-culture-sans-code": "The crop of the harvest “{{culture}} - {{sortie}}” has no AgroEDI code: exported by its name.",
      "caracteristique-recolte": "A characteristic of the harvest “{{culture}} - {{sortie}}” has no AgroEDI equivalent: not exported.",
      "geometrie-illisible": "The plot's boundary is not a readable polygon: not exported.",
      "geometrie-multiple": "The plot's boundary has several parts: only the first is exported.",
      "geometrie-trous": "The plot's boundary has holes: only the outer ring is exported.",
    },
  },
} satisfies typeof fr;
export default texts;
