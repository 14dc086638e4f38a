/**
 * Headless Chromium flags that keep the browser off the network except for the page under test (no
 * background services, no component updates, no QUIC). Chromium's sandbox stays on: see sandboxFlags().
 */
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

/**
 * What a Chromium that Lighthouse drives needs on top of CHROMIUM_FLAGS (the scan and flow runners, our own page
 * audits, the benchmarks' floors): Chromium's RenderDocument feature off, as Lighthouse's own launcher
 * (chrome-launcher) turns it off and puppeteer does not. With it on, a navigation gets a new document in a new
 * frame, and the violation report Lighthouse sets up before navigating (Log.startViolationsReport) is lost with the
 * old one: Chromium then reports no discouraged API use of the page (document.write, geolocation or notification
 * permission asked on load), so no document.write finding, and Lighthouse's geolocation-on-start and
 * notification-on-start audits pass pages that fail them. puppeteer merges this into its own --disable-features.
 * docs/decisions/0028-lighthouse-chromium-without-render-document.md.
 */
export const LIGHTHOUSE_CHROMIUM_FLAGS = ['--disable-features=RenderDocument'];

/**
 * Chromium refuses to start as root with its sandbox on; as any other user it runs its renderers in their
 * own user and PID namespaces under a seccomp-bpf filter. So the sandbox is turned off only for a root
 * process: the scan runner never is one (a root worker switches it to SCAN_USER), but the test helpers and
 * benchmarks that start Chromium themselves as root are.
 */
export function sandboxFlags(uid: number | undefined = process.getuid?.()): string[] {
  return uid === 0 ? ['--no-sandbox'] : [];
}
