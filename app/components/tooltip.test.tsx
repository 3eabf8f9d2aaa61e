import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { Tooltip, TOOLTIP_DELAY_MS, TOOLTIP_MAX_WIDTH } from "./tooltip";

describe("tooltip", () => {
  test("[A-CONST-04] a tooltip is at most 300 wide, and describes its target", () => {
    const html = renderToString(
      <Tooltip text="Aide">
        <button type="button">?</button>
      </Tooltip>,
    );
    expect(TOOLTIP_MAX_WIDTH).toBe(300);
    expect(html).toContain("max-width:300px");
    expect(html).toMatch(/role="tooltip"[^>]*hidden=""/);
    const id = /id="([^"]+)" role="tooltip"/.exec(html)?.[1];
    expect(html).toContain(`aria-describedby="${id}"`);
  });

  test("[A-CONST-05] a tooltip appears after a 200 ms delay", () => {
    expect(TOOLTIP_DELAY_MS).toBe(200);
  });
});
