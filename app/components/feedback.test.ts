import { describe, expect, test } from "vitest";
import { feedbackOnce } from "./feedback";

// useActionFeedback runs its effect after every commit (an effect keyed on the answer could be skipped by
// React, see the hook): what keeps it from showing a notice again at every render is feedbackOnce.
describe("feedbackOnce", () => {
  test("[A-ERR-21] [A-ERR-22] an answer's notice is shown once, however often the form renders with it", () => {
    const seen = { current: undefined as unknown };
    const created = { ok: true, id: 12, notice: "ui.create-confirmation" };
    expect(feedbackOnce(seen, undefined)).toBeNull();
    expect(feedbackOnce(seen, created)).toEqual({ notice: "ui.create-confirmation" });
    expect(feedbackOnce(seen, created)).toBeNull();
    expect(feedbackOnce(seen, created)).toBeNull();
    // The next save is a new answer, with the same words: shown again.
    expect(feedbackOnce(seen, { ok: true, id: 12, notice: "ui.update-confirmation" })).toEqual({ notice: "ui.update-confirmation" });
  });

  test("[A-ERR-20] an answer already there when the form mounts is shown (a form remounted on a fetcher key it reuses)", () => {
    expect(feedbackOnce({ current: undefined }, { ok: true, notice: "ui.delete-confirmation" })).toEqual({ notice: "ui.delete-confirmation" });
  });

  test("an answer is shown once in all: a form remounted by the answer's own revalidation does not show it again", () => {
    const answer = { ok: true, notice: "ui.update-confirmation" };
    expect(feedbackOnce({ current: undefined }, answer)).toEqual({ notice: "ui.update-confirmation" });
    expect(feedbackOnce({ current: undefined }, answer)).toBeNull();
  });

  test("[A-ERR-01] [A-ERR-07] [C-ERR-05] a service error opens the dialog once; field errors and suppressed errors stay in the form", () => {
    const seen = { current: undefined as unknown };
    const failed = { ok: false, error: "errors.conflict", params: { n: 2 } };
    expect(feedbackOnce(seen, failed)).toEqual({ error: "errors.conflict", params: { n: 2 } });
    expect(feedbackOnce(seen, failed)).toBeNull();
    expect(feedbackOnce(seen, { ok: false, error: "errors.invalid", fieldErrors: { libelle: ["x"] } })).toBeNull();
    expect(feedbackOnce(seen, { ok: false, error: "errors.conflict" }, true)).toBeNull();
  });

  test("answers without a notice (an estimate, a list of options) show nothing", () => {
    const seen = { current: undefined as unknown };
    expect(feedbackOnce(seen, { ok: true, estimation: { rendementReelMoyen: 6.9 } })).toBeNull();
    expect(feedbackOnce(seen, { typesSorties: [] })).toBeNull();
    expect(feedbackOnce(seen, "text")).toBeNull();
  });
});
