import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { useRef, useState, type ComponentType, type ReactNode } from "react";

export const DIALOG_DEFAULT_WIDTH = 600;
export const DIALOG_MAX_WIDTH = 900;

/**
 * False until `open` is first true, then true for good. A closed dialog renders nothing, yet its form hooks and
 * Headless UI's dialog machinery ran on every render of every page, the server's included (issue 10: about a
 * fifth of the plot list's server rendering went to the shell's closed dialogs). Kept mounted once opened, as
 * before, so that a closing dialog behaves as it always did.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/** A dialog component rendered only from its first opening on (see useOpenedOnce). */
export function mountedOnceOpened<P extends { open: boolean }>(Dialog: ComponentType<P>): ComponentType<P> {
  function MountedOnceOpened(props: P) {
    return useOpenedOnce(props.open) ? <Dialog {...props} /> : null;
  }
  MountedOnceOpened.displayName = `MountedOnceOpened(${Dialog.displayName ?? Dialog.name})`;
  return MountedOnceOpened;
}

/**
 * The app's dialog (spec 1 §9): 600 wide by default, at most 900 unless a screen asks for more
 * (the crop-area dialog is 1000), and persistent: a click outside does not close it.
 */
export function AppDialog({
  open,
  title,
  children,
  actions,
  width = DIALOG_DEFAULT_WIDTH,
  allowWider = false,
  onEscape,
  testId,
}: {
  open: boolean;
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  width?: number;
  allowWider?: boolean;
  onEscape?: () => void;
  testId?: string;
}) {
  const opened = useOpenedOnce(open);
  const maxWidth = allowWider ? width : Math.min(width, DIALOG_MAX_WIDTH);
  // Headless UI calls onClose for Escape and for a click outside the panel alike; a click outside
  // must not close (A-CONST-03), so a close that follows a press outside the panel is ignored.
  const pressedOutsideAt = useRef(0);
  const onClose = () => {
    const outside = Date.now() - pressedOutsideAt.current < 1000;
    pressedOutsideAt.current = 0;
    if (!outside) onEscape?.();
  };
  if (!opened) return null;
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <div
        className="fixed inset-0 flex items-center justify-center p-4"
        onPointerDown={(e) => {
          pressedOutsideAt.current = e.target === e.currentTarget ? Date.now() : 0;
        }}
      >
        <DialogPanel data-testid={testId} className="max-h-[90vh] w-full overflow-auto rounded-md bg-white shadow-xl" style={{ maxWidth }}>
          <DialogTitle className="border-b border-stone-200 px-5 py-3 text-base font-semibold">{title}</DialogTitle>
          <div className="px-5 py-4 text-sm">{children}</div>
          {actions ? <div className="flex justify-end gap-2 border-t border-stone-200 px-5 py-3">{actions}</div> : null}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
