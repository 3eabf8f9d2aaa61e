import { useTranslation } from "~/use-translation";
import { type DataTableColumn } from "~/components/data-table";
import { formatNumber, refLabel } from "~/components/farm-form";
import { ListScreen, listScreenShouldRevalidate } from "~/components/list-screen";
import { OperationForm } from "~/components/operations/operation-form";
import { fuelText } from "~/components/operations/operation-parts";
import type { OperationRow, OperationsData } from "~/components/operations/types";
import { DECIMALES, UNITES_OPERATION, roundFuel } from "~/domain/calc/operation";
import { OperationCulturaleSchema } from "~/domain/operation-culturale";
import { deleteIntent, saveIntent, queryId, queryNumber, screenAction, screenLoader } from "#server/http/route.server";
import {
  getConsoCarburantReference,
  getOperationsCulturales,
  removeOperationsCulturales,
  saveOperationCulturale,
} from "#server/operation-culturale/service.server";
import type { Route } from "./+types/operations-culturales";

/**
 * Cultural operations (spec 2 §2 "Cultural operations", §3 Cultural operation, §4 form rules, §5, §6, §7;
 * B-OPS). The loader also answers the fuel-use reference: with ?conso_carburant&id_type_action=&debit=
 * &puissance=&profondeur_travail= it gives only { consoCarburant } (the spec's GET
 * calculs/indicateurs/conso_carburant, B-OPS-22), computed on the server from reference_conso_carburant.
 * The form and its pieces are in app/components/operations/.
 */
/** Selecting a row changes only ?id=: the screen's data are not loaded again. */
export const shouldRevalidate = listScreenShouldRevalidate;

export const loader = screenLoader(async ({ scope, query }) => {
  if (query.has("conso_carburant")) {
    const n = (name: string) => queryNumber(query, name);
    const entree = { idTypeAction: queryId(query, "id_type_action"), debit: n("debit"), puissance: n("puissance"), profondeurTravail: n("profondeur_travail") };
    return { kind: "conso_carburant" as const, ...(await getConsoCarburantReference(scope, entree)) };
  }
  return { kind: "screen" as const, ...(await getOperationsCulturales(scope)) };
});

export const action = screenAction(
  {
    save: saveIntent(OperationCulturaleSchema, ({ scope }, value, edit) => saveOperationCulturale(scope, value, edit)),
    delete: deleteIntent(({ scope }, ids) => removeOperationsCulturales(scope, ids)),
  },
  { gate: "campaign" },
);

function Screen({ data }: { data: OperationsData }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const types = new Map(data.typesAction.map((ty) => [ty.id, ty]));
  const n = (v: number | null | undefined, digits: number) => (v == null ? "" : formatNumber(v, lang, digits));
  const columns: DataTableColumn<OperationRow>[] = [
    { id: "libelle", header: t("operation.libelle"), cell: (r) => r.libelle, sortValue: (r) => r.libelle, alwaysVisible: true },
    {
      id: "type",
      header: t("operation.idTypeAction"),
      cell: (r) => {
        const ty = types.get(r.idTypeAction);
        return ty ? refLabel(ty, lang) : "";
      },
      sortValue: (r) => r.idTypeAction,
      alwaysVisible: true,
    },
    {
      id: "chargesMecaTotales",
      header: `${t("operation.costs.chargesMecaTotales")} (${UNITES_OPERATION.charges})`,
      cell: (r) => n(r.calcul.chargesMecaTotales, DECIMALES.euros),
      sortValue: (r) => r.calcul.chargesMecaTotales,
      align: "right",
    },
    {
      id: "consoCarburantReelle",
      header: t("operation.consoCarburantReelle", { unite: UNITES_OPERATION.carburant }),
      cell: (r) => fuelText(r.consoCarburantReelle, lang),
      sortValue: (r) => r.consoCarburantReelle,
      align: "right",
    },
    {
      id: "consoCarburantCalculee",
      header: t("operation.consoCarburantCalculee", { unite: UNITES_OPERATION.carburant }),
      cell: (r) => fuelText(roundFuel(r.consoCarburantCalculee), lang),
      sortValue: (r) => r.consoCarburantCalculee,
      align: "right",
    },
    {
      id: "debitIrrigation",
      header: t("operation.debitIrrigation", { unite: UNITES_OPERATION.debitIrrigation }),
      cell: (r) => n(r.debitIrrigation, 2),
      sortValue: (r) => r.debitIrrigation,
      align: "right",
      optional: true,
    },
    {
      id: "debitReel",
      header: t("operation.debitReel", { unite: UNITES_OPERATION.debit }),
      cell: (r) => n(r.debitReel, DECIMALES.debit),
      sortValue: (r) => r.debitReel,
      align: "right",
    },
    {
      id: "debitCalcule",
      header: t("operation.debitCalcule", { unite: UNITES_OPERATION.debit }),
      cell: (r) => n(r.debitCalcule, DECIMALES.debit),
      sortValue: (r) => r.debitCalcule,
      align: "right",
    },
    {
      id: "eta",
      header: t("operation.workforce"),
      cell: (r) => (r.eta ? t("operation.workforce-externe") : t("operation.workforce-exploitation")),
      sortValue: (r) => (r.eta ? 1 : 0),
    },
    {
      id: "profondeurTravail",
      header: t("operation.profondeurTravail"),
      cell: (r) => n(r.profondeurTravail, 2),
      sortValue: (r) => r.profondeurTravail,
      align: "right",
      optional: true,
    },
    {
      id: "proportionSurfaceTravaillee",
      header: t("operation.proportionSurfaceTravaillee", { unite: "%" }),
      cell: (r) => n(r.proportionSurfaceTravaillee == null ? null : r.proportionSurfaceTravaillee * 100, 2),
      sortValue: (r) => r.proportionSurfaceTravaillee,
      align: "right",
      optional: true,
    },
  ];
  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <ListScreen
        tableId="operations_culturales"
        title={t("screen.operations_culturales")}
        label={t("screen.operations_culturales")}
        rows={data.rows}
        columns={columns}
        getRowId={(r) => r.id}
        renderForm={(row, controls) => <OperationForm row={row} data={data} controls={controls} />}
      />
    </div>
  );
}

export default function OperationsCulturalesScreen({ loaderData }: Route.ComponentProps) {
  return loaderData.kind === "screen" ? <Screen data={loaderData} /> : null;
}
