import type { getDuplicationOptions, getParcMateriels } from "#server/parc-materiel/service.server";

/** What the machinery screen loads (server/parc-materiel/service.ts), with the duplication dialog's options when asked. */
export type Data = Awaited<ReturnType<typeof getParcMateriels>> & { duplication: Awaited<ReturnType<typeof getDuplicationOptions>> | null };
export type Row = Data["rows"][number];
export type Reference = Data["references"][number];
/** The machine reference by id (B-MACH-16), or the key of its failure. */
export type ReferenceAnswer = { referenceMateriel: Reference | null; error?: string };
