import { useTranslation } from "~/use-translation";
import { openActualisation } from "~/components/shell/actualisation";
import { ExternalIcon } from "~/components/icons";

/** Actualisation is an external page; this route offers to open it with the user's token. */
export default function Actualisation() {
  const { t } = useTranslation();
  return (
    <section data-testid="screen-actualisation">
      <h1 className="text-xl font-semibold text-sillon-800">{t("screen.actualisation")}</h1>
      <button type="button" className="btn-primary mt-3" onClick={openActualisation}>
        <ExternalIcon /> {t("menu.actualisation")}
      </button>
    </section>
  );
}
