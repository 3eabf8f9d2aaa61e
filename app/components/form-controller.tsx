import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "~/use-translation";
import { useBlocker } from "react-router";
import { AppDialog } from "./dialog";

type ControlledForm = { dirty: boolean; valid: boolean; save: () => Promise<unknown> | void; discard?: () => void };
type Registry = {
  register: (id: string, form: ControlledForm) => void;
  unregister: (id: string) => void;
  isDirty: () => boolean;
  saveAll: () => Promise<void>;
  discardAll: () => void;
};

const FormControllerContext = createContext<Registry | null>(null);

/** Dirty and savable forms of the page; drives the leave confirmation, closing the tab, and Ctrl+S (spec 1 §4). */
export function FormControllerProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const forms = useRef(new Map<string, ControlledForm>());
  const [, force] = useState(0);

  const registry = useMemo<Registry>(
    () => ({
      register: (id, form) => {
        const before = forms.current.get(id)?.dirty;
        forms.current.set(id, form);
        if (before !== form.dirty) force((n) => n + 1);
      },
      unregister: (id) => {
        if (forms.current.delete(id)) force((n) => n + 1);
      },
      isDirty: () => [...forms.current.values()].some((f) => f.dirty),
      saveAll: async () => {
        for (const f of forms.current.values()) if (f.dirty && f.valid) await f.save();
      },
      discardAll: () => {
        for (const f of forms.current.values()) if (f.dirty) f.discard?.();
        forms.current.clear();
      },
    }),
    [],
  );

  const dirty = registry.isDirty();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => registry.isDirty() && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    // Journeys wait for this before closing the tab: the listener exists only once this effect has run.
    document.documentElement.dataset.unsaved = "true";
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      delete document.documentElement.dataset.unsaved;
    };
  }, [dirty]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") {
        e.preventDefault();
        void registry.saveAll();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [registry]);

  const canSave = [...forms.current.values()].every((f) => !f.dirty || f.valid);

  return (
    <FormControllerContext.Provider value={registry}>
      {children}
      <AppDialog
        open={blocker.state === "blocked"}
        title={t("leave.title")}
        testId="leave-dialog"
        onEscape={() => blocker.reset?.()}
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => blocker.reset?.()}>
              {t("leave.cancel")}
            </button>
            <button
              type="button"
              className="btn-secondary"
              onClick={() => {
                registry.discardAll();
                blocker.proceed?.();
              }}
            >
              {t("leave.discard")}
            </button>
            <button
              type="button"
              className="btn-primary"
              disabled={!canSave}
              onClick={async () => {
                await registry.saveAll();
                registry.discardAll();
                blocker.proceed?.();
              }}
            >
              {t("leave.save")}
            </button>
          </>
        }
      >
        <p>{t("leave.text")}</p>
      </AppDialog>
    </FormControllerContext.Provider>
  );
}

/** Registers a form with the page's controller so that leaving, closing and Ctrl+S know about it. */
export function useControlledForm(id: string, form: ControlledForm) {
  const registry = useContext(FormControllerContext);
  const latest = useRef(form);
  latest.current = form;
  const save = useCallback(() => latest.current.save(), []);
  const discard = useCallback(() => latest.current.discard?.(), []);
  useEffect(() => {
    registry?.register(id, { dirty: form.dirty, valid: form.valid, save, discard });
  }, [registry, id, form.dirty, form.valid, save, discard]);
  useEffect(() => () => registry?.unregister(id), [registry, id]);
  /** Saves every changed and valid form of the page, as Ctrl+S does. */
  const saveAll = useCallback(async () => {
    if (registry) await registry.saveAll();
    else await latest.current.save();
  }, [registry]);
  return { saveAll };
}
