import { describe, expect, it } from 'vitest';
import { newPasswordProblem } from './passwordForm';

describe('newPasswordProblem', () => {
  it('wants ten characters, typed the same twice', () => {
    expect(newPasswordProblem('short', 'short')).toMatch(/at least 10/);
    expect(newPasswordProblem('long enough 1', 'long enough 2')).toMatch(/differ/);
    expect(newPasswordProblem('long enough', 'long enough')).toBeNull();
  });
});
