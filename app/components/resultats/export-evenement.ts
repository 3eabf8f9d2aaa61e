import { useEffect, useRef } from "react";

/**
 * The global export-success event (spec 1 §4 "Export sessions": the calculation list refreshes on it; A-PUB-08):
 * sent on the window when an export was submitted and accepted, from any dialog of any screen.
 */
export const EVENEMENT_EXPORT_REUSSI = "sillon:export-reussi";

export function signalerExportReussi(detail: { nature: number; id?: number }): void {
  window.dispatchEvent(new CustomEvent(EVENEMENT_EXPORT_REUSSI, { detail }));
}

/** Runs `faire` on every export-success event while the component is shown. */
export function useExportReussi(faire: () => void): void {
  const courant = useRef(faire);
  courant.current = faire;
  useEffect(() => {
    const ecoute = () => courant.current();
    window.addEventListener(EVENEMENT_EXPORT_REUSSI, ecoute);
    return () => window.removeEventListener(EVENEMENT_EXPORT_REUSSI, ecoute);
  }, []);
}
