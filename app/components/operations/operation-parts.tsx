import type { ReactNode } from "react";
import { useTranslation } from "~/use-translation";
import { formatNumber, numberText } from "~/components/farm-form";
import { isSelfPropelled, suffixedLibelle, type TypePropriete } from "~/domain/calc/materiel";
import { DECIMALES, UNITES_OPERATION, type CoutsOperation } from "~/domain/calc/operation";
import type { Machine } from "./types";

/* The pieces of the cultural operation form (spec 2 §2, §3; B-OPS): figures, a warning, and the two read-only tables. */

export const dash = "—";
/** Fuel use is shown to 2 decimals (B-OPS-23): "20,50", not "20,5". */
export const fuelText = (v: number | null | undefined, lang: string) => formatNumber(v, lang, DECIMALES.carburant, DECIMALES.carburant);
/** A stored share (0 to 1) as the form shows it, in percent. */
export const percentText = (share: number | null | undefined, lang: string) => numberText(share == null ? null : Math.round(share * 10_000) / 100, lang);
/** The ids of a multiple choice as conform holds it (one value, a list, or nothing). */
export const ids = (v: unknown): number[] => (Array.isArray(v) ? v : v == null || v === "" ? [] : [v]).map(Number).filter((n) => Number.isInteger(n) && n > 0);

/** A read-only figure of the form (reference values): label, value and an optional note. */
export function Output({
  id,
  label,
  value,
  help,
  testId,
  aside,
}: {
  id: string;
  label: ReactNode;
  value: ReactNode;
  help?: ReactNode;
  testId: string;
  aside?: ReactNode;
}) {
  return (
    <div className="mb-3">
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <div className="mt-1 flex min-h-[2.125rem] items-center gap-2 rounded border border-dashed border-stone-300 bg-stone-50 px-2 py-1.5 text-sm">
        <output aria-labelledby={`${id}-label`} className="font-medium tabular-nums" data-testid={testId}>
          {value}
        </output>
        {aside}
      </div>
      {help ? <p className="mt-1 text-xs text-stone-500">{help}</p> : null}
    </div>
  );
}

/** The red warning of B-OPS-24: a focusable icon whose tooltip says the reference changed since the load. */
export function ChangedWarning({ text }: { text: string }) {
  return (
    <span className="group relative ml-auto inline-flex" data-testid="conso-changed">
      <span
        tabIndex={0}
        role="img"
        aria-label={text}
        className="inline-flex h-5 w-5 cursor-help items-center justify-center rounded-full bg-red-700 text-xs font-bold text-white outline-none focus-visible:ring-2 focus-visible:ring-red-400"
      >
        !
      </span>
      <span
        role="tooltip"
        className="pointer-events-none invisible absolute right-0 bottom-full z-20 mb-1 w-64 rounded bg-red-700 px-2 py-1 text-xs text-white shadow group-hover:visible group-focus-within:visible"
      >
        {text}
      </span>
    </span>
  );
}

