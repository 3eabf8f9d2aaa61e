import { describe, expect, test } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { findSessionWithUser, findUtilisateurById, findUtilisateurByUsername } from "../utilisateur/repo";

const t = useTestDb();

describe(`session and user read in one query, decision 0082 (${dialect})`, () => {
  test("a session row gives its data, expiry and the same user as findUtilisateurById, with no session column in it", async () => {
    const user = (await findUtilisateurByUsername(t.db(), "animateur"))!;
    const expiresAt = new Date(Date.now() + 3600_000);
    await t
      .db()("session")
      .insert({ id: "s-frame-1", idUser: user.id, data: JSON.stringify({ userId: user.id }), expiresAt });
    const found = await findSessionWithUser(t.db(), "s-frame-1");
    expect(found!.user).toEqual(await findUtilisateurById(t.db(), user.id));
    expect(JSON.parse(found!.data)).toEqual({ userId: user.id });
    expect(new Date(found!.expiresAt as string).getTime()).toBe(expiresAt.getTime());
  });

  test("a session without a user gives no user; a removed session gives nothing", async () => {
    await t.db()("session").insert({ id: "s-frame-2", idUser: null, data: "{}", expiresAt: null });
    const found = await findSessionWithUser(t.db(), "s-frame-2");
    expect(found).toEqual({ data: "{}", expiresAt: null, user: undefined });
    await t.db()("session").where({ id: "s-frame-2" }).delete();
    expect(await findSessionWithUser(t.db(), "s-frame-2")).toBeUndefined();
    expect(await findSessionWithUser(t.db(), "never-existed")).toBeUndefined();
  });
});
