/** The change-password form's check, before anything is sent: the same rules the server applies. */
export const MIN_PASSWORD_LENGTH = 10;

/** What is wrong with a new password typed twice, or null when it can be sent. */
export function newPasswordProblem(next: string, repeated: string): string | null {
  if (next.length < MIN_PASSWORD_LENGTH) return `The new password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (next !== repeated) return 'The two new passwords differ.';
  return null;
}
