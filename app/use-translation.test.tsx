import i18next, { type i18n as I18n } from "i18next";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { describe, expect, test } from "vitest";
import { AppDialog, mountedOnceOpened } from "./components/dialog";
import { markFixed, useTranslation } from "./use-translation";

async function instance(fixed: boolean, text = "Bonjour"): Promise<I18n> {
  const i18n = i18next.createInstance();
  if (fixed) markFixed(i18n);
  await i18n.use(initReactI18next).init({
    lng: "fr",
    initAsync: false,
    interpolation: { escapeValue: false },
    resources: { fr: { translation: { hello: text, named: "Bonjour {{name}}" } } },
  });
  return i18n;
}

describe("useTranslation on the server (issue 10)", () => {
  test("every component gets the same t and instance; plain keys and options translate as i18next does", async () => {
    const i18n = await instance(true);
    const seen: unknown[] = [];
    function Piece() {
      const { t, i18n: used } = useTranslation();
      seen.push(t, used);
      return (
        <p>
          {t("hello")} {t("named", { name: "Anne" })} {t("missing.key")}
        </p>
      );
    }
    const html = renderToString(
      <I18nextProvider i18n={i18n}>
        <Piece />
        <Piece />
      </I18nextProvider>,
    );
    expect(html).toBe("<p>Bonjour<!-- --> <!-- -->Bonjour Anne<!-- --> <!-- -->missing.key</p>".repeat(2));
    expect(seen[0]).toBe(seen[2]);
    expect(seen[1]).toBe(i18n);
  });

  test("an instance not marked fixed is asked each time (its resources may change)", async () => {
    const i18n = await instance(false);
    function Piece() {
      const { t } = useTranslation();
      return <p>{t("hello")}</p>;
    }
    const render = () =>
      renderToString(
        <I18nextProvider i18n={i18n}>
          <Piece />
        </I18nextProvider>,
      );
    expect(render()).toContain("Bonjour");
    i18n.addResource("fr", "translation", "hello", "Salut");
    expect(render()).toContain("Salut");
  });
});

describe("dialogs rendered from their first opening on (issue 10)", () => {
  test("a closed dialog renders nothing and its content is not called; an open one renders", async () => {
    const i18n = await instance(true);
    let calls = 0;
    const Content = mountedOnceOpened(({ open }: { open: boolean }) => {
      calls++;
      return (
        <AppDialog open={open} title="Titre" testId="probe">
          corps
        </AppDialog>
      );
    });
    const closed = renderToString(
      <I18nextProvider i18n={i18n}>
        <Content open={false} />
      </I18nextProvider>,
    );
    expect(closed).toBe("");
    expect(calls).toBe(0);
    const bare = renderToString(
      <I18nextProvider i18n={i18n}>
        <AppDialog open={false} title="Titre">
          corps
        </AppDialog>
      </I18nextProvider>,
    );
    expect(bare).toBe("");
  });
});

describe("one translation hook", () => {
  test("no screen or component takes useTranslation from react-i18next directly (the server's cached one is ~/use-translation)", async () => {
    const { readdirSync, readFileSync, statSync } = await import("node:fs");
    const { join } = await import("node:path");
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(p);
      }
    };
    walk("app");
    const direct = files.filter(
      (f) => f !== join("app", "use-translation.ts") && /import\s*\{[^}]*\buseTranslation\b[^}]*\}\s*from\s*"react-i18next"/.test(readFileSync(f, "utf8")),
    );
    expect(direct).toEqual([]);
  });
});
