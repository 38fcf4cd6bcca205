import { configDefaults, defineConfig } from 'vitest/config';

// Two projects, run one after the other (sequence.groupOrder) so the end-to-end tests do not compete for the
// CPU with the unit tests: `unit` (everything under test/ but test/e2e) and `e2e` (the packaged extension in
// code-server, driven through Chromium; see test/e2e/workbench.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/e2e/**'],
          globalSetup: ['test/globalSetup.ts'],
          testTimeout: 60_000,
          pool: 'forks',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/globalSetup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          pool: 'forks',
          fileParallelism: false,
          // whole objects in assertion messages (the Problems panel's codes per file)
          chaiConfig: { truncateThreshold: 2000 },
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
