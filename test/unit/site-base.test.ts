// JIANGU_BASE, the sub-path a build is deployed under: normalised to Vite's `base` form, and a value
// that would leave the site's folder or break its URLs is refused at build time.
import { describe, expect, it } from 'vitest';
import { siteBase } from '../../scripts/site-routes.ts';

describe('siteBase', () => {
  it('is / when unset or empty', () => {
    expect(siteBase(undefined)).toBe('/');
    expect(siteBase('')).toBe('/');
    expect(siteBase('/')).toBe('/');
  });

  it('puts one slash at each end of the path', () => {
    expect(siteBase('jiangu')).toBe('/jiangu/');
    expect(siteBase('/jiangu')).toBe('/jiangu/');
    expect(siteBase('/jiangu/')).toBe('/jiangu/');
    expect(siteBase('//school//jiangu-2.0//')).toBe('/school/jiangu-2.0/');
  });

  it('refuses dot segments, spaces, queries and full URLs, naming the value', () => {
    for (const bad of ['/../x/', '/a/./b/', '/my site/', '/jiangu/?x=1', 'https://host/jiangu/', '/a#b/']) {
      expect(() => siteBase(bad), bad).toThrow(`not ${JSON.stringify(bad)}`);
    }
  });
});
