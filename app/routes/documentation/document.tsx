import { useTranslation } from "~/use-translation";
import { useLocation } from "react-router";

export const handle = { hideNavbar: true };

/** Each documentation route shows its PDF in the current locale: public/docs/<locale>/<name>.pdf (spec 1 §2). */
export function documentUrl(base: string, locale: string, name: string) {
  return `${base}docs/${locale === "en" ? "en" : "fr"}/${name}.pdf`;
}

export default function DocumentationPage() {
  const { t, i18n } = useTranslation();
  const name = useLocation().pathname.split("/").filter(Boolean).at(-1) ?? "notice";
  const url = documentUrl(import.meta.env.BASE_URL, i18n.language, name);
  return (
    <section className="flex h-full flex-col" data-testid={`doc-${name}`}>
      <div className="mb-2 flex items-center justify-between">
        <h1 className="text-xl font-semibold text-sillon-800">{t(`doc.${name}`)}</h1>
        <a href={url} target="_blank" rel="noopener" className="text-sm text-sillon-700 underline">
          {t("doc.open")}
        </a>
      </div>
      <iframe
        key={url}
        title={t(`doc.${name}`)}
        src={url}
        data-testid="doc-frame"
        className="min-h-[75vh] w-full flex-1 rounded border border-stone-300 bg-white"
      />
    </section>
  );
}
