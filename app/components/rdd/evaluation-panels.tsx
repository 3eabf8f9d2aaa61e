import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useLocation } from "react-router";
import { AppDialog } from "~/components/dialog";
import { useActionFeedback } from "~/components/feedback";
import { formatDate, formatNumber } from "~/components/format";
import { ECARTS } from "~/domain/rdd";
import type { Condition, Fait, Mesure } from "~/domain/rdd-conditions";

/** Evaluation dialog width (spec 3 §9, C-CONST-15): 700, at most 1000. */
export const EVALUATION_DIALOG_WIDTH = 700;

type Evaluation = {
  id: number;
  idRdd: number;
  rddLibelle: string;
  idAction: number | null;
  idParcelle: number | null;
  ecartSolution: number | null;
  explicationEcart: string | null;
  ecartResultat: number | null;
  justification: string | null;
  aModifier: boolean;
  updatedAt: string;
};
type Rule = { id: number; libelle: string; objectif: string | null; solution?: string | null };
type Panels = {
  idAction: number;
  idParcelle: number;
  canWrite: boolean;
  rules: Rule[];
  actionEvaluations: Evaluation[];
  plotEvaluations: Evaluation[];
  notEvaluated: Rule[];
  verdicts: { idRdd: number; libelle: string; condition: Condition; respectee: boolean; faits: Fait[]; mesure?: Mesure }[];
  interventions: { id: number; date: string; libelle: string }[];
  plots: { id: number; libelle: string }[];
};
type Answer = { ok: boolean; notice?: string; error?: string };
type Portee = "action" | "parcelle";
type Draft = {
  id?: number;
  updatedAt?: string;
  portee: Portee;
  rdds: number[];
  ecartSolution: string;
  explicationEcart: string;
  ecartResultat: string;
  justification: string;
  aModifier: boolean;
};

const draftOf = (e: Evaluation): Draft => ({
  id: e.id,
  updatedAt: e.updatedAt,
  portee: e.idAction != null ? "action" : "parcelle",
  rdds: [e.idRdd],
  ecartSolution: e.ecartSolution == null ? "" : String(e.ecartSolution),
  explicationEcart: e.explicationEcart ?? "",
  ecartResultat: e.ecartResultat == null ? "" : String(e.ecartResultat),
  justification: e.justification ?? "",
  aModifier: e.aModifier,
});
const emptyDraft = (portee: Portee, rdds: number[] = []): Draft => ({
  portee,
  rdds,
  ecartSolution: "",
  explicationEcart: "",
  ecartResultat: "",
  justification: "",
  aModifier: false,
});

/**
 * The intervention's and its plot's rule evaluations (spec 3 §2.1, §2.9): shown once the intervention is saved (C-FORM-02).
 * Their data come from the screen's `evaluations` resource, and their writes go to it.
 */
