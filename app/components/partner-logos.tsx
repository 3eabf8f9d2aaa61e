import { useTranslation } from "~/use-translation";

const LOGOS = [
  { file: "sillon.svg", alt: "Sillon" },
  { file: "reseau-demo.svg", alt: "Réseau démo" },
  { file: "partenaire-technique.svg", alt: "Partenaire technique" },
];

/** Partner logos of the login footer: static files under public/logos, replaceable by a host. */
export function PartnerLogos() {
  const { t } = useTranslation();
  return (
    <footer data-testid="partner-logos" className="mt-8 border-t border-stone-200 pt-4">
      <p className="mb-2 text-center text-xs uppercase tracking-wide text-stone-500">{t("login.partners")}</p>
      <ul className="flex flex-wrap items-center justify-center gap-6">
        {LOGOS.map((l) => (
          <li key={l.file}>
            <img src={`${import.meta.env.BASE_URL}logos/${l.file}`} alt={l.alt} className="h-10" />
          </li>
        ))}
      </ul>
    </footer>
  );
}
