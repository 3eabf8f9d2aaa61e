import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  campaignDateWindow,
  withinCampaign,
  INT_MAX,
  MAX_IDS,
  NUMBER_MAX,
  decimalMax,
  rowId,
  VALIDATION_KEYS,
  dateString,
  email,
  frenchPhone,
  issuesToFieldErrors,
  maxLength,
  minLength,
  mustMatch,
  notZero,
  optional,
  optionalNumber,
  optionalText,
  password,
  percentage,
  positive,
  postalCode,
  requiredArray,
  requiredNumber,
  requiredText,
  siret,
  validate,
} from "./validation";

/** The message keys of a failed parse, or [] when the value is valid. */
function keys(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

const ok = (schema: z.ZodType, input: unknown) => expect(keys(schema, input)).toEqual([]);

function formData(entries: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) for (const v of [value].flat()) data.append(name, v);
  return data;
}

test("[A-VALID-01] shared rule messages are translation keys", () => {
  const failures: [z.ZodType, unknown][] = [
    [requiredText(), ""],
    [requiredNumber(), "abc"],
    [requiredNumber({ integer: true }), "1,5"],
    [requiredNumber({ min: 1 }), 0],
    [requiredNumber({ max: 1 }), 2],
    [requiredNumber({ min: 1, max: 2 }), 3],
    [percentage(), 101],
    [positive(), 0],
    [notZero(), 0],
    [postalCode(), "123"],
    [email(), "nope"],
    [frenchPhone(), "12"],
    [siret(), "123"],
    [dateString(), "demain"],
    [password(), "short"],
    [requiredText({ min: 3 }), "ab"],
    [requiredText({ max: 2 }), "abc"],
    [requiredArray(z.string()), []],
  ];
  for (const [schema, input] of failures) {
    const messages = keys(schema, input);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) {
      expect(message).toMatch(/^warning\.[a-z-]+$/);
      expect(VALIDATION_KEYS).toContain(message);
    }
  }
});

test("[A-VALID-02] required fails for an empty value, with warning.required", () => {
  for (const empty of ["", "   ", undefined, null]) {
    expect(keys(requiredText(), empty)).toEqual(["warning.required"]);
    expect(keys(requiredNumber(), empty)).toEqual(["warning.required"]);
    expect(keys(postalCode(), empty)).toEqual(["warning.required"]);
    expect(keys(dateString(), empty)).toEqual(["warning.required"]);
  }
  expect(keys(z.object({ name: requiredText() }), {})).toEqual(["warning.required"]);
  ok(requiredText(), "Ferme du Moulin");
});

test("[A-VALID-03] required fails for an empty array, with warning.required", () => {
  const schema = requiredArray(z.string());
  expect(keys(schema, [])).toEqual(["warning.required"]);
  expect(keys(schema, undefined)).toEqual(["warning.required"]);
  expect(keys(schema, "")).toEqual(["warning.required"]);
  expect(schema.parse(["2023", "2024"])).toEqual(["2023", "2024"]);
  expect(schema.parse("2024")).toEqual(["2024"]);
});

test("[A-VALID-04] required accepts 0", () => {
  expect(requiredNumber().parse(0)).toBe(0);
  expect(requiredNumber().parse("0")).toBe(0);
  expect(requiredText().parse("0")).toBe("0");
  expect(requiredText().parse(0)).toBe("0");
  expect(requiredArray(z.number()).parse([0])).toEqual([0]);
});

test("[A-VALID-05] numeric fails for a non-numeric value, with warning.numeric", () => {
  for (const value of ["abc", "12abc", "1.2.3", "0x10", "1e3", true, Number.NaN, Number.POSITIVE_INFINITY]) {
    expect(keys(requiredNumber(), value)).toEqual(["warning.numeric"]);
  }
  expect(requiredNumber().parse("12,5")).toBe(12.5);
  expect(requiredNumber().parse(" 1 000,25 ")).toBe(1000.25);
  expect(requiredNumber().parse("-3.5")).toBe(-3.5);
  expect(keys(optionalNumber(), "abc")).toEqual(["warning.numeric"]);
});

test("[A-VALID-06] integer fails for a non-integer value, with warning.integer", () => {
  const schema = requiredNumber({ integer: true });
  expect(keys(schema, "12,5")).toEqual(["warning.integer"]);
  expect(keys(schema, 0.1)).toEqual(["warning.integer"]);
  expect(schema.parse("2024")).toBe(2024);
  expect(schema.parse("-4")).toBe(-4);
});

