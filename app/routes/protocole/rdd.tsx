import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { useFetcher, useSearchParams } from "react-router";
import { type DataTableColumn } from "~/components/data-table";
import { useActionFeedback } from "~/components/feedback";
import { ListScreen, listScreenShouldRevalidate } from "~/components/list-screen";
import { labelOf, RddForm } from "~/components/rdd/rdd-form";
import { ScreenFrame } from "~/components/screen-frame";
import { MACRO_REGLE, RddSchema } from "~/domain/rdd";
import { deleteIntent, queryId, rowIntent, saveIntent, screenAction, screenLoader } from "#server/http/route.server";
import { duplicateRdd, getRdds, RDD_LOAD_ERROR, removeRdds, saveRdd } from "#server/rdd/service.server";
import type { Route } from "./+types/rdd";

/** The decision rules screen (spec 3 §2.8, issue 13): table with the driving-mode and to-modify filters, the rule form, duplicate. */
export const shouldRevalidate = listScreenShouldRevalidate;

export const loader = screenLoader(({ scope, query }) => getRdds(scope, { modeConduite: queryId(query, "modeConduite") }), { loadError: RDD_LOAD_ERROR });

export const action = screenAction(
  {
    save: saveIntent(RddSchema, ({ scope }, value, edit) => saveRdd(scope, value, edit)),
    delete: deleteIntent(({ scope }, ids) => removeRdds(scope, ids)),
    duplicate: rowIntent(({ scope }, id) => duplicateRdd(scope, id), "ui.save-confirmation"),
  },
  { gate: "campaign" },
);

type Data = Extract<Route.ComponentProps["loaderData"], { ok: true }>;
type Row = Data["rows"][number];

export default function RddScreen({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <ScreenFrame data={loaderData} title={t("screen.rdd")} name="rdd" width="6xl">
      {(data) => <RddList data={data} />}
    </ScreenFrame>
  );
}

function RddList({ data }: { data: Data }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [params, setParams] = useSearchParams();
  const [aModifier, setAModifier] = useState(false);
  const duplicator = useFetcher<{ ok: boolean; notice?: string; error?: string }>();
  useActionFeedback(duplicator.data);
  const modeLabel = (id: number) => (id === MACRO_REGLE ? t("rdd.macro-regle") : (data.modes.find((m) => m.id === id)?.libelle ?? ""));
  const rows = aModifier ? data.rows.filter((r) => r.aModifier) : data.rows;
  const columns: DataTableColumn<Row>[] = [
    { id: "libelle", header: t("rdd.libelle"), cell: (r) => r.libelle, sortValue: (r) => r.libelle, alwaysVisible: true },
    {
      id: "type",
      header: t("rdd.type"),
      cell: (r) => {
        const ty = data.types.find((x) => x.id === r.dicIdTypeRdd);
        return ty ? labelOf(ty, lang) : "";
      },
      sortValue: (r) => r.dicIdTypeRdd,
    },
    { id: "modes", header: t("rdd.mode-conduite"), cell: (r) => r.modeConduite.map(modeLabel).join(", ") },
    {
      id: "culture",
      header: t("rdd.culture"),
      cell: (r) => {
        const c = data.cultures.find((x) => x.id === r.idCulture);
        return c ? labelOf(c, lang) : "";
      },
    },
    { id: "aModifier", header: t("rdd.a-modifier"), cell: (r) => (r.aModifier ? t("rdd.oui") : "") },
    { id: "objectif", header: t("rdd.objectif"), cell: (r) => r.objectif ?? "", optional: true },
  ];
  const mode = params.get("modeConduite") ?? "";
  const header = (
    <div className="flex flex-wrap items-end gap-4" data-testid="rdd-filters">
      <div>
        <label htmlFor="rdd-filter-mode" className="field-label">
          {t("rdd.filtre-mode")}
        </label>
        <select
          id="rdd-filter-mode"
          className="field-input"
          value={mode}
          data-testid="rdd-filter-mode"
          onChange={(e) =>
            setParams((p) => {
              const n = new URLSearchParams(p);
              if (e.target.value) n.set("modeConduite", e.target.value);
              else n.delete("modeConduite");
              n.delete("id");
              return n;
            })
          }
        >
          <option value="">{t("rdd.tous-modes")}</option>
          {data.modes.map((m) => (
            <option key={m.id} value={m.id}>
              {m.libelle}
            </option>
          ))}
        </select>
      </div>
      <label className="flex items-center gap-2 pb-2 text-sm">
        {/* C-RIGHTS-08: the to-modify filter needs the descriptive-write right. */}
        <input
          type="checkbox"
          checked={aModifier}
          disabled={!data.canWrite}
          onChange={(e) => setAModifier(e.target.checked)}
          data-testid="rdd-filter-a-modifier"
        />
        {t("rdd.filtre-a-modifier")}
      </label>
    </div>
  );
  return (
    <div className="mx-auto max-w-6xl space-y-4" data-testid="screen-rdd">
      <ListScreen
        tableId="rdd"
        title={t("screen.rdd")}
        label={t("screen.rdd")}
        rows={rows}
        columns={columns}
        getRowId={(r) => r.id}
        readOnly={!data.canWrite}
        header={header}
        renderForm={(row, controls) => <RddForm key={row?.id ?? "new"} row={row} data={data} controls={controls} />}
        extraToolbar={(checked) => (
          <button
            type="button"
            className="btn-secondary"
            disabled={!data.canWrite || checked.length !== 1 || duplicator.state !== "idle"}
            data-testid="rdd-duplicate"
            onClick={() => duplicator.submit({ intent: "duplicate", id: String(checked[0]) }, { method: "post" })}
          >
            {t("rdd.dupliquer")}
          </button>
        )}
      />
    </div>
  );
}
