import { useTranslation } from "~/use-translation";
import { useMatches } from "react-router";

/** A screen whose route, guard and menu entry exist, and whose content a later issue builds. */
export default function PendingScreen() {
  const { t } = useTranslation();
  const id = useMatches().at(-1)?.id ?? "";
  const name = id.replace(/^screen\./, "");
  return (
    <section data-testid={`screen-${name}`}>
      <h1 className="text-xl font-semibold text-sillon-800">{t(`screen.${name}`)}</h1>
      <p className="mt-2 text-sm text-stone-600">{t("screen.pending")}</p>
    </section>
  );
}
