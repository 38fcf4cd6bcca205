import { configDefaults, defineConfig } from 'vitest/config';

// Three projects, run one after the other (sequence.groupOrder) so that they do not compete for the CPU: `unit`
// (everything under test/ but test/e2e and the fidelity run), `e2e` (the packaged extension in code-server, driven
// through Chromium; see test/e2e/workbench.ts) and `fidelity` (the simulation against the real GC: docs/fidelity.md).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/e2e/**', 'test/fidelity/fidelity.test.ts'],
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
      {
        // Thousands of scenarios on a real control plane (test/fidelity): alone, so that they neither slow the
        // other suites into their timeouts nor are slowed by them.
        test: {
          name: 'fidelity',
          include: ['test/fidelity/fidelity.test.ts'],
          testTimeout: 3_600_000,
          hookTimeout: 900_000,
          pool: 'forks',
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
