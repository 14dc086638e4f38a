import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, ListBucketsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { loadConfig, type S3AssetsConfig } from '../../infra/config.ts';
import { s3Client } from '../../services/s3-assets.ts';
import { ensureVenvTool } from '../../stack/temporal.ts';
import { freePort } from './isolated.ts';
import { registerSecret, watchLogs } from './log-sink.ts';
import { baseTestEnv } from './shared.ts';

/** moto's server mode speaks the S3 API; pinned like the stack's other PyPI tools. */
const MOTO_VERSION = '5.2.5';

export interface S3TestServer {
  /** ASSETS_BACKEND=s3 and the S3_* variables for its bucket, for api and worker processes. */
  env: Record<string, string>;
  config: S3AssetsConfig;
  /** A client of the test's own, to look into the bucket. */
  client: S3Client;
  /** Every key under the prefix. */
  keys(prefix: string): Promise<string[]>;
  /** Stops the server (its buckets are in memory and go with it). */
  stop(): Promise<void>;
}

/** moto_server from the tools venv, installed on first use (`./svc test` installs it before the lanes). */
export function ensureMotoServer(log: (msg: string) => void): string {
  return ensureVenvTool(loadConfig(baseTestEnv()), log, {
    what: 'moto, an S3-compatible test server',
    pkg: 'moto[server]',
    version: MOTO_VERSION,
    binary: 'moto_server',
  });
}

/**
 * An S3-compatible server of the test file's own (moto_server from PyPI `moto[server]`, installed into the
 * tools venv (config.toolsDir) on first use, as the Temporal tools are), on a free port, with one bucket.
 */
export async function startS3Server(): Promise<S3TestServer> {
  const binary = ensureMotoServer(() => undefined);
  const port = await freePort();
  const child = spawn(binary, ['-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const logSink = watchLogs('moto S3 server', () => output);
  const config: S3AssetsConfig = {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket: `webperf-assets-${randomBytes(4).toString('hex')}`,
    accessKeyId: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(20).toString('base64url'),
    forcePathStyle: true,
  };
  registerSecret(config.secretAccessKey);
  const client = s3Client(config);
  await untilAnswering(client, child, () => output);
  await client.send(new CreateBucketCommand({ Bucket: config.bucket }));
  return {
    env: {
      ASSETS_BACKEND: 's3',
      S3_ENDPOINT: config.endpoint!,
      S3_REGION: config.region,
      S3_BUCKET: config.bucket,
      S3_ACCESS_KEY_ID: config.accessKeyId,
      S3_SECRET_ACCESS_KEY: config.secretAccessKey,
    },
    config,
    client,
    keys: async (prefix) => {
      const page = await client.send(new ListObjectsV2Command({ Bucket: config.bucket, Prefix: prefix }));
      return (page.Contents ?? []).map((object) => object.Key!).sort();
    },
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      logSink.check();
    },
  };
}

async function untilAnswering(client: S3Client, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited (${child.exitCode}): ${output().slice(-2000)}`);
    try {
      await client.send(new ListBucketsCommand({}));
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`moto_server did not answer in 30 s: ${output().slice(-2000)}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
