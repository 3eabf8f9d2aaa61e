import { loadContextView, type ContextView } from "../contexte/service";
import type { Db } from "../db/knex";
import type { Utilisateur } from "../utilisateur/repo";

/**
 * One request's scope (decision 0092): the database, the signed-in user, the campaign the page showed, and what the
 * request learnt of his rights, each asked at most once. The adapter builds it once per request
 * (server/http/context.server.ts); a job, a CLI script or a test builds it with `requestScope` too. Services that need
 * rights or the context take it in place of `(db, user)` and ask server/access/description.ts (campaignContext,
 * writableCampaign, ensureWrite), which read the context and the rights through `remember`: a second ask in the same
 * request costs no SQL.
 */
export type Scope = {
  readonly db: Db;
  readonly user: Utilisateur;
  /**
   * The campaign the page was rendered with, as the browser names it on every write (SHOWN_CAMPAIGN_HEADER); null
   * when the request names none (a script, a job, a loader): such a write is judged on the selection alone.
   */
  readonly shownCampaign: number | null;
  /**
   * A read-only request (an API call with a read-only token): the user's rights count as a reader's, the write gate
   * refuses every write, and a reading never writes on the way (decision 0119).
   */
  readonly lectureSeule: boolean;
  /** The user's context view (network › folder › farms › campaign), loaded on the first ask. */
  view(): Promise<ContextView>;
  /** The answer of `key` in this request: `load` runs on the first ask only (a refusal stays a refusal). */
  remember<T>(key: string, load: () => Promise<T>): Promise<T>;
  /**
   * The same scope on a transaction of `db` (what was resolved stays resolved): for a service that opened a
   * transaction and hands it to another service.
   */
  on(trx: Db): Scope;
};

/** The scope of one request, one job or one script run: nothing read until asked. */
export function requestScope(
  db: Db,
  user: Utilisateur,
  options: {
    shownCampaign?: number | null;
    lectureSeule?: boolean;
    /** The view of a campaign named by an API call (decision 0098), in place of the stored selection's. */ view?: (db: Db) => Promise<ContextView>;
  } = {},
): Scope {
  return scopeOver(db, user, options.shownCampaign ?? null, options.lectureSeule ?? false, new Map(), options.view ?? ((d) => loadContextView(d, user)));
}

function scopeOver(
  db: Db,
  user: Utilisateur,
  shownCampaign: number | null,
  lectureSeule: boolean,
  known: Map<string, Promise<unknown>>,
  loadView: (db: Db) => Promise<ContextView>,
): Scope {
  const remember = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let answer = known.get(key) as Promise<T> | undefined;
    if (!answer) {
      answer = load();
      known.set(key, answer);
    }
    return answer;
  };
  return {
    db,
    user,
    shownCampaign,
    lectureSeule,
    view: () => remember("view", () => loadView(db)),
    remember,
    on: (trx) => scopeOver(trx, user, shownCampaign, lectureSeule, known, loadView),
  };
}
