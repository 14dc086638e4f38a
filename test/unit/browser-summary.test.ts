import { browserSummary } from '../../web/settings/user-agent.ts';

it('names the browser with its major version and the system', () => {
  expect(
    browserSummary(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    ),
  ).toBe('Chrome 131 · Linux');
  expect(
    browserSummary(
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91',
    ),
  ).toBe('Edge 120 · Windows');
  expect(browserSummary('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0')).toBe(
    'Firefox 121 · macOS',
  );
  expect(
    browserSummary(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
    ),
  ).toBe('Safari 17 · iOS');
  expect(
    browserSummary(
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    ),
  ).toBe('Chrome 131 · Android');
});

it('says nothing it cannot tell', () => {
  expect(browserSummary(null)).toBeNull();
  expect(browserSummary('')).toBeNull();
  expect(browserSummary('something/1.0')).toBeNull();
  expect(browserSummary('curl/8.5.0')).toBe('curl 8');
});
