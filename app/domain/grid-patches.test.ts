import { describe, expect, test } from "vitest";
import { MainOeuvreSchema } from "./main-oeuvre";
import { MAX_PATCHES, patchKey, rawPatchesSchema, rowPatchListSchema, rowPatchesSchema } from "./grid-patches";
import { issuesToFieldErrors } from "./validation";

const values = { libelle: "Salarié", idTypeUser: "951", uta: "1,5" };
const schema = rowPatchesSchema(MainOeuvreSchema);
const errors = (input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? {} : issuesToFieldErrors(r.error);
};

describe("grid patches schema", () => {
  test("[issue11-grid] each row's values are parsed by the row schema the form uses (French decimals, ids as text)", () => {
    const r = schema.parse({
      patches: [
        { id: 12, updatedAt: "2026-01-01T00:00:00.000Z", values },
        { id: -1, updatedAt: null, values },
        { id: null, values },
      ],
    });
    expect(r.patches[0].values).toEqual({ libelle: "Salarié", idTypeUser: 951, uta: 1.5 });
    expect(r.patches.map((p) => p.id)).toEqual([12, -1, null]);
    expect(errors({ patches: [{ id: 12, updatedAt: "x", values: { ...values, uta: "-1" } }] })).toEqual({ "patches[0].values.uta": ["warning.positive"] });
  });

  test("[issue11-grid] an existing row needs its updatedAt; an id appears once; ids are integers; the list is bounded", () => {
    expect(errors({ patches: [{ id: 12, values }] })).toEqual({ "patches[0].updatedAt": ["warning.required"] });
    expect(
      errors({
        patches: [
          { id: 12, updatedAt: "t", values },
          { id: 12, updatedAt: "t", values },
        ],
      }),
    ).toEqual({ "patches[1].id": ["warning.invalid"] });
    expect(Object.keys(errors({ patches: [{ id: 1.5, values }] }))).toEqual(["patches[0].id"]);
    expect(Object.keys(errors({ patches: [{ id: "0x1A", updatedAt: "t", values }] }))).toEqual(["patches[0].id"]);
    const many = Array.from({ length: MAX_PATCHES + 1 }, () => ({ id: null, values: {} }));
    expect(rawPatchesSchema.safeParse({ patches: many }).success).toBe(false);
    expect(rawPatchesSchema.safeParse({ patches: many.slice(1) }).success).toBe(true);
  });

  test("[issue11-grid] the list alone (what the form field `patches` holds) and the row keys of the answers", () => {
    expect(rowPatchListSchema(MainOeuvreSchema).safeParse([{ id: 3, values }]).success).toBe(false);
    expect(rowPatchListSchema(MainOeuvreSchema).parse([{ id: -4, values }])[0].id).toBe(-4);
    expect(patchKey({ id: 7 }, 0)).toBe("7");
    expect(patchKey({ id: null }, 3)).toBe("@3");
  });
});
