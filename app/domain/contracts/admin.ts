/** The administration screens (server/admin/screen.server.ts) and what their actions answer. */
export const ADMIN_SCREENS = ["utilisateurs", "groupes", "reseaux", "actualites"] as const;
export type AdminScreen = (typeof ADMIN_SCREENS)[number];

/** An admin action's answer; `submission` is the form library's reply to a refused form (conform's SubmissionResult). */
export type AdminActionData<Submission = unknown> = { ok: boolean; notice?: string; error?: string; id?: number; submission?: Submission };
