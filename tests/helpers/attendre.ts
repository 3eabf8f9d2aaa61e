/**
 * Polling for tests: reads `lire` until `fini` holds, every `pasMs`, as a client polls a job; throws after `ms`.
 * Kept apart from api-client.ts (which re-exports it) so that service tests poll without loading the API route module.
 */
export async function attendre<T>(
  lire: () => Promise<T>,
  fini: (v: NoInfer<T>) => boolean,
  { ms = 60_000, pasMs = 25, quoi = "the job" }: { ms?: number; pasMs?: number; quoi?: string } = {},
): Promise<T> {
  const limite = Date.now() + ms;
  for (;;) {
    const v = await lire();
    if (fini(v)) return v;
    if (Date.now() > limite) throw new Error(`${quoi} did not end: ${JSON.stringify(v)}`);
    await new Promise((ok) => setTimeout(ok, pasMs));
  }
}

/** A job (tache) that ended, well or not. */
export const tacheFinie = (v: { etat: string }) => v.etat === "terminee" || v.etat === "echec";
