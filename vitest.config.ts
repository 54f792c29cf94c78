// Node-side tests: unit tests beside their code, cross-part tests in test/. Browser tests run in web-test-runner.
import { defineConfig } from 'vitest/config';

/**
 * Tests that assert wall-clock time or memory growth (`*.slow.test.ts`): they run alone in `npm run test:slow`
 * (vitest.slow.config.ts), where no other test file competes for the machine, and never in `npm test`.
 */
export const SLOW_TESTS = '**/*.slow.test.ts';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'cli/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'widget/**', SLOW_TESTS],
    environment: 'node',
    // Records issued keys and server logs for the run; its teardown fails the run if any log holds a key.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
