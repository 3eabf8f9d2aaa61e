import i18next from "i18next";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import type { ReactNode } from "react";
import { describe, expect, test } from "vitest";
import { fallbackLng, resources } from "~/locales";
import { GridStatus, GridToolbar } from "./grid-view";

const i18n = i18next.createInstance();
void i18n.init({ lng: "fr", resources, fallbackLng, interpolation: { escapeValue: false }, initAsync: false });
const html = (node: ReactNode) => renderToString(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);
const none = () => {};
const toolbar = {
  readOnly: false,
  count: 2,
  saving: false,
  canSave: true,
  canUndo: true,
  canRedo: false,
  onSave: none,
  onCancel: none,
  onUndo: none,
  onRedo: none,
};

describe("the grid's toolbar and status line", () => {
  test("[issue11-grid] a read-only grid shows its note and no button", () => {
    const out = html(<GridToolbar {...toolbar} readOnly />);
    expect(out).not.toContain("grid-save");
    expect(out).not.toContain("<button");
  });

  test("[issue11-grid] save waits for changes and for the screen's save; add a row only where the grid takes rows", () => {
    expect(html(<GridToolbar {...toolbar} />)).not.toContain("grid-add-row");
    expect(html(<GridToolbar {...toolbar} onAddRow={none} />)).toContain("grid-add-row");
    expect(html(<GridToolbar {...toolbar} count={0} />)).toMatch(/disabled=""[^>]*data-testid="grid-save"/);
    expect(html(<GridToolbar {...toolbar} canSave={false} />)).toMatch(/disabled=""[^>]*data-testid="grid-save"/);
    expect(html(<GridToolbar {...toolbar} />)).not.toMatch(/disabled=""[^>]*data-testid="grid-save"/);
  });

  test("[issue11-grid] the cursor's cell error comes first, then its note, then the invalid count, then the message", () => {
    const cell = { row: 3, column: "Date" };
    expect(html(<GridStatus cell={cell} error="warning.date" note="warning.required" invalidCount={1} message="m" />)).toContain("Date invalide");
    expect(html(<GridStatus cell={cell} error={undefined} note="warning.required" invalidCount={1} message="m" />)).toContain("Champ requis");
    expect(html(<GridStatus cell={undefined} error="warning.date" note={undefined} invalidCount={0} message="enregistré" />)).toContain("enregistré");
  });
});
