import { useTranslation } from "~/use-translation";
import { Link } from "react-router";
import { useRootData } from "~/root";
import { getUser } from "#server/auth/session.server";
import type { Route } from "./+types/mentions-legales";

export async function loader({ request }: Route.LoaderArgs) {
  return { loggedIn: (await getUser(request)) !== null };
}

export function meta() {
  return [{ title: "Sillon – Mentions légales" }];
}

export default function MentionsLegales({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRootData();
  const sections: [string, string][] = [
    ["legal.publisher", "legal.publisher-text"],
    ["legal.officer", "legal.officer-text"],
    ["legal.hosting", "legal.hosting-text"],
    ["legal.design", "legal.design-text"],
    ["legal.rights", "legal.rights-text"],
  ];
  return (
    <main className="mx-auto max-w-3xl p-6" data-testid="legal-notice">
      <h1 className="mb-4 text-2xl font-semibold text-sillon-800">{t("legal.title")}</h1>
      {sections.map(([title, text]) => (
        <section key={title} className="mb-4">
          <h2 className="text-lg font-semibold">{t(title)}</h2>
          <p className="mt-1 text-stone-800">{t(text)}</p>
        </section>
      ))}
      {root ? <p className="text-sm">{t("maintenance.support", { email: root.supportEmail })}</p> : null}
      {loaderData.loggedIn ? (
        <Link to="/home/description/home" className="btn-secondary mt-6">
          {t("shell.home")}
        </Link>
      ) : (
        <Link to="/login" className="btn-secondary mt-6" data-testid="back-to-login">
          {t("legal.back-to-login")}
        </Link>
      )}
    </main>
  );
}
