import { useTranslation } from "~/use-translation";
import { useRouteLoaderData } from "react-router";

export type ReadOnlyCause = "right" | "lock";

type HomeView = { view?: { lock?: { locked: boolean } | null; abilities?: { canCreateExploitation: boolean; isDoEcritureExEcriture: boolean } } };

/**
 * Why a campaign screen is read-only, from the context view of the /home layout: the campaign lock when the
 * user would write it otherwise (folder and farm writing), else his rights (unlocking would not help him).
 */
export function readOnlyCause(home: HomeView | undefined): ReadOnlyCause {
  const v = home?.view;
  const writer = !!v?.abilities?.canCreateExploitation && !!v.abilities.isDoEcritureExEcriture;
  return v?.lock?.locked && writer ? "lock" : "right";
}

/** Tells why a screen is greyed out: his rights, or the campaign lock (given, or read from the context). */
export function ReadOnlyNote({ cause }: { cause?: ReadOnlyCause }) {
  const { t } = useTranslation();
  const home = useRouteLoaderData("home") as HomeView | undefined;
  const why = cause ?? readOnlyCause(home);
  return (
    <span
      role="note"
      data-testid="read-only-note"
      data-cause={why}
      title={t(`ui.read-only-${why}-note`)}
      className="rounded bg-stone-200 px-2 py-0.5 text-xs font-medium text-stone-700"
    >
      {t(`ui.read-only-${why}`)}
    </span>
  );
}
