import { existsSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';

/** The dead-letter file's name inside the ingest's spool directory (INGEST_SPOOL_DIR). */
export const DEAD_LETTER_FILE = 'dead-letter.jsonl';

/** A spooled JSONEachRow line ClickHouse refused on its own, and its words. */
export interface RefusedRow {
  row: string;
  error: string;
}

/** One row ClickHouse refused for its content: when, ClickHouse's words, and the spooled JSONEachRow line as it was. */
export interface DeadLetterEntry {
  at: string;
  error: string;
  row: string;
}

const MAX_ERROR_CHARS = 500;

/**
 * Rows set aside so that the rows behind them can be stored: one JSON line per row, appended and fdatasynced
 * before the spool moves past them, so a refused row is either still in the spool or here. A crash between the
 * two can write a row here twice (the spool replays it and it is refused again).
 */
export class DeadLetter {
  readonly file: string;

  constructor(spoolDir: string) {
    this.file = join(spoolDir, DEAD_LETTER_FILE);
  }

  async add(refused: readonly RefusedRow[], at: Date): Promise<void> {
    if (refused.length === 0) return;
    const time = at.toISOString();
    const text = refused
      .map(({ row, error }) => JSON.stringify({ at: time, error: error.trim().slice(0, MAX_ERROR_CHARS), row }) + '\n')
      .join('');
    const handle = await open(this.file, 'a');
    try {
      await handle.write(text);
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }
}

/** The entries of a dead-letter file (for operators and tests); none when there is no file. */
export function readDeadLetter(file: string): DeadLetterEntry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as DeadLetterEntry);
}
