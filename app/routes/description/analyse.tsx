import { useTranslation } from "~/use-translation";

/** Ground analysis (spec 2 §2): the screen shows its heading only. */
export default function Analyse() {
  const { t } = useTranslation();
  return (
    <section data-testid="screen-analyse">
      <h1 className="text-xl font-semibold text-sillon-800">{t("screen.analyse")}</h1>
    </section>
  );
}
