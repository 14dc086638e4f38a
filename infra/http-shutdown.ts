import type { Server } from 'node:http';

/**
 * Stops taking connections and waits for open requests to finish. Keep-alive connections become idle once
 * their request is answered and are closed as they do; after `graceMs` whatever is left is cut.
 * Resolves true when every request finished in time.
 */
export function closeGracefully(server: Server, graceMs: number): Promise<boolean> {
  return new Promise((done) => {
    let clean = true;
    const closeIdle = setInterval(() => server.closeIdleConnections(), 100);
    const cut = setTimeout(() => {
      clean = false;
      server.closeAllConnections();
    }, graceMs);
    server.close(() => {
      clearInterval(closeIdle);
      clearTimeout(cut);
      done(clean);
    });
    server.closeIdleConnections();
  });
}