/** The read-only calculated costs of the saved operation (B-OPS-07), refreshed after each save (B-OPS-10). */
export function CostsTable({ calcul }: { calcul: CoutsOperation | null }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const lines: [keyof CoutsOperation, string, number][] = [
    ["chargesMecaTotales", UNITES_OPERATION.charges, DECIMALES.euros],
    ["chargesFixes", UNITES_OPERATION.charges, DECIMALES.euros],
    ["chargesEntretienLocation", UNITES_OPERATION.charges, DECIMALES.euros],
    ["chargesCarburant", UNITES_OPERATION.charges, DECIMALES.euros],
    ["consoNRJPrimaireCarburant", UNITES_OPERATION.energie, DECIMALES.energie],
    ["EGESCarburant", UNITES_OPERATION.ges, DECIMALES.ges],
  ];
  const missing = calcul?.manquants.map((m) => {
    const [kind, name, field] = m.split(":");
    return kind === "materiel" ? `${name} (${t(`operation.missing.${field}`)})` : t(`operation.missing.${kind}`);
  });
  return (
    <section className="rounded border border-sillon-100 bg-sillon-50 p-3" aria-labelledby="oc-costs-title" data-testid="operation-costs">
      <h3 id="oc-costs-title" className="mb-2 text-sm font-semibold text-sillon-800">
        {t("operation.costs-title")}
      </h3>
      {calcul ? (
        <table className="w-full text-sm">
          <thead className="sr-only">
            <tr>
              <th scope="col">{t("operation.costs-title")}</th>
              <th scope="col">{t("operation.costs-value")}</th>
              <th scope="col">{t("operation.costs-unit")}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map(([key, unit, digits]) => {
              const sub = key === "chargesFixes" || key === "chargesEntretienLocation" || key === "chargesCarburant";
              return (
                <tr key={key} className="border-b border-sillon-100 last:border-b-0">
                  <th scope="row" className={`py-1 text-left font-normal ${sub ? "pl-4 text-stone-600" : "text-stone-800"}`}>
                    {t(`operation.costs.${key}`)}
                  </th>
                  <td className="py-1 text-right font-medium tabular-nums" data-testid={`cost-${key}`}>
                    {formatNumber(calcul[key] as number, lang, digits)}
                  </td>
                  <td className="w-32 py-1 pl-2 text-stone-600">{unit}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : (
        <p className="text-sm text-stone-600">{t("operation.costs-after-save")}</p>
      )}
      {missing?.length ? (
        <p className="mt-2 text-xs text-amber-800" data-testid="costs-missing">
          {t("operation.costs-missing", { champs: missing.join(", ") })}
        </p>
      ) : null}
    </section>
  );
}

/**
 * The chosen tractor and towed equipment (B-OPS-08), with their cost per hour and their charges per hectare at
 * the operation's effective work rate (the whole chain works at that rate, D-OP-4).
 */
export function EquipmentTable({ tractant, tractes, eta, debit }: { tractant: Machine | null; tractes: Machine[]; eta: boolean; debit: number | null }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const rows: [string, Machine][] = [
    ...(tractant ? [[isSelfPropelled(tractant) ? "automoteur" : "tracteur", tractant] as [string, Machine]] : []),
    ...tractes.map((m) => ["tracte", m] as [string, Machine]),
  ];
  return (
    <section aria-labelledby="oc-equipment-title" data-testid="operation-equipment">
      <h3 id="oc-equipment-title" className="mb-2 text-sm font-semibold text-sillon-800">
        {t("operation.equipment-title")}
      </h3>
      {rows.length ? (
        <div className="overflow-x-auto rounded border border-stone-200">
          <table className="w-full text-sm">
            <thead className="bg-stone-50 text-stone-700">
              <tr>
                <th scope="col" className="px-2 py-1.5 text-left font-medium">
                  {t("operation.equipment-role")}
                </th>
                <th scope="col" className="px-2 py-1.5 text-left font-medium">
                  {t("operation.equipment-libelle")}
                </th>
                <th scope="col" className="px-2 py-1.5 text-left font-medium">
                  {t("operation.equipment-propriete")}
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  {t("operation.equipment-puissance")}
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  {t("operation.equipment-debit")}
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  {t("operation.equipment-cout-horaire")}
                </th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">
                  {t("operation.equipment-charges")}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([role, m]) => (
                <tr key={`${role}-${m.id}`} className="border-t border-stone-200" data-testid={`equipment-${m.id}`}>
                  <td className="px-2 py-1">{t(`operation.equipment-${role}`)}</td>
                  <td className="px-2 py-1">{suffixedLibelle(m.libelle, m.typePropriete as TypePropriete, eta)}</td>
                  <td className="whitespace-nowrap px-2 py-1">{t(`operation.proprietes.${m.typePropriete}`)}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{m.puissance ? formatNumber(m.puissance, lang, 0) : dash}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{m.debit != null ? formatNumber(m.debit, lang, 3) : dash}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{m.coutHoraire != null ? formatNumber(m.coutHoraire, lang, 2) : dash}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{m.coutHoraire != null && debit ? formatNumber(m.coutHoraire / debit, lang, 2) : dash}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="text-sm text-stone-600">{t("operation.equipment-none")}</p>
      )}
    </section>
  );
}
