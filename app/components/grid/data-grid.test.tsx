import i18next from "i18next";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test } from "vitest";
import { MainOeuvreSchema } from "~/domain/main-oeuvre";
import { fallbackLng, resources } from "~/locales";
import { DataGrid, gridTotalHeight } from "./data-grid";
import { DEFAULT_GRID_HEIGHT, GRID_STATUS_HEIGHT, GRID_TOOLBAR_HEIGHT } from "./types";

const i18n = i18next.createInstance();
void i18n.init({ lng: "fr", resources, fallbackLng, interpolation: { escapeValue: false }, initAsync: false });

describe("DataGrid on the server", () => {
  test("[issue11-grid] renders a named placeholder of the grid's full size (Glide needs the browser), never the grid", () => {
    const html = renderToString(
      <I18nextProvider i18n={i18n}>
        <DataGrid
          tableId="t"
          label="Interventions"
          columns={[{ id: "libelle", kind: "text", title: "Nom" }]}
          rows={[{ id: 1, updatedAt: "2026-01-01T00:00:00.000Z", libelle: "A" }]}
          rowSchema={MainOeuvreSchema}
          height={300}
        />
      </I18nextProvider>,
    );
    expect(html).toContain('data-testid="grid-placeholder"');
    expect(html).toContain('aria-label="Interventions"');
    expect(html).toContain("Chargement du tableau…");
    expect(html).toContain(`height:${GRID_TOOLBAR_HEIGHT + 300 + GRID_STATUS_HEIGHT}px`);
    expect(html).not.toContain("canvas");
    expect(gridTotalHeight()).toBe(GRID_TOOLBAR_HEIGHT + DEFAULT_GRID_HEIGHT + GRID_STATUS_HEIGHT);
  });
});
