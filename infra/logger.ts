import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

/** Structured JSON logs. Credential-bearing fields are redacted wherever they appear. */
export function createLogger(config: Pick<Config, 'logLevel'>, name: string, destination?: DestinationStream): Logger {
  return pino(
    {
      name,
      level: config.logLevel,
      base: { service: name, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.password',
          '*.header_value',
          '*.token',
          'auth',
          '*.auth',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
