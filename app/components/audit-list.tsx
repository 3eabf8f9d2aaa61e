import { useTranslation } from "~/use-translation";
import { formatDateTime } from "./format";

export type AuditItem = { id: number; userLabel: string; action: string; createdAt: string; details: Record<string, unknown> };

function summary(details: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of ["libelle", "dossier", "anneeRecolte"]) if (details[key] != null) parts.push(String(details[key]));
  return parts.join(" · ");
}

/** Who changed what and when (audit trail of rights, creations and deletions). */
export function AuditList({ title, items }: { title: string; items: AuditItem[] }) {
  const { t } = useTranslation();
  return (
    <details className="card" data-testid="audit-list">
      <summary className="cursor-pointer font-semibold">{title}</summary>
      {items.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">{t("audit.empty")}</p>
      ) : (
        <table className="mt-2 w-full text-left text-sm">
          <thead>
            <tr className="text-stone-500">
              <th className="py-1">{t("audit.when")}</th>
              <th>{t("audit.who")}</th>
              <th>{t("audit.what")}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <tr key={i.id} className="border-t border-stone-100">
                <td className="py-1 pr-2 whitespace-nowrap">{formatDateTime(i.createdAt)}</td>
                <td className="pr-2">{i.userLabel}</td>
                <td>
                  {t(`audit.${i.action}`)} {summary(i.details) ? <span className="text-stone-500">({summary(i.details)})</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
