import type { FormFactorObservation, ResponseObservation, ScanObservation } from '../../core/scan/observation.ts';

const ORIGIN = 'https://shop.example';

/** When the fixture observations were "scanned": checks read time only from their context. */
export const SCANNED_AT = new Date('2026-03-01T12:00:00Z');

export function response(path: string, overrides: Partial<ResponseObservation> = {}): ResponseObservation {
  return {
    url: `${ORIGIN}${path}`,
    status: 200,
    mimeType: 'text/html',
    resourceType: 'Document',
    protocol: 'h2',
    transferBytes: 5_000,
    resourceBytes: 15_000,
    headers: { 'content-encoding': 'br', 'cache-control': 'public, max-age=600', etag: '"x"' },
    ...overrides,
  };
}

export function formFactor(overrides: Partial<FormFactorObservation> = {}): FormFactorObservation {
  return {
    performanceScore: 0.98,
    metrics: { fcpMs: 800, lcpMs: 1200, cls: 0.01, tbtMs: 20, speedIndexMs: 900, interactiveMs: 1300 },
    observed: { fcpMs: 300, lcpMs: 400 },
    requestCount: 3,
    totalBytes: 60_000,
    benchmarkIndex: 2000,
    audits: {},
    screenshot: 'desktop-final.jpg',
    filmstrip: [],
    ...overrides,
  };
}

/** A clean, fast HTTPS page with cached, compressed, modern assets. Override what a test needs. */
export function cleanObservation(overrides: Partial<ScanObservation> = {}): ScanObservation {
  return {
    requestedUrl: `${ORIGIN}/`,
    finalUrl: `${ORIGIN}/`,
    httpStatus: 200,
    redirects: [],
    ttfbMs: 120,
    generator: null,
    responses: [
      response('/', {
        headers: {
          'content-encoding': 'br',
          'cache-control': 'no-cache',
          'strict-transport-security': 'max-age=63072000',
        },
      }),
      response('/app.js', {
        mimeType: 'application/javascript',
        resourceType: 'Script',
        headers: { 'content-encoding': 'br', 'cache-control': 'public, max-age=31536000, immutable', etag: '"a"' },
      }),
      response('/hero.avif', {
        mimeType: 'image/avif',
        resourceType: 'Image',
        transferBytes: 40_000,
        resourceBytes: 40_000,
        headers: { 'cache-control': 'public, max-age=31536000', etag: '"h"' },
      }),
    ],
    desktop: formFactor(),
    mobile: formFactor({ performanceScore: 0.92, screenshot: 'mobile-final.jpg' }),
    lighthouseVersion: '13.5.0',
    chromiumVersion: 'HeadlessChrome/156.0.7444.59',
    blockedRequests: [],
    ...overrides,
  };
}
