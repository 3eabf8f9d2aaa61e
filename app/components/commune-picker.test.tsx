import i18next, { type i18n as I18n } from "i18next";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, test } from "vitest";
import { resources } from "~/locales";
import { CommuneSelect, type CommuneOption } from "./commune-picker";
import { PendingOption } from "./pending-option";

let i18n: I18n;
beforeAll(async () => {
  i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ resources, lng: "fr", fallbackLng: "fr", initAsync: false, interpolation: { escapeValue: false } });
});

const render = (element: ReactNode) => renderToString(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
const eureEtLoir = { numDept: "28", lbl: "Eure-et-Loir" };
const communes: CommuneOption[] = [
  { ci: "28085", cp: "28000", codesPostaux: ["28000"], lbl: "Chartres" },
  { ci: "28035", cp: "28630", codesPostaux: ["28630"], lbl: "Berchères-les-Pierres" },
];
const selected = (html: string) => [...html.matchAll(/<option[^>]*value="([^"]*)"[^>]*selected=""/g)].map((m) => m[1]);
const base = { departement: eureEtLoir, onChoose: () => {}, label: "Commune", selectProps: { id: "c", name: "codeInsee" } };

describe("CommuneSelect", () => {
  test("[issue10-9] [B-MAP-01] while the department's communes load, the stored commune stays chosen and is sent", () => {
    const html = render(<CommuneSelect {...base} communes={[]} loading value="28035" storedLabel="Berchères-les-Pierres" />);
    expect(selected(html)).toEqual(["28035"]);
    expect(html).toContain(">Berchères-les-Pierres</option>");
    expect(html).not.toMatch(/<select[^>]*disabled/);
    expect(html).toContain('aria-busy="true"');
  });

  test("[issue10-9] [B-MAP-02] once they arrive, the stored commune is chosen among them (no second option)", () => {
    const html = render(<CommuneSelect {...base} communes={communes} loading={false} value="28035" storedLabel="Berchères-les-Pierres" />);
    expect(selected(html)).toEqual(["28035"]);
    expect(html.match(/value="28035"/g)).toHaveLength(1);
  });

  test("[issue10-9] a start value given as defaultValue (conform's select props) is kept the same way", () => {
    const html = render(<CommuneSelect {...base} communes={[]} loading selectProps={{ id: "c", name: "codeInsee", defaultValue: "28085" }} />);
    expect(selected(html)).toEqual(["28085"]);
  });

  test("[issue10-9] a picker disabled for want of a department still sends its commune; a read-only one does not", () => {
    const html = render(<CommuneSelect {...base} departement={null} communes={[]} loading={false} value="28085" />);
    expect(html).toMatch(/<select[^>]*disabled/);
    expect(html).toContain('<input type="hidden" name="codeInsee" value="28085"/>');
    const readOnly = render(
      <CommuneSelect {...base} communes={communes} loading={false} value="28085" selectProps={{ id: "c", name: "codeInsee", disabled: true }} />,
    );
    expect(readOnly).not.toContain('type="hidden"');
  });
});

describe("PendingOption (every dependent select: insurance output type, crop qualifier)", () => {
  test("[issue10-9] keeps the chosen value as an option while the options load, and adds nothing once it is offered", () => {
    const loading = renderToString(
      <select value="7" onChange={() => {}}>
        <option value="">…</option>
        <PendingOption value="7" offered={null} label="Chargement" />
      </select>,
    );
    expect(selected(loading)).toEqual(["7"]);
    const loaded = renderToString(
      <select value="7" onChange={() => {}}>
        <option value="">…</option>
        <PendingOption value="7" offered={[{ id: 7 }]} label="Chargement" />
        <option value="7">Grain</option>
      </select>,
    );
    expect(loaded.match(/value="7"/g)).toHaveLength(1);
    expect(renderToString(<PendingOption value="" offered={null} label="x" />)).toBe("");
  });
});
