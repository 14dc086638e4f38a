import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

/**
 * The ingest service's write-ahead spool. Every accepted beacon is appended as one record and fsynced
 * (fdatasync) before the beacon is acknowledged; records arriving while a sync runs are written and synced
 * together by the next one (group commit: no timer, a group is whatever waited). The flusher (flusher.ts)
 * reads the synced records in order and inserts them into ClickHouse; a file whose records are all inserted
 * is deleted. So the same path serves a healthy ClickHouse (files stay small and short-lived, the page cache
 * answers the reads) and an outage (files pile up, bounded by `maxBytes`, and are replayed in order).
 *
 * Files: `seg-<16 digits>.log`, append-only. Record: 4-byte payload length, 2-byte row count, 4-byte CRC-32 of
 * the payload (big-endian), then the payload (the beacon's rows as JSONEachRow lines). A record cut short by a
 * crash, or whose checksum does not match, ends the file: it was never acknowledged. `cursor.json` remembers
 * how far inserts got (written without fsync: losing it only means rows inserted again, which queries dedupe).
 * `lock` holds the owner's pid: one process per directory.
 */

const HEADER_BYTES = 10;
/** Records waiting for their sync, at most (beyond: 503 until the disk catches up). */
const MAX_PENDING_BYTES = 32 * 1024 * 1024;
const SEGMENT_PATTERN = /^seg-(\d{16})\.log$/;
const segmentName = (id: number) => `seg-${String(id).padStart(16, '0')}.log`;

export class SpoolFullError extends Error {}

interface Segment {
  id: number;
  /** Synced bytes (for the segment being written) or the file's length (for closed ones). */
  size: number;
  rows: number;
  closed: boolean;
}

export interface SpoolBatch {
  /** The records' payloads, back to back: JSONEachRow text ready for an INSERT. */
  data: Buffer;
  rows: number;
  records: number;
  segmentId: number;
  endOffset: number;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface SpoolOptions {
  dir: string;
  maxBytes: number;
  /** false: a record counts as written once the kernel has it (survives the process, not the machine). */
  fsync?: boolean;
  segmentBytes?: number;
  /** Told when a record in the middle of a file is damaged (disk corruption; the rest of that file is skipped). */
  onCorrupt?: (file: string, offset: number) => void;
  /** Told after each group sync: how long the write and fdatasync took, and how many records they carried. */
  onSync?: (seconds: number, records: number) => void;
}

export class Spool {
  private readonly dir: string;
  private readonly maxBytes: number;
  private readonly fsync: boolean;
  private readonly segmentBytes: number;
  private readonly onCorrupt: (file: string, offset: number) => void;
  private readonly onSync: (seconds: number, records: number) => void;
  private readonly segments: Segment[];
  private writer: FileHandle | null = null;
  private pending: Buffer[] = [];
  private pendingWaiters: Waiter[] = [];
  private pendingRows = 0;
  private pendingBytes = 0;
  private syncing = false;
  private closed = false;
  private cursor: { segmentId: number; offset: number };
  private readonly listeners = new Set<() => void>();
  /** Rows synced to disk and not yet consumed by the flusher; bytes likewise (spool size for the limit). */
  spooledRows = 0;
  spooledBytes = 0;

  private constructor(options: SpoolOptions, segments: Segment[], cursor: { segmentId: number; offset: number }) {
    this.dir = options.dir;
    this.maxBytes = options.maxBytes;
    this.fsync = options.fsync ?? true;
    this.segmentBytes = options.segmentBytes ?? 16 * 1024 * 1024;
    this.onCorrupt = options.onCorrupt ?? (() => undefined);
    this.onSync = options.onSync ?? (() => undefined);
    this.segments = segments;
    this.cursor = cursor;
  }

