// Types of tools/webkit-driver.js (plain JavaScript, so that the web-test-runner config can import it too).
export interface WebKitDriver {
  hostname: string;
  port: number;
  stop(): Promise<void>;
}
export declare function startWebKitDriver(options?: { timeoutMs?: number }): Promise<WebKitDriver>;
export declare const WEBKIT_CAPABILITIES: { browserName: string; 'wdio:enforceWebDriverClassic': boolean };
