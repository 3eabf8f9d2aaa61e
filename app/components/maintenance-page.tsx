import { useTranslation } from "~/use-translation";

export function MaintenancePage({ supportEmail }: { supportEmail: string }) {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-full items-center justify-center p-8" data-testid="maintenance-page">
      <div className="card max-w-lg text-center">
        <h1 className="text-2xl font-semibold text-sillon-800">{t("maintenance.title")}</h1>
        <p className="mt-3">{t("maintenance.text")}</p>
        <p className="mt-3">
          {t("maintenance.support", { email: "" })}
          <a className="text-sillon-700 underline" href={`mailto:${supportEmail}`}>
            {supportEmail}
          </a>
        </p>
      </div>
    </main>
  );
}
