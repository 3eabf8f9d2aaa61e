import { useCallback, useEffect, useEffectEvent, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { formatDate } from "~/components/format";
import type { CopieChoices } from "~/domain/contracts/copie";
import { pairesFormFields, pairPlotsByName } from "~/domain/copie";
import type { InterventionsData } from "~/domain/contracts/interventions";

export type CopieMode = "export-selection" | "import-parcelle" | "duplication";
type Answer = { ok: boolean; notice?: string; error?: string; choix?: CopieChoices };

/** Spec 3 §2.3 dialog width of the duplication (1000); the copy dialogs take 700. */
const WIDTH: Record<CopieMode, number> = { "export-selection": 700, "import-parcelle": 700, duplication: 1000 };

function Select({
  label,
  value,
  onChange,
  options,
  testId,
}: {
  label: string;
  value: number | null;
  onChange: (v: number | null) => void;
  options: { id: number; libelle: string }[];
  testId: string;
}) {
  return (
    <label className="block">
      <span className="field-label">{label}</span>
      <select className="field-input" value={value ?? ""} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)} data-testid={testId}>
        <option value="" />
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.libelle}
          </option>
        ))}
      </select>
    </label>
  );
}

function Ticks({
  legend,
  items,
  ticked,
  onChange,
  testId,
}: {
  legend: string;
  items: { id: number; libelle: string }[];
  ticked: number[];
  onChange: (ids: number[]) => void;
  testId: string;
}) {
  const set = new Set(ticked);
  return (
    <fieldset className="max-h-64 overflow-auto rounded border border-stone-200 p-2" data-testid={testId}>
      <legend className="field-label">{legend}</legend>
      {items.map((i) => (
        <label key={i.id} className="flex items-center gap-2 py-0.5">
          <input
            type="checkbox"
            checked={set.has(i.id)}
            onChange={() => onChange(set.has(i.id) ? ticked.filter((x) => x !== i.id) : [...ticked, i.id])}
            data-testid={`${testId}-${i.id}`}
          />
          {i.libelle}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The copy and duplication dialogs of the Other menu (spec 3 §2.3, decision 0047): export of ticked interventions
 * to plots of a writable campaign, import from another plot of the farm, duplication of a plot's interventions.
 * Only folders, farms and campaigns the user may write are offered as destinations (C-RIGHTS-21).
 */
export function CopieDialog({
  mode,
  data,
  cochees,
  onClose,
}: {
  mode: CopieMode;
  data: InterventionsData;
  /** Interventions ticked when the dialog opens ("Copier la sélection": those selected in the grid). */
  cochees?: number[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const loader = useFetcher<Answer>({ key: "copie-choix" });
  const saver = useFetcher<Answer>({ key: `copie-${mode}` });
  // Intervention duplication errors are silently swallowed (C-ERR-31); the others show.
  useActionFeedback(saver.data, { suppressErrorDialog: mode === "duplication" });
  const { submit } = loader;
  useEffect(() => void submit({ intent: "copieChoix" }, { method: "post" }), [submit]);
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (saver.state === "idle" && saver.data?.ok) close();
  }, [saver.state, saver.data]);
  const choix = loader.data?.choix ?? null;

  const [dossier, setDossier] = useState<number | null>(null);
  const [exploitation, setExploitation] = useState<number | null>(null);
  const [campagne, setCampagne] = useState<number | null>(null);
  const [parcelles, setParcelles] = useState<number[]>([]);
  const [suppression, setSuppression] = useState(false);
  const [actions, setActions] = useState<number[]>(cochees ?? []);
  const [srcExploitation, setSrcExploitation] = useState<number | null>(null);
  const [srcCampagne, setSrcCampagne] = useState<number | null>(null);
  const [srcParcelle, setSrcParcelle] = useState<number | null>(null);
  // Duplication of several plots at once (issue 30, decision 0123): the ticked source plots, each to one destination
  // plot (the one of the same name unless the user chose another, null: none).
  const [plusieurs, setPlusieurs] = useState(false);
  const [srcParcelles, setSrcParcelles] = useState<number[]>([]);
  const [choisies, setChoisies] = useState<Record<number, number | null>>({});

  const destDossier = choix?.destinations.find((d) => d.id === dossier);
  const destFarm = destDossier?.exploitations.find((e) => e.id === exploitation);
  const destCampagne = destFarm?.campagnes.find((c) => c.id === campagne);
  const label = useCallback((a: { date: string; operation: string | null }) => `${formatDate(a.date)} ${a.operation ?? t("copie.sans-operation")}`, [t]);
  const shown = useMemo(
    () =>
      data.rows.map((r) => ({
        id: r.id,
        libelle: label({ date: r.date, operation: data.operations.find((o) => o.id === r.idOperationCulturale)?.libelle ?? null }),
      })),
    [data, label],
  );
  const importCampagne = choix?.imports.find((c) => c.id === srcCampagne);
  const srcFarm = choix?.sources.find((f) => f.id === srcExploitation);
  const srcCamp = srcFarm?.campagnes.find((c) => c.id === srcCampagne);

  const send = (fields: Record<string, string | number | boolean | number[]>, more: [string, string][] = []) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) if (x !== false) form.append(k, x === true ? "on" : String(x));
    for (const [k, v] of more) form.append(k, v);
    void saver.submit(form, { method: "post" });
  };
  // The pairs of the duplication of several plots: each ticked source plot (in the list's order) and its destination.
  const tickedSources = useMemo(() => (srcCamp?.parcelles ?? []).filter((p) => srcParcelles.includes(p.id)), [srcCamp, srcParcelles]);
  const destPlots = useMemo(() => (destCampagne?.parcelles ?? []).filter((p) => !srcParcelles.includes(p.id)), [destCampagne, srcParcelles]);
  const byName = useMemo(() => pairPlotsByName(tickedSources, destPlots), [tickedSources, destPlots]);
  const paires = tickedSources.map((p) => ({ source: p, destination: p.id in choisies ? choisies[p.id] : (byName.get(p.id) ?? null) }));
  const chosen = paires.map((p) => p.destination);
  const pairesValides = paires.length > 0 && chosen.every((d) => d != null) && new Set(chosen).size === chosen.length;
  const busy = saver.state !== "idle";

  const destination = (exclude: number | null, plotList = true): ReactNode =>
    choix && !choix.destinations.length ? (
      <p data-testid="copie-aucune-destination">{t("copie.aucune-destination")}</p>
    ) : (
      <div className="space-y-2">
        <div className="grid gap-x-4 sm:grid-cols-3">
          <Select
            label={t("copie.dossier")}
            value={dossier}
            onChange={(v) => {
              setDossier(v);
              setExploitation(null);
              setCampagne(null);
              setParcelles([]);
            }}
            options={choix?.destinations ?? []}
            testId="copie-dossier"
          />
          <Select
            label={t("copie.exploitation-destination")}
            value={exploitation}
            onChange={(v) => {
              setExploitation(v);
              setCampagne(null);
              setParcelles([]);
            }}
            options={destDossier?.exploitations ?? []}
            testId="copie-exploitation"
          />
          <Select
            label={t("copie.campagne-destination")}
            value={campagne}
            onChange={(v) => {
              setCampagne(v);
              setParcelles([]);
              setChoisies({});
            }}
            options={destFarm?.campagnes ?? []}
            testId="copie-campagne"
          />
        </div>
        {destCampagne && plotList ? (
          <Ticks
            legend={t("copie.parcelles-destination")}
            items={destCampagne.parcelles.filter((p) => p.id !== exclude)}
            ticked={parcelles}
            onChange={setParcelles}
            testId="copie-parcelles"
          />
        ) : null}
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={suppression} onChange={(e) => setSuppression(e.target.checked)} data-testid="copie-suppression" />
          {t("copie.suppression")}
        </label>
      </div>
    );

  let body: ReactNode;
  let confirm: ReactNode;
  if (mode === "export-selection") {
    body = (
      <div className="space-y-3">
        <Ticks legend={t("copie.interventions-a-copier")} items={shown} ticked={actions} onChange={setActions} testId="copie-actions" />
        {destination(null)}
      </div>
    );
    confirm = (
      <button
        type="button"
        className="btn-primary"
        data-testid="copie-valider"
        disabled={busy || !actions.length || !parcelles.length || !campagne}
        onClick={() =>
          send({
            intent: "exportInterventions",
            actionsSource: actions,
            dossierDestination: dossier!,
            campagneDestination: campagne!,
            parcellesDestination: parcelles,
            suppressionInterventionsParcellesDst: suppression,
          })
        }
      >
        {t("copie.copier")}
      </button>
    );
  } else if (mode === "import-parcelle") {
    const ofPlot = importCampagne?.interventions.filter((a) => a.idParcelle === srcParcelle && !(srcCampagne === null)) ?? [];
    body = (
      <div className="space-y-3">
        <div className="grid gap-x-4 sm:grid-cols-2">
          <Select
            label={t("copie.campagne")}
            value={srcCampagne}
            onChange={(v) => {
              setSrcCampagne(v);
              setSrcParcelle(null);
              setActions([]);
            }}
            options={choix?.imports ?? []}
            testId="copie-import-campagne"
          />
          <Select
            label={t("copie.parcelle")}
            value={srcParcelle}
            onChange={(v) => {
              setSrcParcelle(v);
              setActions([]);
            }}
            options={importCampagne?.parcelles ?? []}
            testId="copie-import-parcelle"
          />
        </div>
        {srcParcelle ? (
          ofPlot.length ? (
            <Ticks
              legend={t("copie.interventions-a-importer")}
              items={ofPlot.map((a) => ({ id: a.id, libelle: label(a) }))}
              ticked={actions}
              onChange={setActions}
              testId="copie-actions"
            />
          ) : (
            <p>{t("copie.aucune-intervention")}</p>
          )
        ) : null}
      </div>
    );
    confirm = (
      <button
        type="button"
        className="btn-primary"
        data-testid="copie-valider"
        disabled={busy || !actions.length}
        onClick={() => send({ intent: "importInterventions", idParcelle: data.selection[0], campagneSource: srcCampagne!, actionsSource: actions })}
      >
        {t("copie.importer")}
      </button>
    );
  } else {
    body = (
      <div className="space-y-3">
        <h3 className="font-semibold">{t("copie.source")}</h3>
        <div className="grid gap-x-4 sm:grid-cols-3">
          <Select
            label={t("copie.exploitation-source")}
            value={srcExploitation}
            onChange={(v) => {
              setSrcExploitation(v);
              setSrcCampagne(null);
              setSrcParcelle(null);
              setSrcParcelles([]);
            }}
            options={choix?.sources ?? []}
            testId="copie-source-exploitation"
          />
          <Select
            label={t("copie.campagne-source")}
            value={srcCampagne}
            onChange={(v) => {
              setSrcCampagne(v);
              setSrcParcelle(null);
              setSrcParcelles([]);
            }}
            options={srcFarm?.campagnes ?? []}
            testId="copie-source-campagne"
          />
          {plusieurs ? null : (
            <Select
              label={t("copie.parcelle-source")}
              value={srcParcelle}
              onChange={(v) => {
                setSrcParcelle(v);
                setParcelles((p) => p.filter((x) => x !== v));
              }}
              options={srcCamp?.parcelles ?? []}
              testId="copie-source-parcelle"
            />
          )}
        </div>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={plusieurs}
            onChange={(e) => {
              setPlusieurs(e.target.checked);
              setSrcParcelle(null);
              setSrcParcelles([]);
              setParcelles([]);
              setChoisies({});
            }}
            data-testid="copie-plusieurs"
          />
          {t("copie.plusieurs")}
        </label>
        {plusieurs && srcCamp ? (
          <div className="space-y-1">
            <button
              type="button"
              className="btn-secondary"
              onClick={() => setSrcParcelles(srcCamp.parcelles.map((p) => p.id))}
              data-testid="copie-sources-toutes"
            >
              {t("copie.toutes")}
            </button>
            <Ticks legend={t("copie.parcelles-source")} items={srcCamp.parcelles} ticked={srcParcelles} onChange={setSrcParcelles} testId="copie-sources" />
          </div>
        ) : null}
        <h3 className="font-semibold">{t("copie.destination")}</h3>
        {destination(srcParcelle, !plusieurs)}
        {plusieurs && destCampagne && paires.length ? (
          <fieldset className="max-h-64 overflow-auto rounded border border-stone-200 p-2" data-testid="copie-paires">
            <legend className="field-label">{t("copie.paires")}</legend>
            {paires.map(({ source, destination: d }) => (
              <label key={source.id} className="grid grid-cols-2 items-center gap-2 py-0.5">
                <span>{source.libelle}</span>
                <select
                  className="field-input"
                  value={d ?? ""}
                  onChange={(e) => setChoisies((c) => ({ ...c, [source.id]: e.target.value ? Number(e.target.value) : null }))}
                  data-testid={`copie-paire-${source.id}`}
                >
                  <option value="">{t("copie.sans-destination")}</option>
                  {destPlots.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.libelle}
                    </option>
                  ))}
                </select>
              </label>
            ))}
            {pairesValides ? null : (
              <p className="field-error" data-testid="copie-paires-invalides">
                {t("copie.paires-invalides")}
              </p>
            )}
          </fieldset>
        ) : null}
      </div>
    );
    confirm = (
      <button
        type="button"
        className="btn-primary"
        data-testid="copie-valider"
        disabled={busy || !campagne || (plusieurs ? !pairesValides : !srcParcelle || !parcelles.length)}
        onClick={() =>
          plusieurs
            ? send(
                {
                  intent: "duplicationCampagneInterventions",
                  dossierSource: choix?.idDossier ?? 0,
                  campagneSource: srcCampagne!,
                  dossierDestination: dossier!,
                  campagneDestination: campagne!,
                  suppressionInterventionsParcellesDst: suppression,
                },
                pairesFormFields(paires.map((p) => ({ parcelleSource: p.source.id, parcellesDestination: [p.destination!] }))),
              )
            : send({
                intent: "duplicationInterventions",
                dossierSource: choix?.idDossier ?? 0,
                campagneSource: srcCampagne!,
                parcelleSource: srcParcelle!,
                dossierDestination: dossier!,
                campagneDestination: campagne!,
                parcellesDestination: parcelles,
                suppressionInterventionsParcellesDst: suppression,
              })
        }
      >
        {t("copie.dupliquer")}
      </button>
    );
  }

  return (
    <AppDialog
      open
      title={mode === "duplication" ? t("copie.duplication") : t(`interventions.${mode}`)}
      width={WIDTH[mode]}
      testId={`copie-${mode}`}
      onEscape={onClose}
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
          {confirm}
        </>
      }
    >
      {choix ? body : <p>{t("copie.chargement")}</p>}
    </AppDialog>
  );
}
