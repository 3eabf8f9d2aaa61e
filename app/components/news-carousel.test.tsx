import i18next from "i18next";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { describe, expect, test } from "vitest";
import { resources } from "~/locales";
import { formatDate, NewsCarousel, type Post } from "./news-carousel";

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ resources, lng: "fr", initAsync: false, interpolation: { escapeValue: false } });

const post = (id: number, title: string, creationDate: string): Post => ({
  id,
  title,
  content: `Texte ${id}`,
  creationDate,
  postCategory: "actualite",
  image: null,
});

describe("news carousel", () => {
  test("[A-CONST-11] dates display as day/month/year", () => {
    // Noon UTC: the same calendar day in every time zone the app runs in.
    expect(formatDate("2025-09-23T12:00:00Z")).toBe("23/09/2025");
    expect(formatDate("2024-01-05T12:00:00Z")).toBe("05/01/2024");
    // The day is the day in France, whatever the machine's zone: server and browser render the same text.
    expect(formatDate("2025-09-23T22:30:00Z")).toBe("24/09/2025");
    expect(formatDate("2025-01-01T00:30:00+02:00")).toBe("31/12/2024");
  });

  test("[A-HOME-03] the carousel shows the first post given, its date, and one dot per post", () => {
    const html = renderToString(
      <I18nextProvider i18n={i18n}>
        <NewsCarousel posts={[post(3, "Récente", "2025-09-20T12:00:00Z"), post(2, "Ancienne", "2025-08-01T12:00:00Z")]} />
      </I18nextProvider>,
    );
    expect(html).toContain('<h3 class="text-base font-semibold">Récente</h3>');
    expect(html).toContain("20/09/2025");
    expect(html).not.toContain("Ancienne");
    expect(html.match(/aria-label="Aller à l&#x27;actualité \d"/g)).toHaveLength(2);
  });

  test("[A-HOME-03] without posts the home page says there is no news", () => {
    const html = renderToString(
      <I18nextProvider i18n={i18n}>
        <NewsCarousel posts={[]} />
      </I18nextProvider>,
    );
    expect(html).toContain("Aucune actualité pour le moment.");
  });
});