export function EvaluationPanels({ idAction }: { idAction: number }) {
  const { t } = useTranslation();
  const location = useLocation();
  const url = `${location.pathname.replace(/\/+$/, "")}/evaluations`;
  const reader = useFetcher<Panels>();
  const writer = useFetcher<Answer>();
  useActionFeedback(writer.data);
  const { load: loadPanels } = reader;
  const load = useCallback(() => loadPanels(`${url}?action=${idAction}`), [loadPanels, url, idAction]);
  useEffect(() => {
    void load();
  }, [load]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [bulk, setBulk] = useState<{ evaluation: Evaluation; vers: Portee } | null>(null);
  const [toDelete, setToDelete] = useState<Evaluation | null>(null);
  useEffect(() => {
    if (writer.state === "idle" && writer.data?.ok) {
      setDraft(null);
      setBulk(null);
      setToDelete(null);
      void load();
    }
  }, [writer.state, writer.data, load]);

  const data = reader.data;
  if (!data)
    return (
      <p className="text-sm text-stone-600" data-testid="evaluation-panels-loading">
        …
      </p>
    );
  const open = (e: Evaluation) => (data.canWrite ? setDraft(draftOf(e)) : undefined);

  const table = (rows: Evaluation[], testId: string, caption: string) =>
    rows.length === 0 ? (
      <p className="text-sm text-stone-600" data-testid={`${testId}-empty`}>
        {t("evaluation.aucune")}
      </p>
    ) : (
      <div className="overflow-x-auto">
        <table className="w-full text-sm" data-testid={testId}>
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr className="text-left text-stone-600">
              <th className="py-1 pr-2 font-medium">{t("evaluation.regle")}</th>
              <th className="pr-2 font-medium">{t("evaluation.col-solution")}</th>
              <th className="pr-2 font-medium">{t("evaluation.col-resultat")}</th>
              <th className="font-medium">
                <span className="sr-only">{t("evaluation.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={e.id} className="border-t border-stone-200" data-testid={`${testId}-row`}>
                <td className="py-1 pr-2">
                  {/* C-RIGHTS-07: without the descriptive-write right, a row does not open the form. */}
                  {data.canWrite ? (
                    <button type="button" className="text-left text-sillon-800 underline" onClick={() => open(e)}>
                      {e.rddLibelle}
                    </button>
                  ) : (
                    e.rddLibelle
                  )}
                </td>
                <td className="pr-2">{e.ecartSolution == null ? "" : t(`evaluation.ecarts.${e.ecartSolution}`)}</td>
                <td className="pr-2">{e.ecartResultat == null ? "" : t(`evaluation.ecarts.${e.ecartResultat}`)}</td>
                <td className="whitespace-nowrap text-right">
                  <button
                    type="button"
                    className="btn-secondary px-2 py-0.5 text-xs"
                    disabled={!data.canWrite}
                    onClick={() => setBulk({ evaluation: e, vers: "action" })}
                    data-testid="bulk-action"
                  >
                    {t("evaluation.ajouter-interventions")}
                  </button>{" "}
                  <button
                    type="button"
                    className="btn-secondary px-2 py-0.5 text-xs"
                    disabled={!data.canWrite}
                    onClick={() => setBulk({ evaluation: e, vers: "parcelle" })}
                    data-testid="bulk-parcelle"
                  >
                    {t("evaluation.ajouter-parcelles")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <div className="space-y-4" data-testid="evaluation-panels">
      <section className="rounded border border-stone-300 p-3" aria-labelledby="eval-action-title" data-testid="panel-eval-intervention">
        <div className="mb-2 flex items-center justify-between gap-2">
          <h3 id="eval-action-title" className="text-sm font-semibold">
            {t("evaluation.panel-intervention")}
          </h3>
          <button
            type="button"
            className="btn-secondary px-2 py-0.5 text-xs"
            disabled={!data.canWrite}
            onClick={() => setDraft(emptyDraft("action"))}
            data-testid="evaluer-intervention"
          >
            {t("evaluation.evaluer")}
          </button>
        </div>
        {table(data.actionEvaluations, "eval-intervention", t("evaluation.panel-intervention"))}
      </section>
      <section className="rounded border border-stone-300 p-3" aria-labelledby="eval-plot-title" data-testid="panel-eval-parcelle">
        <div className="mb-2 flex items-center justify-between gap-2">
          <h3 id="eval-plot-title" className="text-sm font-semibold">
            {t("evaluation.panel-parcelle")}
          </h3>
          <button
            type="button"
            className="btn-secondary px-2 py-0.5 text-xs"
            disabled={!data.canWrite}
            onClick={() => setDraft(emptyDraft("parcelle"))}
            data-testid="evaluer-parcelle"
          >
            {t("evaluation.evaluer")}
          </button>
        </div>
        {table(data.plotEvaluations, "eval-parcelle", t("evaluation.panel-parcelle"))}
        {data.verdicts.length ? (
          <div className="mt-3" data-testid="rdd-verdicts">
            <h4 className="mb-1 text-sm font-semibold">{t("evaluation.verdicts")}</h4>
            <ul className="space-y-1 text-sm">
              {data.verdicts.map((v) => (
                <VerdictItem key={v.idRdd} v={v} />
              ))}
            </ul>
          </div>
        ) : null}
        <h4 className="mb-1 mt-3 text-sm font-semibold" id="non-evaluees-title">
          {t("evaluation.non-evaluees")}
        </h4>
        {data.notEvaluated.length === 0 ? (
          <p className="text-sm text-stone-600">{t("evaluation.aucune-regle")}</p>
        ) : (
          <table className="w-full text-sm" aria-labelledby="non-evaluees-title" data-testid="rdd-non-evaluees">
            <tbody>
              {data.notEvaluated.map((r) => (
                <tr key={r.id} className="border-t border-stone-200" data-testid="rdd-non-evaluee">
                  <td className="py-1 pr-2">{r.libelle}</td>
                  <td className="text-right">
                    <button
                      type="button"
                      className="btn-secondary px-2 py-0.5 text-xs"
                      disabled={!data.canWrite}
                      onClick={() => setDraft(emptyDraft("parcelle", [r.id]))}
                    >
                      {t("evaluation.evaluer")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {draft ? (
        <EvaluationDialog
          key={draft.id ?? "new"}
          data={data}
          initial={draft}
          busy={writer.state !== "idle"}
          onClose={() => setDraft(null)}
          onDelete={(e) => setToDelete(e)}
          onSave={(d) => {
            const fd = new FormData();
            fd.set("intent", "save");
            fd.set("portee", d.portee);
            fd.set("idAction", String(data.idAction));
            fd.set("idParcelle", String(data.idParcelle));
            if (d.id) {
              fd.set("id", String(d.id));
              fd.set("updatedAt", d.updatedAt ?? "");
            }
            for (const r of d.rdds) fd.append("rdds", String(r));
            fd.set("ecartSolution", d.ecartSolution);
            fd.set("explicationEcart", d.explicationEcart);
            fd.set("ecartResultat", d.ecartResultat);
            fd.set("justification", d.justification);
            if (d.aModifier) fd.set("aModifier", "on");
            writer.submit(fd, { method: "post", action: url });
          }}
        />
      ) : null}
      {bulk ? (
        <BulkDialog
          data={data}
          {...bulk}
          busy={writer.state !== "idle"}
          onClose={() => setBulk(null)}
          onCopy={(cibles) =>
            writer.submit({ intent: "copy", id: String(bulk.evaluation.id), vers: bulk.vers, cibles: JSON.stringify(cibles) }, { method: "post", action: url })
          }
        />
      ) : null}
      <AppDialog
        open={toDelete !== null}
        title={t("ui.delete")}
        width={500}
        onEscape={() => setToDelete(null)}
        testId="delete-evaluation-dialog"
        actions={
          <>
            <button type="button" className="btn-secondary" onClick={() => setToDelete(null)}>
              {t("ui.cancel")}
            </button>
            <button
              type="button"
              className="btn-primary"
              disabled={writer.state !== "idle"}
              onClick={() => toDelete && writer.submit({ intent: "delete", id: String(toDelete.id) }, { method: "post", action: url })}
            >
              {t("ui.delete")}
            </button>
          </>
        }
      >
        <p>{t("evaluation.confirm-delete")}</p>
      </AppDialog>
    </div>
  );
}

type VerdictRow = Panels["verdicts"][number];

/** A rule's condition checked on the plot: its verdict and the facts behind it (beyond the spec, decision 0041). */
function VerdictItem({ v }: { v: VerdictRow }) {
  const { t, i18n } = useTranslation();
  const num = (n: number) => formatNumber(n, i18n.language, 2);
  const c = v.condition;
  const what =
    c.type === "produit_interdit"
      ? `${t("rdd.conditions.produit_interdit")} : ${c.produits.join(", ")}`
      : c.type === "delai_min"
        ? t("evaluation.delai", { count: c.jours })
        : c.type === "realisee_avant"
          ? t("evaluation.realisee-avant", { date: formatDate(c.date), operation: c.operation ? ` (${c.operation})` : "" })
          : t(`evaluation.${c.type}`, { max: num(c.max) });
  const fait = (f: Fait) =>
    f.date2
      ? t("evaluation.fait-delai", { libelle: f.libelle, date: formatDate(f.date), date2: formatDate(f.date2), count: f.jours })
      : f.statut
        ? t(`evaluation.fait-${f.statut}`, { libelle: f.libelle, date: formatDate(f.date) })
        : f.valeur != null
          ? t("evaluation.fait-contribution", { libelle: f.libelle, date: f.date ? formatDate(f.date) : "", valeur: num(f.valeur), unite: f.unite })
          : t("evaluation.fait-produit", { libelle: f.libelle, date: formatDate(f.date) });
  return (
    <li data-testid={v.respectee ? "verdict-respectee" : "verdict-enfreinte"}>
      <span className={v.respectee ? "text-sillon-800" : "font-semibold text-red-700"}>
        {v.respectee ? t("evaluation.respectee") : t("evaluation.enfreinte")}
      </span>{" "}
      {v.libelle} <span className="text-stone-600">({what})</span>
      {v.mesure ? (
        <p className="ml-5 text-stone-700" data-testid="verdict-mesure">
          {v.mesure.valeur == null
            ? t("evaluation.mesure-non-calculee")
            : t("evaluation.mesure", {
                valeur: num(v.mesure.valeur),
                unite: v.mesure.unite,
                max: num(v.mesure.max),
                completude: formatNumber(v.mesure.completude, i18n.language, 0),
              })}
        </p>
      ) : null}
      {v.faits.length ? (
        <ul className="ml-5 list-disc text-stone-700">
          {v.faits.map((f, i) => (
            <li key={i}>{fait(f)}</li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function EvaluationDialog({
  data,
  initial,
  busy,
  onClose,
  onSave,
  onDelete,
}: {
  data: Panels;
  initial: Draft;
  busy: boolean;
  onClose: () => void;
  onSave: (d: Draft) => void;
  onDelete: (e: Evaluation) => void;
}) {
  const { t } = useTranslation();
  const [d, setD] = useState<Draft>(initial);
  const [loaded, setLoaded] = useState(false);
  const all = [...data.actionEvaluations, ...data.plotEvaluations];
  const existing = d.id ? all.find((e) => e.id === d.id) : undefined;
  // C-EVAL-07, 08: ticking a rule already evaluated on this intervention or its plot loads that evaluation and its scope.
  const toggle = (id: number, on: boolean) => {
    if (on && !d.id) {
      const found = data.actionEvaluations.find((e) => e.idRdd === id) ?? data.plotEvaluations.find((e) => e.idRdd === id);
      if (found) {
        setD(draftOf(found));
        setLoaded(true);
        return;
      }
    }
    setD({ ...d, rdds: on ? [...(d.id ? [] : d.rdds), id] : d.rdds.filter((r) => r !== id) });
  };
  const select = (name: "ecartSolution" | "ecartResultat", label: string) => (
    <div className="mb-3">
      <label htmlFor={`eval-${name}`} className="field-label">
        {label}
      </label>
      <select id={`eval-${name}`} className="field-input" value={d[name]} onChange={(e) => setD({ ...d, [name]: e.target.value })} data-testid={`eval-${name}`}>
        <option value="">{t("context.choose")}</option>
        {ECARTS.map((v) => (
          <option key={v} value={v}>{`${v} – ${t(`evaluation.ecarts.${v}`)}`}</option>
        ))}
      </select>
    </div>
  );
  const area = (name: "explicationEcart" | "justification", label: string) => (
    <div className="mb-3">
      <label htmlFor={`eval-${name}`} className="field-label">
        {label}
      </label>
      <textarea id={`eval-${name}`} className="field-input" rows={2} value={d[name]} onChange={(e) => setD({ ...d, [name]: e.target.value })} />
    </div>
  );
  const noRule = d.rdds.length === 0;
  return (
    <AppDialog
      open
      title={t("evaluation.titre")}
      width={EVALUATION_DIALOG_WIDTH}
      onEscape={onClose}
      testId="evaluation-dialog"
      actions={
        <>
          {existing ? (
            <button type="button" className="btn-secondary mr-auto" onClick={() => onDelete(existing)} data-testid="evaluation-delete">
              {t("evaluation.supprimer")}
            </button>
          ) : null}
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
          <button type="button" className="btn-primary" disabled={noRule || busy} onClick={() => onSave(d)} data-testid="evaluation-save">
            {t("ui.save")}
          </button>
        </>
      }
    >
      <fieldset className="mb-3">
        <legend className="field-label">{t("evaluation.portee")}</legend>
        <div className="flex gap-4">
          {(["action", "parcelle"] as const).map((p) => (
            <label key={p} className="flex items-center gap-2">
              <input type="radio" name="portee" value={p} checked={d.portee === p} onChange={() => setD({ ...d, portee: p })} data-testid={`portee-${p}`} />
              {t(`evaluation.portee-${p}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="mb-3" aria-describedby={noRule ? "eval-rdds-error" : undefined}>
        <legend className="field-label">{t("evaluation.regles")}</legend>
        <div className="max-h-48 space-y-1 overflow-auto rounded border border-stone-300 p-2" data-testid="evaluation-rules">
          {data.rules.map((r) => (
            <label key={r.id} className="flex items-start gap-2">
              <input type="checkbox" className="mt-1" checked={d.rdds.includes(r.id)} onChange={(e) => toggle(r.id, e.target.checked)} />
              <span>{r.libelle}</span>
            </label>
          ))}
        </div>
        {noRule ? (
          <p id="eval-rdds-error" className="field-error" data-testid="eval-rdds-error">
            {t("warning.required")}
          </p>
        ) : null}
        {loaded ? (
          <p className="mt-1 text-xs text-stone-600" data-testid="eval-loaded">
            {t("evaluation.deja-evaluee")}
          </p>
        ) : null}
      </fieldset>
      {data.verdicts.some((v) => d.rdds.includes(v.idRdd)) ? (
        <div className="mb-3 rounded border border-stone-200 bg-stone-50 p-2" data-testid="dialog-verdicts">
          <p className="mb-1 font-medium">{t("evaluation.verdicts")}</p>
          <ul className="space-y-1">
            {data.verdicts
              .filter((v) => d.rdds.includes(v.idRdd))
              .map((v) => (
                <VerdictItem key={v.idRdd} v={v} />
              ))}
          </ul>
        </div>
      ) : null}
      <div className="grid gap-x-4 sm:grid-cols-2">
        {select("ecartSolution", t("evaluation.ecart-solution"))}
        {select("ecartResultat", t("evaluation.ecart-resultat"))}
      </div>
      {area("explicationEcart", t("evaluation.explication-ecart"))}
      {area("justification", t("evaluation.justification"))}
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={d.aModifier} onChange={(e) => setD({ ...d, aModifier: e.target.checked })} />
        {t("evaluation.a-modifier")}
      </label>
    </AppDialog>
  );
}

function BulkDialog({
  data,
  evaluation,
  vers,
  busy,
  onClose,
  onCopy,
}: {
  data: Panels;
  evaluation: Evaluation;
  vers: Portee;
  busy: boolean;
  onClose: () => void;
  onCopy: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  const [ticked, setTicked] = useState<number[]>([]);
  const targets =
    vers === "action"
      ? data.interventions.filter((i) => i.id !== evaluation.idAction).map((i) => ({ id: i.id, libelle: `${formatDate(i.date)} ${i.libelle}`.trim() }))
      : data.plots.filter((p) => p.id !== evaluation.idParcelle);
  return (
    <AppDialog
      open
      title={t(vers === "action" ? "evaluation.bulk-titre-action" : "evaluation.bulk-titre-parcelle")}
      width={EVALUATION_DIALOG_WIDTH}
      onEscape={onClose}
      testId="bulk-dialog"
      actions={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            {t("ui.cancel")}
          </button>
          <button type="button" className="btn-primary" disabled={ticked.length === 0 || busy} onClick={() => onCopy(ticked)} data-testid="bulk-copy">
            {t("evaluation.copier")}
          </button>
        </>
      }
    >
      <p className="mb-2 font-medium">{evaluation.rddLibelle}</p>
      {targets.length === 0 ? (
        <p className="text-stone-600">{t("evaluation.aucune-cible")}</p>
      ) : (
        <div className="max-h-64 space-y-1 overflow-auto" data-testid="bulk-targets">
          {targets.map((c) => (
            <label key={c.id} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={ticked.includes(c.id)}
                onChange={(e) => setTicked(e.target.checked ? [...ticked, c.id] : ticked.filter((x) => x !== c.id))}
              />
              {c.libelle}
            </label>
          ))}
        </div>
      )}
      {ticked.length === 0 ? (
        <p className="field-error mt-2" data-testid="bulk-required">
          {t("warning.required")}
        </p>
      ) : null}
    </AppDialog>
  );
}
