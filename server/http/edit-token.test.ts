import { describe, expect, test, vi } from "vitest";
import { z } from "zod";
import type { RouteArgs } from "./context.server";
import { rowTokenField, saveIntent, tokenField } from "./route.server";

/** The route adapter's edit path (issue 10, defect 4): an edit without its updatedAt token is a refused form. */

const schema = z.object({ libelle: z.string() });
const args = {} as RouteArgs;
const form = (fields: Record<string, string>) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  return fd;
};
type Answer = { type: string; data: { ok: boolean; error?: string; submission?: { error?: Record<string, string[]> } }; init: { status: number } };

describe("edit token of the route adapter", () => {
  test("a row edit (an id) without updatedAt is refused with 400 and a field error; nothing is saved", async () => {
    const save = vi.fn(async () => 1);
    const answer = (await saveIntent(schema, save).run(args, { id: 7, updatedAt: undefined }, form({ libelle: "x" }))) as unknown as Answer;
    expect(answer.init.status).toBe(400);
    expect(answer.data).toMatchObject({ ok: false, error: "warning.invalid-form" });
    expect(answer.data.submission?.error?.updatedAt).toEqual(["warning.required"]);
    expect(save).not.toHaveBeenCalled();
  });

  test("a row edit with its token, or a creation (no id), is saved with the token passed on", async () => {
    const save = vi.fn(async () => 7);
    const stamp = "2026-01-02T03:04:05.678Z";
    expect(await saveIntent(schema, save).run(args, { id: 7, updatedAt: stamp }, form({ libelle: "x" }))).toMatchObject({ ok: true, id: 7 });
    expect(save).toHaveBeenLastCalledWith(args, { libelle: "x" }, { id: 7, updatedAt: stamp });
    await saveIntent(schema, save).run(args, { id: undefined, updatedAt: undefined }, form({ libelle: "y" }));
    expect(save).toHaveBeenLastCalledWith(args, { libelle: "y" }, undefined);
  });

  test('the token fields of the settings forms are required: absent is refused, "" is the form that saw no row', () => {
    expect(tokenField.safeParse(undefined).success).toBe(false);
    expect(tokenField.safeParse("").success).toBe(false);
    expect(tokenField.parse("2026-01-02T03:04:05.678Z")).toBe("2026-01-02T03:04:05.678Z");
    expect(rowTokenField.safeParse(undefined).success).toBe(false);
    expect(rowTokenField.parse("")).toBeNull();
  });
});
