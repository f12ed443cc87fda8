import { describe, expect, it } from 'vitest';
import { parseMembers, restrictedText, visibilityFields } from './visibility';

describe('parseMembers', () => {
  it('reads comma-separated user names, each once', () => {
    expect(parseMembers(' ana, bo ,ana,, ')).toEqual(['ana', 'bo']);
    expect(parseMembers('')).toEqual([]);
  });
});

describe('visibilityFields', () => {
  it('sends members only for a restricted incident', () => {
    expect(visibilityFields('team', 'ana')).toEqual({ visibility: 'team', members: [] });
    expect(visibilityFields('restricted', 'ana, bo')).toEqual({ visibility: 'restricted', members: ['ana', 'bo'] });
  });
});

describe('restrictedText', () => {
  it('names the members of a restricted incident, and nothing for a team one', () => {
    expect(restrictedText({ visibility: 'restricted', members: ['admin', 'ana'] })).toBe('Restricted: admin, ana');
    expect(restrictedText({ visibility: 'restricted', members: [] })).toBe('Restricted: admins only');
    expect(restrictedText({ visibility: 'team', members: [] })).toBeNull();
  });
});