test("[A-VALID-07] percentage accepts integers from 0 to 100", () => {
  for (const value of [0, 1, 50, 100, "0", "100"]) ok(percentage(), value);
  expect(percentage().parse("42")).toBe(42);
});

test("[A-VALID-08] percentage fails below 0 or above 100, with warning.percentage", () => {
  for (const value of [-1, 101, "-1", "150"]) expect(keys(percentage(), value)).toEqual(["warning.percentage"]);
});

test("[A-VALID-09] percentage fails for a non-integer, with warning.percentage", () => {
  for (const value of [12.5, "12,5", "0.1", "abc"]) expect(keys(percentage(), value)).toEqual(["warning.percentage"]);
  expect(keys(percentage(), "")).toEqual(["warning.required"]);
});

test("[A-VALID-10] positive (greater than 0) fails for 0, with warning.positive", () => {
  expect(keys(positive(), 0)).toEqual(["warning.positive"]);
  expect(keys(positive(), "0")).toEqual(["warning.positive"]);
  expect(positive().parse("0,01")).toBe(0.01);
});

test("[A-VALID-11] positive fails for a negative value, with warning.positive", () => {
  expect(keys(positive(), -1)).toEqual(["warning.positive"]);
  expect(keys(positive(), "-0,5")).toEqual(["warning.positive"]);
});

test("[A-VALID-12] not-zero fails for 0, with warning.not-zero", () => {
  expect(keys(notZero(), 0)).toEqual(["warning.not-zero"]);
  expect(keys(notZero(), "0,0")).toEqual(["warning.not-zero"]);
  ok(notZero(), -2);
  ok(notZero(), "3,5");
});

test("[A-VALID-13] postal code accepts exactly 5 characters", () => {
  expect(postalCode().parse("35000")).toBe("35000");
  expect(postalCode().parse(" 2A004 ")).toBe("2A004");
});

test("[A-VALID-14] postal code fails for fewer or more than 5 characters, with warning.invalid", () => {
  expect(keys(postalCode(), "3500")).toEqual(["warning.invalid"]);
  expect(keys(postalCode(), "350000")).toEqual(["warning.invalid"]);
});

test("[A-VALID-15] date fails for an unparseable value, with warning.date", () => {
  for (const value of ["demain", "2024-13-01", "31/02/2024", "2024/01/01", "12/2024", 20240101]) {
    expect(keys(dateString(), value)).toEqual(["warning.date"]);
  }
  expect(dateString().parse("2024-02-29")).toBe("2024-02-29");
  expect(dateString().parse("29/02/2024")).toBe("2024-02-29");
  expect(dateString().parse("1/3/2024")).toBe("2024-03-01");
  expect(keys(dateString(), "29/02/2023")).toEqual(["warning.date"]);
});

test("[A-VALID-16] e-mail fails for a value not matching the standard pattern, with warning.invalid", () => {
  for (const value of ["jean.dupont", "jean@", "@exemple.fr", "jean dupont@exemple.fr", "jean@exemple"]) {
    expect(keys(email(), value)).toEqual(["warning.invalid"]);
  }
  expect(email().parse(" jean.dupont@chambre-agriculture.fr ")).toBe("jean.dupont@chambre-agriculture.fr");
});

test("[A-VALID-17] French phone number accepts the +33 prefix", () => {
  ok(frenchPhone(), "+33612345678");
  ok(frenchPhone(), "+33 6 12 34 56 78");
  ok(frenchPhone(), "+33 2.99.12.34.56");
});

test("[A-VALID-18] French phone number accepts the 0033 prefix", () => {
  ok(frenchPhone(), "0033612345678");
  ok(frenchPhone(), "0033 6 12 34 56 78");
});

test("[A-VALID-19] French phone number accepts the 0 prefix", () => {
  ok(frenchPhone(), "0612345678");
  ok(frenchPhone(), "06 12 34 56 78");
  ok(frenchPhone(), "02.99.12.34.56");
  ok(frenchPhone(), "02-99-12-34-56");
  expect(frenchPhone().parse(" 06 12 34 56 78 ")).toBe("06 12 34 56 78");
});

test("[A-VALID-20] French phone number fails otherwise, with warning.invalid", () => {
  for (const value of ["612345678", "061234567", "06123456789", "+44 20 7946 0958", "+3306123456", "0012345678", "06 12 AB 56 78", "+33 0 6 12 34 56 78"]) {
    expect(keys(frenchPhone(), value)).toEqual(["warning.invalid"]);
  }
});

