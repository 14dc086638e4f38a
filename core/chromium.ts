/**
 * Headless Chromium flags that work here as root and keep the browser off the network except for the
 * page under test (no background services, no component updates, no QUIC).
 */
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];
