/**
 * The files in S3-compatible object storage (FILE_STORAGE_URL): AWS S3,
 * MinIO, Ceph, a provider's S3 service. Every instance behind the load
 * balancer reads and writes the same bucket, so a photo written through one
 * is read through another. What goes up is already sealed (AES-256-GCM,
 * bound to its key; lib/file-storage.ts): the storage provider never holds a
 * readable image, and the key never leaves the servers.
 *
 * Objects are named `<prefix>/<2 first characters>/<key>.bin`, the layout of
 * DATA_DIR/files, so moving from disk to a bucket is a copy of the folder
 * (`aws s3 sync DATA_DIR/files s3://bucket/prefix`).
 *
 * A missing object reads as null (the caller answers 404 FILE_UNAVAILABLE);
 * a store that does not answer, refuses the credentials or fails is AppError
 * FILE_STORAGE_UNAVAILABLE (503), with the cause kept for the log.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { SERVER_ERRORS } from '@exame/shared';
import type { FileStorageTarget, ObjectStorageTarget } from '../config/env';
import { AppError } from './app-error';
import {
  createDiskStore,
  keyOfStoredName,
  storedName,
  type FileStore,
  type StoredFile,
} from './file-storage';

export type ObjectStoreOptions = {
  /** Longest wait for a connection, and for a whole request, in milliseconds. */
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Attempts per call (the SDK's retries with backoff); default 3. */
  maxAttempts?: number;
};

/** The store's failure as the API answers it: 503, the cause kept for the log. */
function unavailable(cause: unknown): AppError {
  const error = AppError.from(SERVER_ERRORS, 'FILE_STORAGE_UNAVAILABLE');
  error.cause = cause;
  return error;
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

export function describeObjectStorage(target: ObjectStorageTarget): string {
  return `s3://${target.bucket}${target.prefix ? `/${target.prefix}` : ''}${
    target.endpoint ? ` em ${target.endpoint}` : ''
  }`;
}

export function createObjectStore(
  target: ObjectStorageTarget,
  options: ObjectStoreOptions = {},
): FileStore & {
  /** Checks that the bucket answers with these credentials (start-up). */
  check: () => Promise<void>;
  close: () => void;
} {
  const client = new S3Client({
    region: target.region,
    endpoint: target.endpoint,
    forcePathStyle: target.forcePathStyle,
    credentials: target.credentials,
    maxAttempts: options.maxAttempts ?? 3,
    requestHandler: {
      connectionTimeout: options.connectionTimeoutMs ?? 3_000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
    },
    // Checksums only where S3 requires them: many S3-compatible servers do
    // not know the newer checksum headers; GCM's tag already proves integrity.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const base = target.prefix ? `${target.prefix}/` : '';
  const objectKey = (key: string) => `${base}${storedName(key)}`;

  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw error instanceof AppError ? error : unavailable(error);
    }
  };

  return {
    location: describeObjectStorage(target),

    write: (key, sealed) =>
      call(async () => {
        await client.send(
          new PutObjectCommand({
            Bucket: target.bucket,
            Key: objectKey(key),
            Body: sealed,
            ContentType: 'application/octet-stream',
          }),
        );
      }),

    read: (key) =>
      call(async () => {
        try {
          const answer = await client.send(
            new GetObjectCommand({ Bucket: target.bucket, Key: objectKey(key) }),
          );
          if (!answer.Body) return null;
          return Buffer.from(await answer.Body.transformToByteArray());
        } catch (error) {
          if ((error as { name?: string }).name === 'NoSuchKey' || statusOf(error) === 404) {
            return null;
          }
          throw error;
        }
      }),

    remove: (key) =>
      call(async () => {
        // Deleting a missing object succeeds on S3, as `rm -f` does on disk.
        await client.send(new DeleteObjectCommand({ Bucket: target.bucket, Key: objectKey(key) }));
      }),

    list: () =>
      call(async () => {
        const found: StoredFile[] = [];
        let token: string | undefined;
        do {
          const page = await client.send(
            new ListObjectsV2Command({
              Bucket: target.bucket,
              Prefix: base,
              ContinuationToken: token,
            }),
          );
          for (const object of page.Contents ?? []) {
            const key = object.Key ? keyOfStoredName(object.Key.slice(base.length)) : null;
            if (key) found.push({ key, modifiedAt: object.LastModified ?? new Date(0) });
          }
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
        return found;
      }),

    check: () =>
      call(async () => {
        await client.send(new HeadBucketCommand({ Bucket: target.bucket }));
      }),

    close: () => client.destroy(),
  };
}

/** The configured store: DATA_DIR/files, or the bucket of FILE_STORAGE_URL. */
export function fileStoreFor(
  target: FileStorageTarget,
  options: ObjectStoreOptions = {},
): FileStore & { close: () => void } {
  if (target.kind === 'disk') return { ...createDiskStore(target.root), close: () => undefined };
  return createObjectStore(target, options);
}
