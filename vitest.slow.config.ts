// `npm run test:slow`: the tests that assert wall-clock time or memory growth, one file at a time, so that none of
// them measures another's load. Their margins are chosen for a loaded 2-core machine; each file says which and why.
import { defineConfig } from 'vitest/config';
import base, { SLOW_TESTS } from './vitest.config.ts';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [SLOW_TESTS],
    exclude: base.test?.exclude?.filter((pattern) => pattern !== SLOW_TESTS),
    fileParallelism: false,
  },
});
