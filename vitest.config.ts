// Node-side tests: unit tests beside their code, cross-part tests in test/. Browser tests run in web-test-runner.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'cli/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'widget/**'],
    environment: 'node',
    // Records issued keys and server logs for the run; its teardown fails the run if any log holds a key.
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