test("[A-VALID-21] min fails for a value below the bound, with warning.min", () => {
  expect(keys(requiredNumber({ min: 1 }), 0)).toEqual(["warning.min"]);
  expect(keys(requiredNumber({ min: 1 }), "0,99")).toEqual(["warning.min"]);
  ok(requiredNumber({ min: 1 }), 1);
});

test("[A-VALID-22] max fails for a value above the bound, with warning.max", () => {
  expect(keys(requiredNumber({ max: 10 }), 11)).toEqual(["warning.max"]);
  expect(keys(optionalNumber({ max: 10 }), "10,5")).toEqual(["warning.max"]);
  ok(requiredNumber({ max: 10 }), 10);
});

test("[A-VALID-23] minmax fails for a value outside the bounds, with warning.minmax", () => {
  const schema = requiredNumber({ min: 1900, max: 2100, integer: true });
  expect(keys(schema, 1899)).toEqual(["warning.minmax"]);
  expect(keys(schema, "2101")).toEqual(["warning.minmax"]);
  ok(schema, "1900");
  ok(schema, 2100);
});

test("[A-VALID-24] minimum character length fails for a shorter value, with warning.min-characters", () => {
  expect(keys(requiredText({ min: 3 }), "ab")).toEqual(["warning.min-characters"]);
  expect(keys(requiredText({ min: 3 }), "  ab  ")).toEqual(["warning.min-characters"]);
  expect(keys(z.string().check(minLength(3)), "ab")).toEqual(["warning.min-characters"]);
  ok(requiredText({ min: 3 }), "abc");
});

test("[A-VALID-25] maximum character length fails for a longer value, with warning.max-characters", () => {
  expect(keys(optionalText({ max: 5 }), "abcdef")).toEqual(["warning.max-characters"]);
  expect(keys(z.string().check(maxLength(5)), "abcdef")).toEqual(["warning.max-characters"]);
  ok(optionalText({ max: 5 }), "abcde");
  ok(optionalText({ max: 5 }), "");
});

test("[A-VALID-26] field-must-match fails when a confirmation field differs from its field (warning.match)", () => {
  const profile = mustMatch(
    z.object({ lastName: requiredText(), password: optional(password()), confirmation: optional(password()) }),
    "password",
    "confirmation",
  );
  const result = profile.safeParse({ lastName: "Dupont", password: "motdepasse", confirmation: "motdepassf" });
  expect(result.success).toBe(false);
  expect(issuesToFieldErrors(result.error!)).toEqual({ confirmation: ["warning.match"] });

  ok(profile, { lastName: "Dupont", password: "motdepasse", confirmation: "motdepasse" });
  ok(profile, { lastName: "Dupont", password: "", confirmation: "" });
  // Confirmation is required once a password is entered (profile rule).
  expect(keys(profile, { lastName: "Dupont", password: "motdepasse", confirmation: "" })).toEqual(["warning.required"]);
  // The mismatch is reported even when another field fails.
  const both = profile.safeParse({ lastName: "", password: "motdepasse", confirmation: "autrechose" });
  expect(issuesToFieldErrors(both.error!)).toEqual({ lastName: ["warning.required"], confirmation: ["warning.match"] });
});

test("[A-VALID-27] SIRET fails for an invalid SIRET", () => {
  expect(siret().parse("73282932000074")).toBe("73282932000074");
  expect(siret().parse("732 829 320 00074")).toBe("73282932000074");
  for (const value of ["73282932000075", "7328293200007", "732829320000745", "7328293200007A"]) {
    expect(keys(siret(), value)).toEqual(["warning.invalid"]);
  }
  // La Poste: the SIREN 356000000 establishments are valid when their digit sum is a multiple of 5.
  ok(siret(), "35600000049837"); // digit sum 3+5+6+4+9+8+3+7 = 45
  expect(keys(siret(), "35600000049838")).toEqual(["warning.invalid"]);
});

test("[A-VALID-28] a form that fails validation is reported as an invalid form", () => {
  const schema = z.object({ name: requiredText(), postalCode: optional(postalCode()) });
  expect(validate(schema, { name: "", postalCode: "123" })).toEqual({
    success: false,
    formError: "warning.invalid-form",
    fieldErrors: { name: ["warning.required"], postalCode: ["warning.invalid"] },
  });
  expect(validate(schema, { name: "Ferme", postalCode: "" })).toEqual({ success: true, data: { name: "Ferme", postalCode: undefined } });
});

