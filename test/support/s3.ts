// A real S3-API server for tests (s3rver in a child process, objects on disk under the test
// run's temporary folder), and a client for putting media into it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { CreateBucketCommand, DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PROJECT_DIR } from '../../infra/project';
import { tempDir } from './instance';

/** s3rver's built-in credentials. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface LocalS3 {
  endpoint: string;
  client: S3Client;
  put(bucket: string, key: string, body: Buffer): Promise<void>;
  remove(bucket: string, key: string): Promise<void>;
  /** The keys below a prefix (one page: the tests' buckets are small). */
  list(bucket: string, prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

export const startS3 = async (buckets: string[]): Promise<LocalS3> => {
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '--import', 'tsx', join(PROJECT_DIR, 'test/support/s3-server.ts'), tempDir('s3')],
    {
      cwd: PROJECT_DIR,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) while starting`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  for (const Bucket of buckets) await client.send(new CreateBucketCommand({ Bucket }));
  return {
    endpoint,
    client,
    // A Buffer body, so the SDK knows its length.
    put: async (Bucket, Key, Body) => void (await client.send(new PutObjectCommand({ Bucket, Key, Body }))),
    remove: async (Bucket, Key) => void (await client.send(new DeleteObjectCommand({ Bucket, Key }))),
    list: async (Bucket, Prefix) => ((await client.send(new ListObjectsV2Command({ Bucket, Prefix }))).Contents ?? []).map((o) => o.Key!),
    close: async () => {
      client.destroy();
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
    },
  };
};