  /** Opens (creating) the directory, takes its lock, recovers what a previous process left, and starts a new file. */
  static async open(options: SpoolOptions): Promise<Spool> {
    mkdirSync(options.dir, { recursive: true });
    takeLock(options.dir);
    const segments: Segment[] = readdirSync(options.dir)
      .map((name) => SEGMENT_PATTERN.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b)
      .map((id) => ({ id, size: 0, rows: 0, closed: true }));
    const saved = readCursor(options.dir);
    let cursor = { segmentId: segments[0]?.id ?? 1, offset: 0 };
    if (saved && segments.some((s) => s.id === saved.segmentId)) cursor = saved;
    const spool = new Spool(options, segments, cursor);
    for (const segment of [...segments]) spool.recover(segment);
    const nextId = (segments.at(-1)?.id ?? 0) + 1;
    await spool.openSegment(nextId);
    if (segments.length === 1) spool.cursor = { segmentId: nextId, offset: 0 };
    return spool;
  }

  /** Reads a file left by an earlier process: its valid records count, a damaged tail is cut off. */
  private recover(segment: Segment): void {
    const path = join(this.dir, segmentName(segment.id));
    if (segment.id < this.cursor.segmentId) {
      unlinkSync(path);
      this.segments.splice(this.segments.indexOf(segment), 1);
      return;
    }
    const data = readFileSync(path);
    let offset = 0;
    let rows = 0;
    let rowsBeforeCursor = 0;
    while (offset + HEADER_BYTES <= data.length) {
      const length = data.readUInt32BE(offset);
      const end = offset + HEADER_BYTES + length;
      if (end > data.length || crc32(data.subarray(offset + HEADER_BYTES, end)) !== data.readUInt32BE(offset + 6))
        break;
      if (segment.id === this.cursor.segmentId && end <= this.cursor.offset)
        rowsBeforeCursor += data.readUInt16BE(offset + 4);
      rows += data.readUInt16BE(offset + 4);
      offset = end;
    }
    if (offset < data.length) writeFileSync(path, data.subarray(0, offset));
    segment.size = offset;
    segment.rows = rows;
    if (segment.id === this.cursor.segmentId) {
      if (this.cursor.offset > offset) this.cursor = { segmentId: segment.id, offset: 0 };
      else rows -= rowsBeforeCursor;
    }
    this.spooledRows += rows;
    this.spooledBytes += segment.size - (segment.id === this.cursor.segmentId ? this.cursor.offset : 0);
  }

  private async openSegment(id: number): Promise<void> {
    this.writer = await open(join(this.dir, segmentName(id)), 'a');
    this.segments.push({ id, size: 0, rows: 0, closed: false });
  }

  /** Whether the spool can take beacons: below 90 % of its size bound and not behind with its syncs. */
  get hasRoom(): boolean {
    return (
      !this.closed &&
      this.spooledBytes + this.pendingBytes < this.maxBytes * 0.9 &&
      this.pendingBytes <= MAX_PENDING_BYTES
    );
  }

  /** Beacons waiting for their sync (the in-memory buffer). */
  get bufferedRecords(): number {
    return this.pendingWaiters.length;
  }

  /** Appends one record; resolves once it is on disk (fdatasync), rejects when it cannot be written or the spool is full. */
  append(payload: Buffer, rows: number): Promise<void> {
    if (this.closed) return Promise.reject(new Error('spool closed'));
    if (this.spooledBytes + this.pendingBytes + payload.length > this.maxBytes)
      return Promise.reject(new SpoolFullError('spool full'));
    // The in-memory buffer is bounded too: a disk that stops answering must not fill the heap.
    if (this.pendingBytes > MAX_PENDING_BYTES) return Promise.reject(new SpoolFullError('spool sync behind'));
    const header = Buffer.allocUnsafe(HEADER_BYTES);
    header.writeUInt32BE(payload.length, 0);
    header.writeUInt16BE(rows, 4);
    header.writeUInt32BE(crc32(payload), 6);
    this.pending.push(header, payload);
    this.pendingRows += rows;
    this.pendingBytes += HEADER_BYTES + payload.length;
    const done = new Promise<void>((resolve, reject) => this.pendingWaiters.push({ resolve, reject }));
    if (!this.syncing) void this.syncLoop();
    return done;
  }

