import { useEffect, useEffectEvent, useMemo, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLocation } from "react-router";
import type { ImportCandidate, ImportPreview } from "~/domain/contracts/import-parcelles";
import { AppDialog, mountedOnceOpened } from "~/components/dialog";
import { formatNumber } from "~/components/farm-form";
import { useActionFeedback } from "~/components/feedback";
import { ImportPreviewMap } from "~/components/map/import-preview-map";
import type { MapConfig } from "~/components/map/types";

/** Size and feature limits shown in the help (the server checks them: server/parcelle/geo-import.ts). */
const MAX_MB = 10;
const MAX_FEATURES = 500;
const ACCEPT = ".geojson,.json,.kml,.zip";

type Failure = { ok: false; error?: string; fieldErrors?: Record<string, string[]>; params?: Record<string, string | number> };
type PreviewAnswer = { ok: true; preview: ImportPreview } | Failure;
type CreateAnswer = { ok: true; ids: number[]; notice: string } | Failure;

/**
 * Plot import (docs/decisions/0015-import-parcelles.md): choose a GeoJSON, KML or zipped shapefile, see
 * its features (label, shape, computed area, CAP island, why a feature is refused) in a table and on a
 * map, tick the ones to create, then create them in one go.
 */
function ImportDialogContent({ open, mapConfig, onClose }: { open: boolean; mapConfig: MapConfig | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AppDialog open={open} title={t("parcelle.import.title")} width={900} testId="import-dialog" onEscape={onClose}>
      <ImportForm mapConfig={mapConfig} onClose={onClose} />
    </AppDialog>
  );
}

