import { labEvidence, sameElement, scriptKey } from '../../core/rum/lab-field.ts';
import type { Diagnostics } from '../../core/scan/details.ts';
import type { Finding } from '../../core/scoring/types.ts';

describe('lab and field matching', () => {
  it('names a script by origin and path only, and nothing that is not http(s)', () => {
    expect(scriptKey('https://cdn.example.com/a/app.js?v=3#x')).toBe('https://cdn.example.com/a/app.js');
    expect(scriptKey('http://127.0.0.1:8080/w.js')).toBe('http://127.0.0.1:8080/w.js');
    expect(scriptKey('data:text/javascript,1')).toBeNull();
    expect(scriptKey('not a url')).toBeNull();
  });

  it("matches Lighthouse's and web-vitals' selectors of one element, not a bare tag", () => {
    expect(sameElement('body > main > img.hero.big', 'main>img.big.hero')).toBe(true);
    expect(sameElement('div#app > img', 'img')).toBe(false);
    expect(sameElement('img#hero', 'section>img#hero')).toBe(true);
    expect(sameElement('main#view > img#hero.big', '#hero')).toBe(true);
    expect(sameElement('img#hero', '#other')).toBe(false);
    expect(sameElement('main > img', 'img')).toBe(false);
    expect(sameElement('main > img.hero', 'aside>img.hero')).toBe(false);
    expect(sameElement('main > img', 'main>img')).toBe(true);
    expect(sameElement('', 'main>img')).toBe(false);
  });

  it("collects a scan's scripts by finding, its entities and its LCP elements", () => {
    const finding = (code: string, urls: string[]): Finding => ({
      category: 'speed',
      code,
      severity: 'warning',
      params: {},
      items: urls.map((url) => ({ url })),
    });
    const diagnostics = (selector: string | null, entities: string[]): Diagnostics => ({
      lcp: { element: selector ? { selector, snippet: '', label: '', box: null } : null, phases: null },
      layout_shifts: [],
      render_blocking: [],
      third_parties: entities.map((entity) => ({ entity, recognized: true, transfer_bytes: 1, main_thread_ms: 1 })),
      main_thread: [],
    });
    const evidence = labEvidence({
      findings: [
        finding('main_thread_scripts', ['https://t.example/w.js?x=1', 'https://a.example/app.js']),
        finding('unused_javascript', ['https://t.example/w.js', 'data:x']),
      ],
      diagnostics: {
        desktop: diagnostics('main > img.hero', ['Widgets Inc']),
        mobile: diagnostics('main > img.hero', []),
      },
    });
    expect([...evidence.scripts].map(([key, findings]) => [key, findings.map((f) => f.code)])).toEqual([
      ['https://t.example/w.js', ['main_thread_scripts', 'unused_javascript']],
      ['https://a.example/app.js', ['main_thread_scripts']],
    ]);
    expect([...evidence.entities]).toEqual(['Widgets Inc']);
    expect(evidence.lcpElements).toEqual(['main > img.hero']);
  });
});
