/** A browser and system in a few words from a User-Agent header, e.g. "Chrome 131 on Linux"; null when unknown. */
export function browserSummary(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browsers: Array<[string, RegExp]> = [
    ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
    ['Opera', /OPR\/(\d+)/],
    ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
    ['Chrome', /(?:HeadlessChrome|Chrome|CriOS)\/(\d+)/],
    ['Safari', /Version\/(\d+)[\d.]* (?:Mobile\/\w+ )?Safari\//],
    ['curl', /^curl\/(\d+)/],
  ];
  const systems: Array<[string, RegExp]> = [
    ['Android', /Android/],
    ['iOS', /iPhone|iPad|iPod/],
    ['Windows', /Windows/],
    ['macOS', /Mac OS X|Macintosh/],
    ['ChromeOS', /CrOS/],
    ['Linux', /Linux/],
  ];
  const browser = browsers.find(([, pattern]) => pattern.test(userAgent));
  const system = systems.find(([, pattern]) => pattern.test(userAgent))?.[0];
  const name = browser ? `${browser[0]} ${browser[1].exec(userAgent)![1]}` : null;
  if (name && system) return `${name} · ${system}`;
  return name ?? system ?? null;
}
