import { z } from "zod";
import { noControlCharacter } from "./validation";

/** The login form (spec 1 §5): both fields required, with the spec's own messages. */
export const LoginSchema = z.object({
  username: z.string({ error: "login.username-required" }).trim().min(1, "login.username-required").check(noControlCharacter()),
  password: z.string({ error: "login.password-required" }).min(1, "login.password-required"),
});
export type LoginInput = z.infer<typeof LoginSchema>;

export const LOGIN_THROTTLE = {
  /** Failures counted over this window. */
  windowMs: 15 * 60 * 1000,
  /** Failures allowed before answers are slowed. */
  freeFailures: 3,
  /** Delay doubles with each further failure, up to this. */
  maxDelayMs: 8000,
};

/** How long to hold back the answer after `failures` recent failed logins for one username. */
export function loginDelayMs(failures: number): number {
  const over = failures - LOGIN_THROTTLE.freeFailures;
  if (over < 0) return 0;
  return Math.min(LOGIN_THROTTLE.maxDelayMs, 500 * 2 ** over);
}