  private async syncLoop(): Promise<void> {
    this.syncing = true;
    while (this.pending.length > 0) {
      const chunks = this.pending;
      const waiters = this.pendingWaiters;
      const rows = this.pendingRows;
      const bytes = this.pendingBytes;
      this.pending = [];
      this.pendingWaiters = [];
      this.pendingRows = 0;
      this.pendingBytes = 0;
      const segment = this.segments.at(-1)!;
      const started = performance.now();
      try {
        // The write only reaches the page cache (microseconds), so it is done here; the sync waits off the loop.
        writeSync(this.writer!.fd, Buffer.concat(chunks, bytes));
        if (this.fsync) await this.writer!.datasync();
        else await new Promise<void>((r) => setImmediate(r));
      } catch (error) {
        // Leave the file as it was before this group, so the records after it stay readable.
        await this.writer!.truncate(segment.size).catch(() => undefined);
        for (const waiter of waiters) waiter.reject(error as Error);
        continue;
      }
      this.onSync((performance.now() - started) / 1000, waiters.length);
      segment.size += bytes;
      segment.rows += rows;
      this.spooledRows += rows;
      this.spooledBytes += bytes;
      for (const waiter of waiters) waiter.resolve();
      for (const listener of this.listeners) listener();
      if (segment.size >= this.segmentBytes && !this.closed) await this.rotate();
    }
    this.syncing = false;
  }

  private async rotate(): Promise<void> {
    const current = this.segments.at(-1)!;
    await this.writer!.close();
    current.closed = true;
    await this.openSegment(current.id + 1);
  }

