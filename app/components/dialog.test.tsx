import type { CSSProperties, ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, test, vi } from "vitest";
import { AppDialog, DIALOG_DEFAULT_WIDTH, DIALOG_MAX_WIDTH } from "./dialog";
import { ERROR_DIALOG_MAX_WIDTH, SNACKBAR_TIMEOUT_MS } from "./feedback";

// Headless UI renders dialogs into a portal, which the server renderer leaves empty: stand-ins render
// the same tree in place, so the panel and its width can be read.
vi.mock("@headlessui/react", () => ({
  Dialog: ({ open, children }: { open: boolean; children: ReactNode }) => (open ? <div role="dialog">{children}</div> : null),
  DialogPanel: ({ children, style, ...rest }: { children: ReactNode; style?: CSSProperties; "data-testid"?: string }) => (
    <section data-testid={rest["data-testid"]} style={style}>
      {children}
    </section>
  ),
  DialogTitle: ({ children }: { children: ReactNode }) => <h2>{children}</h2>,
}));

function panelMaxWidth(html: string): number {
  const m = /<section[^>]*style="max-width:(\d+)px"/.exec(html);
  if (!m) throw new Error(`no panel width in ${html}`);
  return Number(m[1]);
}

describe("AppDialog", () => {
  test("[A-CONST-01] a dialog is 600 wide by default", () => {
    expect(DIALOG_DEFAULT_WIDTH).toBe(600);
    const html = renderToString(
      <AppDialog open title="Titre">
        Contenu
      </AppDialog>,
    );
    expect(panelMaxWidth(html)).toBe(600);
    expect(html).toContain("<h2>Titre</h2>");
    expect(html).toContain("Contenu");
  });

  test("[A-CONST-02] a dialog is at most 900 wide", () => {
    expect(DIALOG_MAX_WIDTH).toBe(900);
    expect(
      panelMaxWidth(
        renderToString(
          <AppDialog open title="T" width={750}>
            x
          </AppDialog>,
        ),
      ),
    ).toBe(750);
    expect(
      panelMaxWidth(
        renderToString(
          <AppDialog open title="T" width={900}>
            x
          </AppDialog>,
        ),
      ),
    ).toBe(900);
    expect(
      panelMaxWidth(
        renderToString(
          <AppDialog open title="T" width={1400}>
            x
          </AppDialog>,
        ),
      ),
    ).toBe(900);
    // Only a screen that says so goes wider (the crop-area dialog of A-CTX-30 is 1000).
    expect(
      panelMaxWidth(
        renderToString(
          <AppDialog open title="T" width={1000} allowWider>
            x
          </AppDialog>,
        ),
      ),
    ).toBe(1000);
  });

  test("[A-CONST-01] a closed dialog renders nothing, and actions render in the footer", () => {
    expect(
      renderToString(
        <AppDialog open={false} title="T">
          x
        </AppDialog>,
      ),
    ).toBe("");
    const html = renderToString(
      <AppDialog open title="T" actions={<button type="button">Ok</button>}>
        x
      </AppDialog>,
    );
    expect(html).toContain('<button type="button">Ok</button>');
  });
});

describe("feedback constants", () => {
  test("[A-ERR-05] the error dialog is at most 500 wide", () => {
    expect(ERROR_DIALOG_MAX_WIDTH).toBeLessThanOrEqual(500);
    expect(
      panelMaxWidth(
        renderToString(
          <AppDialog open title="Erreur" width={ERROR_DIALOG_MAX_WIDTH}>
            x
          </AppDialog>,
        ),
      ),
    ).toBe(500);
  });

  test("[A-ERR-24] a success notice stays 2000 ms", () => {
    expect(SNACKBAR_TIMEOUT_MS).toBe(2000);
  });
});
