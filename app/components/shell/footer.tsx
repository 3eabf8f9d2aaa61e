import { useTranslation } from "~/use-translation";
import { Link } from "react-router";
import { parisYear } from "../format";
import { VERSION_DATE } from "./menus";

/** Footer (spec 1 §2): year, version date, legal link, the API documentation (issue 26); outside production an environment label and an orange bar. */
export function Footer({ appEnv, year = parisYear() }: { appEnv: string | null; year?: number }) {
  const { t } = useTranslation();
  return (
    <footer data-testid="app-footer" className="border-t border-stone-200 bg-white text-xs text-stone-600">
      {appEnv ? <div data-testid="env-bar" className="h-1.5 bg-orange-500" /> : null}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2">
        <span data-testid="footer-copyright">© {year} Sillon</span>
        <span data-testid="footer-version">{t("shell.footer.version", { date: VERSION_DATE })}</span>
        <Link to="/mentions-legales" className="underline hover:text-sillon-700">
          {t("shell.footer.legal")}
        </Link>
        <Link to="/api/docs" className="underline hover:text-sillon-700" data-testid="footer-api-docs">
          {t("api-docs.lien-pied")}
        </Link>
        {appEnv ? (
          <span data-testid="env-label" className="rounded bg-orange-500 px-2 py-0.5 font-semibold text-white">
            {t("shell.footer.environment", { env: appEnv })}
          </span>
        ) : null}
      </div>
    </footer>
  );
}
