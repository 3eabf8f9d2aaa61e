import { useEffect, type ReactNode } from "react";
import { ScreenTitle } from "./farm-form";
import { useFeedback } from "./feedback";

/** A loader's answer: the screen's data, or the catalogued message of a read that failed (spec 3 §8). */
export type LoaderAnswer<T> = T | { ok: false; error: string };

/** The widths a screen is laid out in (full class names, for Tailwind to find them). */
const WIDTHS = { "4xl": "max-w-4xl", "5xl": "max-w-5xl", "6xl": "max-w-6xl" } as const;
export type ScreenWidth = keyof typeof WIDTHS;

/** A failed load shows its catalogued message in the error dialog (spec 3 §8). */
export function LoadError({ error }: { error: string }) {
  const { showError } = useFeedback();
  useEffect(() => showError(error), [error, showError]);
  return null;
}

/**
 * The frame of a screen whose loader may answer an error: the screen itself when the data came, else its title
 * over an empty page while the error dialog says why (`<name>-load-failed`).
 */
export function ScreenFrame<T extends { ok: true }>({
  data,
  title,
  name,
  width = "5xl",
  children,
}: {
  data: LoaderAnswer<T>;
  title: ReactNode;
  /** The screen's name in test ids. */
  name: string;
  width?: ScreenWidth;
  children: (data: T) => ReactNode;
}) {
  if (!data.ok) {
    return (
      <div className={`mx-auto ${WIDTHS[width]} space-y-4`} data-testid={`${name}-load-failed`}>
        <ScreenTitle title={title} readOnly={false} />
        <LoadError error={data.error} />
      </div>
    );
  }
  return <>{children(data)}</>;
}
