import type { getOperationsCulturales } from "#server/operation-culturale/service.server";

/** What the cultural operations screen loads (server/operation-culturale/service.ts). */
export type OperationsData = Awaited<ReturnType<typeof getOperationsCulturales>>;
export type OperationRow = OperationsData["rows"][number];
export type Machine = OperationsData["machines"][number];
/** The fuel-use reference the screen's loader answers with ?conso_carburant (B-OPS-22). */
export type FuelAnswer = { kind: "conso_carburant"; consoCarburant: number | null } | { kind: "screen" };
