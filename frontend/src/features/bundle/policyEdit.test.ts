import { describe, expect, it } from 'vitest';
import type { RedactionPolicy } from '../../api/bundle';
import { bundleRequest, initialChoices } from './exportForm';
import { addCustomRule, removeCustomRule, ruleOn, setRuleOn } from './policyEdit';
import { base } from '../captures/captureFixture';

/** The policy the preview answers with the default redaction (the server's policy_to_json). */
const defaults = (): RedactionPolicy => ({
  rules: { hostnames: true, users: true, addresses: true, paths: true, arguments: true, containers: true },
  path_prefixes: ['/home/', '/root/', '/Users/', '/srv/', '/var/www/', '/media/'],
  path_depth: 1,
  hash_symbols: false,
  custom: [],
});

function added(policy: RedactionPolicy, name: string, pattern: string): RedactionPolicy {
  const result = addCustomRule(policy, name, pattern);
  if ('problem' in result) throw new Error(result.problem);
  return result.policy;
}

describe('editing the policy from the preview', () => {
  it('unticks a built-in rule and adds a custom one: the JSON sent has both, the rest unchanged', () => {
    const policy = added(setRuleOn(defaults(), 'hostnames', false), 'ticket', String.raw`ACME-\d+`);
    const made = bundleRequest({ ...initialChoices(), mode: 'custom', policy }, [base]);
    if ('problem' in made) throw new Error(made.problem);
    expect(JSON.parse(JSON.stringify(made.request.redaction))).toEqual({
      mode: 'custom',
      policy: {
        rules: { hostnames: false, users: true, addresses: true, paths: true, arguments: true, containers: true },
        path_prefixes: ['/home/', '/root/', '/Users/', '/srv/', '/var/www/', '/media/'],
        path_depth: 1,
        hash_symbols: false,
        custom: [{ name: 'ticket', pattern: 'ACME-\\d+', enabled: true }],
      },
    });
    expect(ruleOn(policy, 'hostnames')).toBe(false);
    expect(ruleOn(policy, 'custom:ticket')).toBe(true);
  });

  it('switches the symbols rule through hash_symbols and a custom rule through its enabled flag', () => {
    let policy = added(defaults(), 'ticket', 'T-[0-9]+');
    policy = setRuleOn(setRuleOn(policy, 'symbols', true), 'custom:ticket', false);
    expect(policy.hash_symbols).toBe(true);
    expect(policy.custom).toEqual([{ name: 'ticket', pattern: 'T-[0-9]+', enabled: false }]);
    expect(ruleOn(policy, 'symbols')).toBe(true);
    expect(ruleOn(policy, 'custom:ticket')).toBe(false);
    expect(removeCustomRule(policy, 'custom:ticket').custom).toEqual([]);
  });

  it('leaves the policy alone for a rule it does not know (the server refuses unknown rule names)', () => {
    const policy = defaults();
    expect(setRuleOn(policy, 'no-such-rule', false)).toBe(policy);
    expect(ruleOn(policy, 'no-such-rule')).toBe(false);
  });

  it('refuses a rule without a name or pattern, a name the server would refuse, and a second rule of one name', () => {
    const policy = added(defaults(), 'ticket', 'x+');
    expect(addCustomRule(policy, '  ', 'x')).toHaveProperty('problem');
    expect(addCustomRule(policy, 'ok', '')).toHaveProperty('problem');
    expect(addCustomRule(policy, '-bad', 'x')).toHaveProperty('problem');
    expect(addCustomRule(policy, 'ticket', 'y')).toEqual({ problem: 'There is already a rule named “ticket”.' });
    expect(addCustomRule(policy, ' spaced ', 'y')).toEqual({ policy: { ...policy, custom: [...policy.custom, { name: 'spaced', pattern: 'y', enabled: true }] } });
  });
});
