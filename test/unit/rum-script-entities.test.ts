import { anchorSlug, culpritAnchor, lcpPageAnchor } from '../../core/rum/anchors.ts';
import {
  culpritOf,
  FIRST_PARTY_MARKER,
  hostGroupKey,
  INLINE_KEY,
  isFirstPartyHost,
} from '../../core/rum/script-entities.ts';

describe('script culprits', () => {
  it('count the site’s domain and its subdomains as first party, nothing else', () => {
    expect(isFirstPartyHost('example.com', 'example.com')).toBe(true);
    expect(isFirstPartyHost('static.shop.example.com', 'example.com')).toBe(true);
    expect(isFirstPartyHost('Example.COM', 'example.com')).toBe(true);
    expect(isFirstPartyHost('badexample.com', 'example.com')).toBe(false);
    expect(isFirstPartyHost('example.com.evil.net', 'example.com')).toBe(false);
    expect(isFirstPartyHost('example.com', 'www.example.com')).toBe(false);
  });

  it('group third-party hosts by third-party-web entity, unknown hosts by host, first-party by URL', () => {
    expect(hostGroupKey('cdn.example.com', 'example.com')).toBe(FIRST_PARTY_MARKER);
    expect(culpritOf(hostGroupKey('www.google-analytics.com', 'example.com'))).toEqual({
      kind: 'third-party',
      name: 'Google Analytics',
      entity: 'Google Analytics',
    });
    expect(hostGroupKey('ssl.google-analytics.com', 'example.com')).toBe(
      hostGroupKey('www.google-analytics.com', 'example.com'),
    );
    expect(culpritOf(hostGroupKey('widgets.unknown-vendor.test', 'example.com'))).toEqual({
      kind: 'third-party',
      name: 'widgets.unknown-vendor.test',
      entity: null,
    });
    expect(hostGroupKey('', 'example.com')).toBe(INLINE_KEY);
    expect(culpritOf(`${FIRST_PARTY_MARKER}https://example.com/app.js`)).toEqual({
      kind: 'first-party',
      name: 'https://example.com/app.js',
      entity: null,
    });
    expect(culpritOf(INLINE_KEY)).toEqual({ kind: 'inline', name: '', entity: null });
  });

  it('give each culprit a stable, readable anchor', () => {
    expect(culpritAnchor({ kind: 'third-party', name: 'Google Analytics', entity: 'Google Analytics' })).toBe(
      'culprit-google-analytics',
    );
    expect(culpritAnchor({ kind: 'first-party', name: 'https://example.com/js/App.min.js', entity: null })).toBe(
      'culprit-example-com-js-app-min-js',
    );
    expect(culpritAnchor({ kind: 'inline', name: '', entity: null })).toBe('culprit-inline');
    expect(lcpPageAnchor('/')).toBe('lcp-page-root');
    expect(lcpPageAnchor('/products/shoes')).toBe('lcp-page-products-shoes');
    expect(anchorSlug('/Produkte/Schuhe--neu/')).toBe('produkte-schuhe-neu');
    expect(anchorSlug('x'.repeat(200))).toHaveLength(80);
  });
});
