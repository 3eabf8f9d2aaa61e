import { useEffect, useId, useRef, useState, type ReactNode } from "react";

export const TOOLTIP_MAX_WIDTH = 300;
export const TOOLTIP_DELAY_MS = 200;

/**
 * A tooltip (spec 1 §9): at most 300 wide, shown 200 ms after the pointer or the keyboard focus
 * reaches its target, hidden on leave, blur or Escape; the target is described by it for screen readers.
 */
export function Tooltip({ text, children, tone = "neutral" }: { text: ReactNode; children: ReactNode; tone?: "neutral" | "error" }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const show = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(true), TOOLTIP_DELAY_MS);
  };
  const hide = () => {
    if (timer.current) clearTimeout(timer.current);
    setOpen(false);
  };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return (
    <span
      className="relative inline-flex"
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(e) => e.key === "Escape" && hide()}
      aria-describedby={id}
    >
      {children}
      <span
        id={id}
        role="tooltip"
        data-testid="tooltip"
        hidden={!open}
        style={{ maxWidth: TOOLTIP_MAX_WIDTH }}
        className={`absolute left-1/2 top-full z-50 mt-1 w-max -translate-x-1/2 rounded px-2 py-1 text-xs shadow-lg ${tone === "error" ? "bg-red-700 text-white" : "bg-stone-800 text-white"}`}
      >
        {text}
      </span>
    </span>
  );
}
