/** SIGKILL to a whole process group (the runner's, or Chromium's, which puppeteer detaches); gone is fine. */
export function killProcessGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}