  /** Called after each sync (the flusher waits on it). */
  onSynced(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The next synced records from the cursor on, at most `maxRows` rows (at least one record), or null when none. */
  async read(maxRows: number): Promise<SpoolBatch | null> {
    for (;;) {
      const segment = this.segments.find((s) => s.id === this.cursor.segmentId);
      if (!segment) return null;
      if (this.cursor.offset >= segment.size) {
        if (!segment.closed) return null;
        this.dropSegment(segment);
        continue;
      }
      const batch = await this.readFrom(segment, maxRows);
      if (batch) return batch;
    }
  }

  private async readFrom(segment: Segment, maxRows: number): Promise<SpoolBatch | null> {
    const path = join(this.dir, segmentName(segment.id));
    const available = segment.size - this.cursor.offset;
    // Records hold at most 20 rows of under 2 KB each; read enough for maxRows of typical size, then cut.
    const length = Math.min(available, Math.max(64 * 1024, maxRows * 600));
    const handle = await open(path, 'r');
    const buffer = Buffer.allocUnsafe(length);
    try {
      await handle.read(buffer, 0, length, this.cursor.offset);
    } finally {
      await handle.close();
    }
    const payloads: Buffer[] = [];
    let offset = 0;
    let rows = 0;
    while (offset + HEADER_BYTES <= length) {
      const payloadLength = buffer.readUInt32BE(offset);
      const recordRows = buffer.readUInt16BE(offset + 4);
      const end = offset + HEADER_BYTES + payloadLength;
      if (end > length) break;
      if (rows > 0 && rows + recordRows > maxRows) break;
      const payload = buffer.subarray(offset + HEADER_BYTES, end);
      if (crc32(payload) !== buffer.readUInt32BE(offset + 6)) {
        this.onCorrupt(path, this.cursor.offset + offset);
        // Nothing after a damaged record can be trusted in this file: skip to its end.
        this.consume(segment, segment.size - this.cursor.offset, segment.rows);
        return null;
      }
      payloads.push(payload);
      rows += recordRows;
      offset = end;
    }
    if (payloads.length === 0) return null;
    return {
      data: Buffer.concat(payloads),
      rows,
      records: payloads.length,
      segmentId: segment.id,
      endOffset: this.cursor.offset + offset,
    };
  }

  /** Marks a batch from read() as inserted: the cursor moves past it, and a finished file is deleted. */
  consumed(batch: SpoolBatch): void {
    const segment = this.segments.find((s) => s.id === batch.segmentId);
    if (!segment || this.cursor.segmentId !== batch.segmentId) return;
    this.consume(segment, batch.endOffset - this.cursor.offset, batch.rows);
  }

  private consume(segment: Segment, bytes: number, rows: number): void {
    this.cursor = { segmentId: segment.id, offset: this.cursor.offset + bytes };
    this.spooledBytes -= bytes;
    this.spooledRows = Math.max(0, this.spooledRows - rows);
    if (segment.closed && this.cursor.offset >= segment.size) this.dropSegment(segment);
    else this.saveCursorSoon();
  }

  private cursorTimer: NodeJS.Timeout | null = null;

  /**
   * The read position is saved at most once a second, off the hot path: a lost or stale one only means rows
   * inserted again after a crash (identical copies, which queries dedupe).
   */
  private saveCursorSoon(): void {
    if (this.cursorTimer || this.closed) return;
    this.cursorTimer = setTimeout(() => {
      this.cursorTimer = null;
      if (!this.closed) writeCursor(this.dir, this.cursor);
    }, 1000);
    this.cursorTimer.unref();
  }

  private dropSegment(segment: Segment): void {
    const index = this.segments.indexOf(segment);
    const next = this.segments[index + 1];
    if (!next) return;
    this.segments.splice(index, 1);
    this.cursor = { segmentId: next.id, offset: 0 };
    writeCursor(this.dir, this.cursor);
    try {
      unlinkSync(join(this.dir, segmentName(segment.id)));
    } catch {
      // Already gone: nothing to do.
    }
  }

  /** Waits for records in flight to be synced, then closes the file; what is not inserted stays for the next start. */
  async close(): Promise<void> {
    while (this.syncing || this.pending.length > 0) await new Promise((r) => setTimeout(r, 5));
    this.closed = true;
    if (this.cursorTimer) clearTimeout(this.cursorTimer);
    this.cursorTimer = null;
    writeCursor(this.dir, this.cursor);
    await this.writer?.close();
    this.writer = null;
    // Everything inserted (a clean drain): nothing is worth keeping.
    const last = this.segments.at(-1);
    if (last && this.segments.length === 1 && this.cursor.segmentId === last.id && this.cursor.offset >= last.size) {
      for (const name of [segmentName(last.id), 'cursor.json']) {
        try {
          unlinkSync(join(this.dir, name));
        } catch {
          // Fine either way.
        }
      }
    }
    releaseLock(this.dir);
    try {
      rmdirSync(this.dir); // only when empty: a clean stop with everything inserted leaves nothing behind
    } catch {
      // Files remain for the next start.
    }
  }
}

function readCursor(dir: string): { segmentId: number; offset: number } | null {
  try {
    const value = JSON.parse(readFileSync(join(dir, 'cursor.json'), 'utf8')) as {
      segmentId?: unknown;
      offset?: unknown;
    };
    if (Number.isSafeInteger(value.segmentId) && Number.isSafeInteger(value.offset) && (value.offset as number) >= 0) {
      return { segmentId: value.segmentId as number, offset: value.offset as number };
    }
  } catch {
    // Missing or torn: start at the oldest file (rows already inserted are inserted again and deduped).
  }
  return null;
}

function writeCursor(dir: string, cursor: { segmentId: number; offset: number }): void {
  const file = join(dir, 'cursor.json');
  writeFileSync(`${file}.tmp`, JSON.stringify(cursor));
  renameSync(`${file}.tmp`, file);
}

function takeLock(dir: string): void {
  const file = join(dir, 'lock');
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) {
      throw new Error(
        `spool directory ${dir} is in use by process ${pid}; give each ingest instance its own INGEST_SPOOL_DIR`,
      );
    }
    unlinkSync(file);
  }
  const fd = openSync(file, 'wx');
  writeFileSync(fd, String(process.pid));
  closeSync(fd);
}

function releaseLock(dir: string): void {
  try {
    unlinkSync(join(dir, 'lock'));
  } catch {
    // Fine.
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Files and bytes in a spool directory (for tests and operators). */
export function spoolFiles(dir: string): Array<{ name: string; bytes: number }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => SEGMENT_PATTERN.test(n))
    .sort()
    .map((name) => ({ name, bytes: statSync(join(dir, name)).size }));
}
