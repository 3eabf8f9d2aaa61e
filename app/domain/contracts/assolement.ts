/**
 * One item of the crop-area breakdown (spec 1 §3 "Assolement item: libelle, surface", hectares).
 * kind tells where the label comes from: a crop, a management mode with several main crops (its own
 * label), or the plots without a management mode (a label the UI translates).
 */
export type AssolementItem = { key: string; kind: "culture" | "mode" | "sansMode"; libelle: string; libelleEn: string | null; surface: number };

/** The selected campaign's crop-area breakdown (server/assolement/service.ts, getAssolement). */
export type Assolement = { idCampagne: number; items: AssolementItem[]; total: number };

/** What GET campagnes/{id}/assolements answers the context bar's dialog (app/routes/assolement.ts). */
export type AssolementAnswer = ({ ok: true } & Assolement) | { ok: false; error: string };
