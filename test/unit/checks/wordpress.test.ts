import { emoji, jqueryMigrate, pageCache, plugins, versionExposed } from '../../../core/scoring/checks/wordpress.ts';
import { type Fixture, NOT_APPLICABLE, PASS, run } from './fixtures/common.ts';
import { WORDPRESS_FIXTURES } from './fixtures/wordpress.ts';

const result = (score: number, code: string, severity: string, params: Record<string, string | number> = {}) => ({
  score: expect.closeTo(score, 12),
  applicable: true,
  findings: [{ category: 'wordpress', code, severity, params }],
});
/** The same observation and time, on a site that is not WordPress. */
const elsewhere = (f: Fixture): Fixture => ({ obs: f.obs, ctx: { ...f.ctx, isWordPress: false } });

describe('wordpress.version', () => {
  const F = WORDPRESS_FIXTURES['wordpress.version'];

  it('passes when the generator tag publishes no WordPress version', () => {
    expect(run(versionExposed, F.noGenerator)).toEqual(PASS);
    expect(run(versionExposed, F.noVersion)).toEqual(PASS);
    expect(run(versionExposed, F.otherGenerator)).toEqual(PASS);
  });

  it('does not apply to a site that is not WordPress', () => {
    expect(run(versionExposed, F.notWordPress)).toEqual(NOT_APPLICABLE);
    expect(run(versionExposed, elsewhere(F.exposed))).toEqual(NOT_APPLICABLE);
  });

  it('warns about a published version, scoring 0.5, with the version', () => {
    expect(run(versionExposed, F.exposed)).toEqual(
      result(0.5, 'wordpress.version-exposed', 'warning', { version: '6.4.2' }),
    );
    expect(run(versionExposed, F.lowerCase)).toEqual(
      result(0.5, 'wordpress.version-exposed', 'warning', { version: '6.5' }),
    );
    expect(run(versionExposed, F.preRelease)).toEqual(
      result(0.5, 'wordpress.version-exposed', 'warning', { version: '6.6' }),
    );
  });
});

describe('wordpress.plugins', () => {
  const F = WORDPRESS_FIXTURES['wordpress.plugins'];

  it('passes with up to 10 plugins, counting each plugin once however many assets it loads', () => {
    expect(run(plugins, F.none)).toEqual(PASS);
    expect(run(plugins, F.ten)).toEqual(PASS);
  });

  it('counts only /wp-content/plugins/, not themes or core', () => {
    expect(run(plugins, F.themeAndCore)).toEqual(PASS);
  });

  it('does not apply to a site that is not WordPress', () => {
    expect(run(plugins, F.notWordPress)).toEqual(NOT_APPLICABLE);
  });

  it('warns from 11 plugins, losing 0.05 a plugin down to 0.2', () => {
    expect(run(plugins, F.eleven)).toEqual(result(0.95, 'wordpress.many-plugins', 'warning', { count: 11 }));
    expect(run(plugins, F.twenty)).toEqual(result(0.5, 'wordpress.many-plugins', 'warning', { count: 20 }));
    expect(run(plugins, F.twentySix)).toEqual(result(0.2, 'wordpress.many-plugins', 'warning', { count: 26 }));
    expect(run(plugins, F.forty)).toEqual(result(0.2, 'wordpress.many-plugins', 'warning', { count: 40 }));
  });
});

describe('wordpress.jquery-migrate', () => {
  const F = WORDPRESS_FIXTURES['wordpress.jquery-migrate'];

  it('passes without jquery-migrate', () => {
    expect(run(jqueryMigrate, F.absent)).toEqual(PASS);
  });

  it('does not apply to a site that is not WordPress', () => {
    expect(run(jqueryMigrate, F.notWordPress)).toEqual(NOT_APPLICABLE);
  });

  it('reports jquery-migrate, minified or not, as info scoring 0.7', () => {
    expect(run(jqueryMigrate, F.minified)).toEqual(result(0.7, 'wordpress.jquery-migrate', 'info'));
    expect(run(jqueryMigrate, F.unminified)).toEqual(result(0.7, 'wordpress.jquery-migrate', 'info'));
  });
});

describe('wordpress.emoji', () => {
  const F = WORDPRESS_FIXTURES['wordpress.emoji'];

  it('passes without the emoji script', () => {
    expect(run(emoji, F.absent)).toEqual(PASS);
  });

  it('does not apply to a site that is not WordPress', () => {
    expect(run(emoji, F.notWordPress)).toEqual(NOT_APPLICABLE);
  });

  it('reports wp-emoji-release, minified or not, as info scoring 0.7', () => {
    expect(run(emoji, F.minified)).toEqual(result(0.7, 'wordpress.emoji-script', 'info'));
    expect(run(emoji, F.unminified)).toEqual(result(0.7, 'wordpress.emoji-script', 'info'));
  });
});

describe('wordpress.page-cache', () => {
  const F = WORDPRESS_FIXTURES['wordpress.page-cache'];
  const noPageCache = result(0.5, 'wordpress.no-page-cache', 'warning');

  it('passes when the HTML may be cached, by browsers or shared caches (s-maxage counts here)', () => {
    expect(run(pageCache, F.maxAge)).toEqual(PASS);
    expect(run(pageCache, F.sharedMaxAge)).toEqual(PASS);
    expect(run(pageCache, F.sharedOverridesMaxAgeZero)).toEqual(PASS);
  });

  it('warns about private HTML, which no shared cache may keep', () => {
    expect(run(pageCache, F.privateMaxAge)).toEqual(noPageCache);
  });

  it('does not apply to a site that is not WordPress', () => {
    expect(run(pageCache, F.notWordPress)).toEqual(NOT_APPLICABLE);
  });

  it('warns, scoring 0.5, when the HTML is not cacheable', () => {
    expect(run(pageCache, F.noCache)).toEqual(noPageCache);
    expect(run(pageCache, F.maxAgeZero)).toEqual(noPageCache);
    expect(run(pageCache, F.noHeaders)).toEqual(noPageCache);
  });

  it('reads Expires relative to the scan time', () => {
    expect(run(pageCache, F.expiresInAnHour)).toEqual(PASS);
    expect(run(pageCache, F.expiresInAnHourScannedLater)).toEqual(noPageCache);
  });

  it("judges the page's document when no response has the final URL exactly", () => {
    expect(run(pageCache, F.mainResponseMissing)).toEqual(noPageCache);
    expect(run(pageCache, F.trailingSlashCached)).toEqual(PASS);
  });
});

describe('every wordpress check', () => {
  it.each(Object.keys(WORDPRESS_FIXTURES))(
    '%s does not apply to any of its fixtures on a site that is not WordPress',
    (id) => {
      const check = [versionExposed, plugins, jqueryMigrate, emoji, pageCache].find((c) => c.id === id)!;
      for (const f of Object.values(WORDPRESS_FIXTURES[id as keyof typeof WORDPRESS_FIXTURES]))
        expect(run(check, elsewhere(f))).toEqual(NOT_APPLICABLE);
    },
  );
});
