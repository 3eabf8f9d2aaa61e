import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { INT_MAX } from "~/domain/validation";
import { postForm } from "../helpers/route-call";
import { demoUser, selectTilleuls } from "../helpers/service";
import { dialect, useTestDb } from "../helpers/test-db";
import type { Intent } from "../../server/http/route.server";
import { routeArgs } from "../../server/http/context.server";

/**
 * Every intent of every screen action takes any input without a 500 (issue 23, decision 0091): fast-check posts
 * random forms (the intent's envelope fields and its form's fields, each absent or any of hostile values: NUL and
 * other control characters, ids of 2^31, dates of year 9999, hex, exponents, broken JSON, random text) to the route's
 * action, as a signed-in writer of a demo campaign, and every answer is a success or a 4xx, on both databases.
 */
const t = useTestDb();

type ScreenAction = ((args: never) => Promise<unknown>) & { intents: Record<string, Intent> };
const modules = import.meta.glob<{ action?: ScreenAction }>("../../app/routes/**/*.{ts,tsx}", { eager: true });
const screens = Object.entries(modules)
  .filter(([, m]) => typeof m.action === "function" && m.action.intents)
  .map(([file, m]) => ({ file: file.replace("../../app/routes/", ""), action: m.action! }));

const RUNS = Number(process.env.INTENT_RUNS ?? 20);

/** The field names of a zod schema (an object, through pipes, unions, optionals and refinements). */
function keysOf(schema: z.ZodType | undefined, depth = 0): string[] {
  if (!schema || depth > 8) return [];
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (def.type === "object") return Object.keys(def.shape as object);
  const inner = [def.in, def.out, def.innerType, def.schema, def.left, def.right].filter(Boolean) as z.ZodType[];
  const options = (def.options as z.ZodType[] | undefined) ?? [];
  return [...new Set([...inner, ...options].flatMap((s) => keysOf(s, depth + 1)))];
}

const HOSTILE = [
  "",
  "0",
  "1",
  "2",
  "-1",
  String(INT_MAX),
  String(INT_MAX + 1),
  "99999999999999999999",
  "1e23",
  "0x1A",
  "NaN",
  "12,5",
  "on",
  "true",
  "false",
  "\u0000",
  "Texte\u0000nul",
  "a\u0007b",
  "ligne\nsuite",
  "\u202e",
  "é".repeat(300),
  "x".repeat(5000),
  "2025-05-01",
  "9999-12-31",
  "0001-01-01",
  "31/02/2025",
  "2025-13-45",
  "[]",
  "[1]",
  `[${INT_MAX + 1}]`,
  '["0x1A"]',
  "[1e23]",
  "{}",
  '{"a":1}',
  "[{}]",
  '[{"id":-1,"updatedAt":null,"values":{"date":"9999-12-31","libelle":"\\u0000"}}]',
  "null",
  "{",
  "[",
];

const value = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: 400 }).map(String) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
);

describe(`every intent answers a success or a 4xx, never a 500 (${dialect})`, () => {
  test("[issue23-input] random input to every intent of every screen action", { timeout: 900_000 }, async () => {
    expect(screens.length).toBeGreaterThan(20);
    const db = t.db();
    const failures: string[] = [];
    let calls = 0;
    for (const { file, action } of screens) {
      for (const [name, i] of Object.entries(action.intents)) {
        // Back to the writer's campaign before each intent; a random write before may have taken it away (a right,
        // a farm link): the intent then runs in what is left, and must still answer a 4xx.
        const user = await selectTilleuls(t, "animateur", "tilleuls2025").catch(() => demoUser(db, "animateur"));
        const path = `home/${file}`;
        let schema = i.schema;
        if (typeof schema === "function") {
          // A schema that depends on the request: the one an empty form of this user gets.
          const { RouterContextProvider } = await import("react-router");
          const { dbContext, provideSignedIn } = await import("../../server/http/context.server");
          const context = new RouterContextProvider();
          context.set(dbContext, db);
          const request = new Request(`http://sillon.test/sillon/${path}`, { method: "POST" });
          provideSignedIn(context, request, user);
          schema = await schema(routeArgs({ request, params: {}, context }), new FormData()).catch(() => undefined);
        }
        const keys = [...new Set([...Object.keys(i.fields), ...keysOf(schema as z.ZodType | undefined)])];
        const form = fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] });
        const r = await fc.check(
          fc.asyncProperty(form, async (fields) => {
            calls++;
            const answer = await postForm(action as never, {
              db,
              user,
              path,
              form: { ...(fields as Record<string, string>), intent: name },
              params: { idSerie: "1", id: "1" },
            });
            if (answer.status >= 500) throw answer.body instanceof Error ? answer.body : new Error(JSON.stringify(answer.body));
          }),
          { numRuns: RUNS, endOnFailure: true },
        );
        if (r.failed)
          failures.push(
            `${file} ${name}: ${JSON.stringify(r.counterexample?.[0])} → ${String((r.errorInstance as Error)?.message ?? r.errorInstance).slice(0, 300)}`,
          );
      }
    }
    console.info(`[intents] ${screens.length} actions, ${calls} posts`);
    if (failures.length) console.error(`[intents] ${failures.join("\n")}`);
    expect(failures).toEqual([]);
  });
});
