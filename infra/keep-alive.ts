/**
 * How long the api and ingest servers keep an idle keep-alive connection: longer than the 60 s idle timeout of
 * common load balancers, so that the balancer, not the server, closes it first. Node's default (5 s) lets a
 * client reuse a connection just as the server closes it, which the client sees as ECONNRESET.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