test("[A-VALID-29] password fails for fewer than 8 characters", () => {
  expect(keys(password(), "1234567")).toEqual(["warning.min-characters"]);
  expect(keys(password(), "")).toEqual(["warning.required"]);
});

test("[A-VALID-30] password accepts 8 characters", () => {
  expect(password().parse("12345678")).toBe("12345678");
  expect(password().parse(" a b c d ")).toBe(" a b c d ");
});

describe("with conform's parseWithZod (empty fields arrive as undefined)", () => {
  const schema = mustMatch(
    z.object({
      name: requiredText({ max: 50 }),
      year: requiredNumber({ integer: true, min: 1900, max: 2100 }),
      surface: optionalNumber({ min: 0 }),
      share: percentage(),
      phone: optional(frenchPhone()),
      siret: optional(siret()),
      campaigns: requiredArray(z.string()),
      password: optional(password()),
      confirmation: optional(password()),
    }),
    "password",
    "confirmation",
  );

  test("empty and wrong fields give the shared keys", () => {
    const submission = parseWithZod(
      formData({ name: "", year: "20x4", surface: "", share: "120", phone: "06 12", siret: "", password: "motdepasse", confirmation: "motdepass" }),
      { schema },
    );
    expect(submission.status).toBe("error");
    expect(submission.status === "error" && submission.error).toEqual({
      name: ["warning.required"],
      year: ["warning.numeric"],
      share: ["warning.percentage"],
      phone: ["warning.invalid"],
      campaigns: ["warning.required"],
      confirmation: ["warning.match"],
    });
  });

  test("realistic French values parse", () => {
    const submission = parseWithZod(
      formData({
        name: " GAEC des Tilleuls ",
        year: "2024",
        surface: "12,5",
        share: "0",
        phone: "+33 6 12 34 56 78",
        siret: "73282932000074",
        campaigns: ["2023", "2024"],
        password: "",
        confirmation: "",
      }),
      { schema },
    );
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toEqual({
      name: "GAEC des Tilleuls",
      year: 2024,
      surface: 12.5,
      share: 0,
      phone: "+33 6 12 34 56 78",
      siret: "73282932000074",
      campaigns: ["2023", "2024"],
    });
  });
});

describe("numbers bounded to what both databases store (issue 10, defect 7)", () => {
  const err = (schema: z.ZodType, v: unknown) => {
    const r = schema.safeParse(v);
    return r.success ? "ok" : r.error.issues[0].message;
  };

  test("[issue10-7] a number without its own bounds stays within an integer or decimal(10, 2) column", () => {
    expect(decimalMax(10, 2)).toBe(99_999_999.99);
    expect(decimalMax(8, 3)).toBe(99_999.999);
    expect(NUMBER_MAX).toBe(99_999_999.99);
    expect(err(requiredNumber(), "99999999,99")).toBe("ok");
    expect(err(requiredNumber(), "1e23")).toBe("warning.numeric");
    expect(err(requiredNumber(), 1e23)).toBe("warning.max");
    expect(err(requiredNumber(), "-100000000")).toBe("warning.min");
    expect(err(requiredNumber(), "100000000000000000000000")).toBe("warning.max");
    expect(err(requiredNumber({ integer: true }), String(INT_MAX))).toBe("ok");
    expect(err(requiredNumber({ integer: true }), String(INT_MAX + 1))).toBe("warning.max");
    expect(err(requiredNumber({ integer: true, min: 0 }), 1e23)).not.toBe("ok");
    expect(err(optionalNumber({ min: 0, max: 5 }), "6")).toBe("warning.minmax");
  });

  test("[issue10-7] hex, exponent and other non-decimal strings are not numbers", () => {
    for (const v of ["0x1A", "0b11", "0o7", "1e3", "Infinity", "NaN", "12abc"]) expect(err(requiredNumber(), v), v).toBe("warning.numeric");
  });

  test("[issue10-7] a row id is decimal digits or a positive integer within an integer column", () => {
    expect(rowId().parse("42")).toBe(42);
    expect(rowId().parse(42)).toBe(42);
    for (const v of ["0x1A", "1e3", " 5", "5.0", "", "0", "-1", String(INT_MAX + 1), 1e23, 1.5, null, "abc"])
      expect(err(rowId(), v), String(v)).toBe("warning.invalid");
  });

  test('[issue10-7] through conform\'s parseWithZod too (its own coercion would read "0x1A" as 26)', () => {
    const schema = z.object({ n: optionalNumber(), id: rowId().optional() });
    for (const v of ["0x1A", "1e3", "Infinity"]) {
      const form = new FormData();
      form.append("n", v);
      form.append("id", v);
      const s = parseWithZod(form, { schema });
      expect(s.status, v).toBe("error");
      expect(s.status === "error" ? s.error : null, v).toEqual({ n: ["warning.numeric"], id: ["warning.invalid"] });
    }
  });

  test("[issue10-7] a list of ids is at most MAX_IDS long", () => {
    const list = requiredArray(rowId());
    expect(
      err(
        list,
        Array.from({ length: MAX_IDS }, (_, i) => i + 1),
      ),
    ).toBe("ok");
    expect(
      err(
        list,
        Array.from({ length: MAX_IDS + 1 }, (_, i) => i + 1),
      ),
    ).toBe("warning.too-many");
  });
});

