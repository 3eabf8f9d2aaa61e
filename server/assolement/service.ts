import type { Assolement, AssolementItem } from "~/domain/contracts/assolement";
import { campaignContext } from "../access/description";
import { failingWith } from "../errors";
import { listCulturesPrincipales, listModesConduite, listParcelleSurfaces, type CulturePrincipale, type ModeConduiteLabel, type ParcelleSurface } from "./repo";
import type { Scope } from "../access/scope";

export const ASSOLEMENT_LOAD_ERROR = "errors.services.assolement-service-error";

/**
 * The campaign's plot surfaces summed by main crop (docs/decisions/0013-lots-amenagements-assolement.md):
 * a mode with one main crop counts under that crop (modes sharing a crop add up); a mode with several
 * main crops, or none, counts under the mode's own label; plots without a mode under "sansMode".
 * Plots without a surface add nothing; items are sorted by surface, largest first.
 */
export function buildAssolement(
  parcelles: ParcelleSurface[],
  modes: ModeConduiteLabel[],
  cultures: CulturePrincipale[],
): { items: AssolementItem[]; total: number } {
  const modeById = new Map(modes.map((m) => [m.id, m]));
  const culturesByMode = new Map<number, CulturePrincipale[]>();
  for (const c of cultures) {
    const list = culturesByMode.get(c.idModeConduite) ?? [];
    if (!list.some((x) => x.idCulture === c.idCulture)) list.push(c);
    culturesByMode.set(c.idModeConduite, list);
  }
  const items = new Map<string, AssolementItem>();
  const add = (item: Omit<AssolementItem, "surface">, surface: number) => {
    const current = items.get(item.key);
    if (current) current.surface += surface;
    else items.set(item.key, { ...item, surface });
  };
  for (const p of parcelles) {
    const surface = p.surface ?? 0;
    if (!(surface > 0)) continue;
    const mode = p.idModeConduite == null ? undefined : modeById.get(p.idModeConduite);
    if (!mode) {
      add({ key: "sans-mode", kind: "sansMode", libelle: "", libelleEn: null }, surface);
      continue;
    }
    const principales = culturesByMode.get(mode.id) ?? [];
    if (principales.length === 1) {
      const c = principales[0];
      add({ key: `culture-${c.idCulture}`, kind: "culture", libelle: c.libelle, libelleEn: c.libelleEn }, surface);
    } else {
      add({ key: `mode-${mode.id}`, kind: "mode", libelle: mode.libelle, libelleEn: null }, surface);
    }
  }
  const list = [...items.values()]
    .map((i) => ({ ...i, surface: Math.round(i.surface * 10_000) / 10_000 }))
    .sort((a, b) => b.surface - a.surface || a.libelle.localeCompare(b.libelle, "fr"));
  // Sum in ten-thousandths of a hectare (the column's precision) so that float noise does not creep into the total.
  const total = list.reduce((sum, i) => sum + Math.round(i.surface * 10_000), 0) / 10_000;
  return { items: list, total };
}

/** GET campagnes/{id}/assolements: the selected campaign's crop-area breakdown. */
export async function getAssolement(scope: Scope): Promise<Assolement> {
  const { db } = scope;
  const ctx = await campaignContext(scope);
  return failingWith(ASSOLEMENT_LOAD_ERROR, async () => ({
    idCampagne: ctx.idCampagne,
    ...buildAssolement(
      await listParcelleSurfaces(db, ctx.idCampagne),
      await listModesConduite(db, ctx.idCampagne),
      await listCulturesPrincipales(db, ctx.idCampagne),
    ),
  }));
}
