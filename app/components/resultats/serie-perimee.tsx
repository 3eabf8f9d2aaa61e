import { useTranslation } from "~/use-translation";

/**
 * The out-of-date marker of a calculation series (decision 0072): its campaign's data changed after the calculation,
 * so the adviser knows to calculate again. Shown on the calculation screen and the published-indicators screen.
 */
export function SeriePerimee() {
  const { t } = useTranslation();
  return (
    <span
      className="mt-0.5 block w-fit max-w-48 whitespace-normal rounded bg-amber-100 px-1 text-xs text-amber-900"
      title={t("calcul-serie.perimee-aide")}
      data-testid="serie-perimee"
    >
      {t("calcul-serie.perimee")}
      <span className="sr-only"> — {t("calcul-serie.perimee-aide")}</span>
    </span>
  );
}
