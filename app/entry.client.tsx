import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { nameShownCampaignOnWrites } from "~/components/shell/shown-campaign";
import { fallbackLng, resources } from "~/locales";

async function main() {
  // Every write names the campaign its page showed (decision 0092).
  nameShownCampaignOnWrites(window);
  // The server chose the locale (cookie); the page says which in <html lang>.
  await i18next.use(initReactI18next).init({
    resources,
    lng: document.documentElement.lang || "fr",
    fallbackLng,
    interpolation: { escapeValue: false },
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void main();
