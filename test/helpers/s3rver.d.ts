// The part of s3rver 3.7.1 (which ships no types) that the test helpers use; see node_modules/s3rver/README.md.
declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface BucketConfig {
    name: string;
    /** Raw CORS or website configuration XML. */
    configs?: (string | Buffer)[];
  }

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: BucketConfig[];
  }

  class S3rver {
    constructor(options?: S3rverOptions);
    /** Creates the configured buckets (and their configs) in the data directory. */
    configureBuckets(): Promise<void>;
    /** A request listener for a server of our own. */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    run(): Promise<{ address: string; port: number; family: string }>;
    close(): Promise<void>;
  }

  export = S3rver;
}
