/**
 * Editing a redaction policy from the preview: a rule row's checkbox and the "Add a rule" form. The
 * preview names rules by id; the policy switches them in three places (a built-in's `rules` entry,
 * `hash_symbols` for `symbols`, a custom rule's `enabled`), so the mapping lives here, once.
 */
import type { RedactionPolicy } from '../../api/bundle';

const SYMBOLS = 'symbols';
const CUSTOM_PREFIX = 'custom:';

/** Whether the policy applies the rule with this preview id. */
export function ruleOn(policy: RedactionPolicy, ruleId: string): boolean {
  if (ruleId === SYMBOLS) return policy.hash_symbols;
  if (ruleId.startsWith(CUSTOM_PREFIX)) {
    const name = ruleId.slice(CUSTOM_PREFIX.length);
    return policy.custom.some((r) => r.name === name && r.enabled);
  }
  return policy.rules[ruleId] ?? false;
}

/** The policy with the rule switched on or off; an id the policy does not know changes nothing. */
export function setRuleOn(policy: RedactionPolicy, ruleId: string, on: boolean): RedactionPolicy {
  if (ruleId === SYMBOLS) return { ...policy, hash_symbols: on };
  if (ruleId.startsWith(CUSTOM_PREFIX)) {
    const name = ruleId.slice(CUSTOM_PREFIX.length);
    return { ...policy, custom: policy.custom.map((r) => (r.name === name ? { ...r, enabled: on } : r)) };
  }
  if (!(ruleId in policy.rules)) return policy;
  return { ...policy, rules: { ...policy.rules, [ruleId]: on } };
}

/** Whether a rule id is one of the policy's own patterns (those can be removed again). */
export const isCustomRule = (ruleId: string): boolean => ruleId.startsWith(CUSTOM_PREFIX);

/** The same checks as the server's, for an answer before a round trip; the pattern is the server's to judge. */
const CUSTOM_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

export type AddRuleResult = { policy: RedactionPolicy } | { problem: string };

/** The policy with a new custom rule (on), or why it cannot be added. */
export function addCustomRule(policy: RedactionPolicy, name: string, pattern: string): AddRuleResult {
  const n = name.trim();
  if (!n) return { problem: 'Give the rule a name: it becomes the pseudonym, e.g. ticket → ticket-1.' };
  if (!CUSTOM_NAME.test(n)) return { problem: `“${n}”: use 1-40 letters, digits, '_', '.' or '-', starting with a letter or digit.` };
  if (pattern === '') return { problem: 'Give the rule a regular expression.' };
  if (policy.custom.some((r) => r.name === n)) return { problem: `There is already a rule named “${n}”.` };
  return { policy: { ...policy, custom: [...policy.custom, { name: n, pattern, enabled: true }] } };
}

/** The policy without the custom rule of this preview id. */
export function removeCustomRule(policy: RedactionPolicy, ruleId: string): RedactionPolicy {
  const name = ruleId.slice(CUSTOM_PREFIX.length);
  return { ...policy, custom: policy.custom.filter((r) => r.name !== name) };
}