/** Mounted at each opening of the dialog: no file, fresh fetchers. */
function ImportForm({ mapConfig, onClose }: { mapConfig: MapConfig | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const action = `${location.pathname.replace(/\/+$/, "")}/import`;
  const previewer = useFetcher<PreviewAnswer>();
  const creator = useFetcher<CreateAnswer>();
  useActionFeedback(previewer.data);
  useActionFeedback(creator.data);
  const [file, setFile] = useState<File | null>(null);
  const [checked, setChecked] = useState<Set<number>>(new Set());

  const preview = previewer.data?.ok ? previewer.data.preview : null;
  const importable = useMemo(() => preview?.candidates.filter((c) => !c.refus) ?? [], [preview]);
  useEffect(() => {
    setChecked(new Set(importable.map((c) => c.index)));
  }, [importable]);
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (creator.state === "idle" && creator.data?.ok) close(); // once per successful creation
  }, [creator.state, creator.data]);

  const send = (fetcher: typeof previewer | typeof creator, intent: string, chosen: File, extra: Record<string, string> = {}) => {
    const form = new FormData();
    form.set("intent", intent);
    form.set("fichier", chosen, chosen.name);
    for (const [k, v] of Object.entries(extra)) form.set(k, v);
    void fetcher.submit(form, { method: "post", action, encType: "multipart/form-data" });
  };
  const choose = (chosen: File | null) => {
    setFile(chosen);
    if (chosen) send(previewer, "preview", chosen);
  };
  const create = () => {
    if (file) send(creator, "create", file, { selection: JSON.stringify([...checked].sort((a, b) => a - b)) });
  };
  const toggle = (index: number, on: boolean) =>
    setChecked((s) => {
      const next = new Set(s);
      if (on) next.add(index);
      else next.delete(index);
      return next;
    });

  const failure = (previewer.data && !previewer.data.ok ? previewer.data : null) ?? (creator.data && !creator.data.ok ? creator.data : null);
  const fileError = failure?.fieldErrors?.fichier?.[0];
  const selectionError = creator.data && !creator.data.ok ? creator.data.fieldErrors?.selection?.[0] : undefined;
  const reading = previewer.state !== "idle";
  const busy = reading || creator.state !== "idle";
  const allChecked = importable.length > 0 && importable.every((c) => checked.has(c.index));
  const features = useMemo<GeoJSON.FeatureCollection>(
    () => ({
      type: "FeatureCollection",
      features: importable
        .filter((c) => checked.has(c.index) && c.geometry)
        .map((c) => ({ type: "Feature", geometry: c.geometry!, properties: { index: c.index, libelle: c.libelle, surface: c.surface } })),
    }),
    [importable, checked],
  );

  return (
    <div className="space-y-3">
      <p className="text-stone-600">{t("parcelle.import.help", { max: MAX_MB, features: MAX_FEATURES })}</p>
      <div>
        <label htmlFor="parcelle-import-fichier" className="field-label">
          {t("parcelle.import.fichier")}
        </label>
        <input
          id="parcelle-import-fichier"
          type="file"
          accept={ACCEPT}
          className="field-input"
          aria-invalid={fileError ? true : undefined}
          aria-describedby={fileError ? "parcelle-import-fichier-error" : undefined}
          disabled={creator.state !== "idle"}
          onChange={(e) => choose(e.currentTarget.files?.[0] ?? null)}
          data-testid="import-fichier"
          autoFocus
        />
        {fileError ? (
          <p id="parcelle-import-fichier-error" role="alert" className="field-error" data-testid="import-fichier-error">
            {t(fileError, failure?.params ?? {})}
          </p>
        ) : null}
        {reading ? (
          <p className="mt-1 text-stone-600" role="status">
            {t("parcelle.import.reading")}
          </p>
        ) : null}
      </div>

      {preview && !reading ? (
        <>
          <p data-testid="import-summary">
            {t("parcelle.import.summary", {
              total: preview.candidates.length,
              fichier: preview.fileName,
              importables: importable.length,
              cochees: checked.size,
            })}
          </p>
          <div className="max-h-72 overflow-auto rounded border border-stone-200">
            <table className="w-full text-left text-sm" data-testid="import-preview">
              <thead className="sticky top-0 bg-stone-50">
                <tr className="border-b border-stone-200">
                  <th className="px-2 py-1">
                    <input
                      type="checkbox"
                      aria-label={t("parcelle.import.all")}
                      checked={allChecked}
                      disabled={!importable.length}
                      onChange={(e) => setChecked(new Set(e.currentTarget.checked ? importable.map((c) => c.index) : []))}
                    />
                  </th>
                  <th className="px-2 py-1">{t("parcelle.import.libelle")}</th>
                  <th className="px-2 py-1">{t("parcelle.import.type")}</th>
                  <th className="px-2 py-1 text-right">{t("parcelle.import.surface")}</th>
                  <th className="px-2 py-1">{t("parcelle.import.noIlotPac")}</th>
                  <th className="px-2 py-1">{t("parcelle.import.remarque")}</th>
                </tr>
              </thead>
              <tbody>
                {preview.candidates.map((c) => (
                  <CandidateRow key={c.index} c={c} checked={checked.has(c.index)} onToggle={(on) => toggle(c.index, on)} language={i18n.language} />
                ))}
              </tbody>
            </table>
          </div>
          <p className="text-xs text-stone-500">{t("parcelle.import.surface-note")}</p>
          <ImportPreviewMap features={features} config={mapConfig} label={t("parcelle.import.map")} />
          {selectionError ? (
            <p role="alert" className="field-error" data-testid="import-selection-error">
              {t(selectionError)}
            </p>
          ) : null}
        </>
      ) : null}

      <div className="-mx-5 -mb-4 mt-2 flex justify-end gap-2 border-t border-stone-200 px-5 py-3">
        <button type="button" className="btn-secondary" onClick={onClose}>
          {t("ui.cancel")}
        </button>
        <button type="button" className="btn-primary" disabled={!preview || reading || busy || checked.size === 0} onClick={create} data-testid="import-create">
          {t("parcelle.import.create", { count: checked.size })}
        </button>
      </div>
    </div>
  );
}

function CandidateRow({ c, checked, onToggle, language }: { c: ImportCandidate; checked: boolean; onToggle: (on: boolean) => void; language: string }) {
  const { t } = useTranslation();
  const note = c.refus ? t(c.refus.key, c.refus.params ?? {}) : c.part ? t("parcelle.import.part", { part: c.part }) : "";
  return (
    <tr className={`border-b border-stone-100 ${c.refus ? "text-stone-500" : ""}`} data-testid={`import-row-${c.index}`}>
      <td className="px-2 py-1">
        <input
          type="checkbox"
          aria-label={t("parcelle.import.include-row", { libelle: c.libelle })}
          checked={checked}
          disabled={!!c.refus}
          onChange={(e) => onToggle(e.currentTarget.checked)}
        />
      </td>
      <td className="px-2 py-1">{c.libelle}</td>
      <td className="px-2 py-1">{c.typeGeometrie ? t(`parcelle.import.type-${c.typeGeometrie}`) : ""}</td>
      <td className="px-2 py-1 text-right">{formatNumber(c.surface, language)}</td>
      <td className="px-2 py-1">{c.noIlotPac ?? ""}</td>
      <td className={`px-2 py-1 ${c.refus ? "text-red-700" : ""}`}>{note}</td>
    </tr>
  );
}

export const ImportDialog = mountedOnceOpened(ImportDialogContent);
