// Types of tools/browsers.js (plain JavaScript, so that the web-test-runner config can import it too).
export declare const CHROMIUM_PATH: string;
export declare const CHROMIUM_ARGS: string[];
export declare const FIREFOX_PATH: string;
export declare const FIREFOX_PREFS: Record<string, boolean>;
export declare const WEBKIT_DRIVER_PATH: string;
