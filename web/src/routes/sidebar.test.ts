// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { isActivePath } from './Sidebar';

describe('sidebar active item', () => {
  it('matches the root only on the root, others on their path prefix', () => {
    expect(isActivePath('/', '/')).toBe(true);
    expect(isActivePath('/users', '/')).toBe(false);
    expect(isActivePath('/users', '/users')).toBe(true);
    expect(isActivePath('/users/abc', '/users')).toBe(true);
    expect(isActivePath('/libraries/item/1', '/libraries')).toBe(true);
    expect(isActivePath('/usersx', '/users')).toBe(false);
  });
});
