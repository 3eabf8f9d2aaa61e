import type { ReactNode } from "react";
import { ReadOnlyNote } from "./read-only-note";

/**
 * Small pieces shared by the farm description forms (coordinates, description, economic and soil
 * characteristics): a titled card, the read-only note, labels of reference lists in the UI language,
 * and numbers written for a text input.
 */

export type Labelled = { libelle: string; libelleEn?: string | null };

/** A reference row's label in the UI language (the French one when no English label exists). */
export function refLabel(o: Labelled, language: string): string {
  return language === "en" && o.libelleEn ? o.libelleEn : o.libelle;
}

export { formatNumber, numberText } from "./format";

export function FormCard({ title, children, testId, aside }: { title: ReactNode; children: ReactNode; testId?: string; aside?: ReactNode }) {
  return (
    <section className="card" data-testid={testId}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-sillon-800">{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** The screen's title, with the read-only note when the user may not write (spec 2 §6). */
export function ScreenTitle({ title, readOnly, children }: { title: ReactNode; readOnly: boolean; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <h1 className="text-xl font-semibold text-sillon-800">{title}</h1>
      {readOnly ? <ReadOnlyNote /> : null}
      {children ? <div className="ml-auto flex gap-2">{children}</div> : null}
    </div>
  );
}
