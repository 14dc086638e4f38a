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
 * Chromium refuses to start as root with its sandbox on; as any other user it runs its renderers in their
 * own user and PID namespaces under a seccomp-bpf filter. So the sandbox is turned off only for a root
 * process: the scan runner never is one (a root worker switches it to SCAN_USER), but the test helpers and
 * benchmarks that start Chromium themselves as root are.
 */
export function sandboxFlags(uid: number | undefined = process.getuid?.()): string[] {
  return uid === 0 ? ['--no-sandbox'] : [];
}
