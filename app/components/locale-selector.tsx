import { useState } from "react";
import { useTranslation } from "~/use-translation";
import { isLocale, LOCALE_RELOAD_DELAY_MS, LOCALE_STORAGE_KEY, type Locale } from "~/locales";

const SYNC_ATTEMPT_KEY = "locale-sync-attempt";

/**
 * Keeps the browser's stored choice and the server's cookie in step: a choice stored in localStorage
 * wins (it is the user's), so a browser whose cookie was lost gets its language back.
 */
export function syncStoredLocale(current: Locale, available: Locale[]): void {
  const stored = window.localStorage.getItem(LOCALE_STORAGE_KEY);
  // One reload per tab and locale: if the server still answers in another language after the
  // reload (cookie refused or shadowed), the server's language is kept instead of reloading forever.
  // The attempt counts only once the server took the choice: a request cut short by leaving the
  // page is tried again on the next one.
  const attempted = window.sessionStorage.getItem(SYNC_ATTEMPT_KEY);
  if (isLocale(stored) && stored !== current && available.includes(stored) && attempted !== stored) {
    void fetch(`${import.meta.env.BASE_URL}locale`, { method: "POST", body: new URLSearchParams({ locale: stored }) })
      .then((r) => {
        if (!r.ok) return;
        window.sessionStorage.setItem(SYNC_ATTEMPT_KEY, stored);
        window.location.reload();
      })
      .catch(() => undefined);
    return;
  }
  window.sessionStorage.removeItem(SYNC_ATTEMPT_KEY);
  window.localStorage.setItem(LOCALE_STORAGE_KEY, current);
}

/** Language selector (spec 1 §4): warns, stores the choice, reloads after 3 s. */
export function LocaleSelector({ locales, compact = false }: { locales: Locale[]; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const [pending, setPending] = useState<Locale | null>(null);

  function choose(locale: Locale) {
    if (locale === i18n.language || pending) return;
    setPending(locale);
    window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
    // A plain request, not a fetcher: a fetcher would revalidate the page in the new language at once,
    // and the warning must stay in the language the user reads until the reload.
    void fetch(`${import.meta.env.BASE_URL}locale`, { method: "POST", body: new URLSearchParams({ locale }) });
    setTimeout(() => window.location.reload(), LOCALE_RELOAD_DELAY_MS);
  }

  return (
    <div className="relative">
      <label className={compact ? "sr-only" : "field-label"} htmlFor="locale-select">
        {t("shell.locale")}
      </label>
      <select
        id="locale-select"
        data-testid="locale-select"
        className="rounded border border-stone-300 bg-white px-2 py-1 text-sm text-stone-900 max-sm:h-10"
        value={pending ?? i18n.language}
        onChange={(e) => choose(e.target.value as Locale)}
        disabled={pending !== null}
      >
        {locales.map((l) => (
          <option key={l} value={l}>
            {t(`locale.${l}`)}
          </option>
        ))}
      </select>
      {pending ? (
        <p
          role="status"
          data-testid="locale-warning"
          className="absolute right-0 top-full z-50 mt-1 w-72 rounded bg-amber-100 px-3 py-2 text-sm text-amber-900 shadow"
        >
          {t("locale.change-warning")}
        </p>
      ) : null}
    </div>
  );
}
