/** Fail loudly when a process starts on the wrong Node (e.g. the machine's Node 20 instead of the pinned 24). */
export function assertNodeVersion(minMajor = 24): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < minMajor) {
    console.error(
      `This service needs Node ${minMajor}+ but is running on ${process.version}. ` +
        'Run it through npm scripts or ./svc so the project-pinned Node in node_modules/.bin is used.',
    );
    process.exit(1);
  }
}
