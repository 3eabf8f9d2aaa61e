import i18next from "i18next";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { describe, expect, test } from "vitest";
import { resources } from "~/locales";
import { InterventionSchema } from "~/domain/intervention";
import { optionalNumber, requiredNumber } from "~/domain/validation";
import { boundsMessage } from "./bounds";
import { Field } from "./field";

async function say(lng: "fr" | "en", key: string, field: Parameters<typeof boundsMessage>[0]) {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng, initAsync: false, interpolation: { escapeValue: false }, resources });
  const m = boundsMessage(field, key, lng);
  return i18n.t(m.key, m.params);
}

describe("a refused bound names the bounds (issue 29)", () => {
  test("out of bounds says between which values, in French and in English", async () => {
    const taux = requiredNumber({ min: 0, max: 100 });
    expect(await say("fr", "warning.minmax", taux)).toBe("Valeur hors des bornes : entre 0 et 100");
    expect(await say("en", "warning.minmax", taux)).toBe("Value out of bounds: between 0 and 100");
    expect(await say("fr", "warning.min", optionalNumber({ min: 0.5 }))).toBe("Valeur trop petite (au moins 0,5)");
    expect(await say("en", "warning.min", optionalNumber({ min: 0.5 }))).toBe("Value too small (at least 0.5)");
  });

  test("a message of another kind, or a field without bounds, is said as it is", async () => {
    expect(boundsMessage(requiredNumber({ min: 0, max: 1 }), "warning.numeric", "fr")).toEqual({ key: "warning.numeric" });
    expect(boundsMessage(undefined, "warning.minmax", "fr")).toEqual({ key: "warning.minmax" });
    expect(await say("fr", "warning.minmax", undefined)).toBe("Valeur hors des bornes");
  });

  test("a form's field says the bounds of its schema: the intervention's surface rate", async () => {
    for (const [lng, text] of [
      ["fr", "Valeur hors des bornes : entre 0 et 99,9999"],
      ["en", "Value out of bounds: between 0 and 99.9999"],
    ] as const) {
      const i18n = i18next.createInstance();
      await i18n.use(initReactI18next).init({ lng, initAsync: false, interpolation: { escapeValue: false }, resources });
      const html = renderToString(
        <I18nextProvider i18n={i18n}>
          <Field id="taux" label="Taux" errors={["warning.minmax"]} bounds={InterventionSchema.shape.tauxSurface}>
            <input id="taux" />
          </Field>
        </I18nextProvider>,
      );
      expect(html).toContain(text);
    }
  });
});
