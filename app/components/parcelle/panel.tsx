import type { ReactNode } from "react";

/**
 * An expansion panel of the plot form (spec 2 §2): a native disclosure, so it opens with Enter or
 * Space from the keyboard; closed panels keep their fields in the form.
 */
export function Panel({ title, defaultOpen = false, children, testId }: { title: ReactNode; defaultOpen?: boolean; children: ReactNode; testId: string }) {
  return (
    <details open={defaultOpen} className="group rounded border border-stone-200" data-testid={testId}>
      <summary className="flex cursor-pointer list-none items-center justify-between rounded px-3 py-2 font-semibold text-sillon-800 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-sillon-600">
        {title}
        <span aria-hidden="true" className="transition-transform group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="border-t border-stone-200 px-3 pt-3">{children}</div>
    </details>
  );
}
