import { describe, expect, test } from "vitest";
import { dialect, useTestDb } from "../../tests/helpers/test-db";
import { countRecentLoginFailures, findUtilisateurByUsername } from "../utilisateur/repo";
import { BadCredentialsError, checkCredentials } from "./login";
import { issueApiToken, revokeApiToken, userIdForApiToken } from "./api-token";
import { verifyPassword } from "./password";

const t = useTestDb();

describe(`sign-in (${dialect})`, () => {
  test("the demo users sign in with demo1234, whatever the case of the username", async () => {
    for (const name of ["admin", "animateur", "redacteur", "lecteur", "synthese", "nouveau"]) {
      const user = await checkCredentials(t.db(), name.toUpperCase(), "demo1234", "127.0.0.1");
      expect(user.username).toBe(name);
      expect(user).not.toHaveProperty("passwordHash");
    }
  });

  test("passwords are stored hashed with scrypt, never in clear", async () => {
    const row = await findUtilisateurByUsername(t.db(), "admin");
    expect(row!.passwordHash).toMatch(/^scrypt\$32768\$/);
    expect(row!.passwordHash).not.toContain("demo1234");
    expect(await verifyPassword("demo1234", row!.passwordHash)).toBe(true);
    expect(await verifyPassword("demo12345", row!.passwordHash)).toBe(false);
  });

  test("[A-LOGIN-16] a wrong password is refused and the failure is counted", async () => {
    await expect(checkCredentials(t.db(), "lecteur", "wrong", "127.0.0.1")).rejects.toBeInstanceOf(BadCredentialsError);
    await expect(checkCredentials(t.db(), "nobody", "demo1234", "127.0.0.1")).rejects.toBeInstanceOf(BadCredentialsError);
    expect(await countRecentLoginFailures(t.db(), "lecteur", new Date(Date.now() - 60_000))).toBe(1);
    await checkCredentials(t.db(), "lecteur", "demo1234", "127.0.0.1");
    expect(await countRecentLoginFailures(t.db(), "lecteur", new Date(Date.now() - 60_000))).toBe(0);
  });

  test("repeated failed logins are answered more slowly", async () => {
    for (let i = 0; i < 3; i++) await checkCredentials(t.db(), "synthese", "x", "").catch(() => undefined);
    const started = Date.now();
    await checkCredentials(t.db(), "synthese", "x", "").catch(() => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  test("a disabled account cannot sign in", async () => {
    await t.db()("utilisateur").where({ username: "redacteur" }).update({ actif: false });
    await expect(checkCredentials(t.db(), "redacteur", "demo1234", "")).rejects.toBeInstanceOf(BadCredentialsError);
    await t.db()("utilisateur").where({ username: "redacteur" }).update({ actif: true });
  });

  test("[A-API-03] an API token identifies its user until revoked", async () => {
    const token = await issueApiToken(t.db(), t.demo().users.admin);
    expect(await userIdForApiToken(t.db(), token)).toBe(t.demo().users.admin);
    await revokeApiToken(t.db(), token);
    expect(await userIdForApiToken(t.db(), token)).toBeNull();
  });
});
