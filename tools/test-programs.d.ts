// Types of tools/test-programs.js (plain JavaScript, so that the web-test-runner config can import it too).
export declare const PGBOUNCER_PATH: string;
export declare const NGINX_PATH: string;
export declare const XVFB_PATH: string;
export declare const POSTGRES_PACKAGE: string;

export interface TestProgram {
  name: string;
  /** An absolute path, or a bare name looked up on PATH. */
  path: string;
  /** The Debian package that provides it. */
  apt: string;
  /** What needs it. */
  for: string;
  /** The variable that points the tests at another copy. */
  override?: string;
  /** Whether that variable is set, so that `path` is the user's choice and installing a package would not change it. */
  overridden: boolean;
  /** Another way to do without it. */
  instead?: string;
}
/** The executable file `program` names (a path, or a name looked up on PATH as spawn does), or undefined. */
export declare function which(program: string, searchPath?: string): string | undefined;
export declare function testPrograms(): TestProgram[];