describe("input that cannot hurt (issue 23, decision 0091)", () => {
  test("[issue23-input] a text refuses NUL and the other control characters; a multi-line text keeps tab and line breaks", () => {
    const line = requiredText({ max: 255 });
    const lines = optionalText({ max: 4000, multiline: true });
    for (const bad of ["a\u0000b", "\u0000", "a\u0007", "a\u001bz", "a\u007f", "a\u0085", "a\tb", "a\nb"]) {
      expect(line.safeParse(bad).error?.issues[0].message, JSON.stringify(bad)).toBe("warning.control-character");
    }
    for (const bad of ["a\u0000b", "a\u000bb", "a\u001fb"]) {
      expect(lines.safeParse(bad).error?.issues[0].message, JSON.stringify(bad)).toBe("warning.control-character");
    }
    expect(lines.parse("Ligne 1\r\nLigne 2\tcolonne")).toBe("Ligne 1\r\nLigne 2\tcolonne");
    expect(line.parse("  Blé tendre d'hiver — 2025 ✓ ")).toBe("Blé tendre d'hiver — 2025 ✓");
    expect(postalCode().safeParse("7500\u0000").success).toBe(false);
  });

  test("[issue23-input] a date lies between 1900 and 2100; the campaign window of harvest year N runs from 1 January N-2 to 31 December N+1", () => {
    expect(dateString().parse("1900-01-01")).toBe("1900-01-01");
    expect(dateString().parse("31/12/2100")).toBe("2100-12-31");
    for (const bad of ["9999-12-31", "1899-12-31", "2101-01-01", "01/01/0202"]) {
      expect(dateString().safeParse(bad).error?.issues[0].message, bad).toBe("warning.date-window");
    }
    expect(campaignDateWindow(2025)).toEqual({ from: "2023-01-01", to: "2026-12-31" });
    expect(["2023-01-01", "2025-07-14", "2026-12-31"].map((d) => withinCampaign(d, 2025))).toEqual([true, true, true]);
    expect(["2022-12-31", "2027-01-01", "9999-12-31"].map((d) => withinCampaign(d, 2025))).toEqual([false, false, false]);
  });
});

describe("numbers as spreadsheets write them, in the forms too (issue 29, decision 0101)", () => {
  test("[issue29-excel] the forms' number reader takes currency, percent and any space as thousands separator; '1,250' is 1.25", async () => {
    const { toNumber, requiredNumber, toIsoDate } = await import("./validation");
    expect(toNumber("12,50 €")).toBe(12.5);
    expect(toNumber("€12.50")).toBe(12.5);
    expect(toNumber("1\u00a0234,5")).toBe(1234.5);
    expect(toNumber("1\u202f234,5 €")).toBe(1234.5);
    expect(toNumber("15 %")).toBe(15);
    expect(toNumber("1,250")).toBe(1.25);
    expect(toNumber("€")).toBe("€");
    expect(requiredNumber({ min: 0, max: 100 }).safeParse("15 %")).toMatchObject({ success: true, data: 15 });
    expect(toIsoDate("15/3/25")).toBe("2025-03-15");
    expect(toIsoDate("15/3/2025")).toBe("2025-03-15");
    expect(toIsoDate("15/3/025")).toBeNull();
  });
});
