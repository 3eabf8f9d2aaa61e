import i18next from "i18next";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { describe, expect, test } from "vitest";
import { resources } from "~/locales";
import { CultureOptions, type CultureOption } from "./crop-rows";

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ resources, lng: "en", initAsync: false, interpolation: { escapeValue: false } });

const crop = (id: number, libelle: string, libelleEn: string, famille: string | null): CultureOption => ({
  id,
  libelle,
  libelleEn,
  famille,
  idCatCulture: null,
});

describe("crop picker options", () => {
  test("crops are grouped by family in the reference order; crops without a family come last under their own heading", () => {
    const html = renderToString(
      <I18nextProvider i18n={i18n}>
        <select>
          <CultureOptions
            cultures={[
              crop(99, "Blé maison", "Home wheat", null),
              crop(1, "Blé tendre d'hiver", "Winter soft wheat", "Céréales à paille"),
              crop(20, "Colza d'hiver", "Winter rapeseed", "Oléagineux"),
            ]}
          />
        </select>
      </I18nextProvider>,
    );
    const labels = [...html.matchAll(/<optgroup label="([^"]*)"/g)].map((m) => m[1]);
    expect(labels).toEqual(["Small-grain cereals", "Oilseeds", "Other crops"]);
    expect(html.indexOf("Home wheat")).toBeGreaterThan(html.indexOf("Winter rapeseed"));
  });
});
