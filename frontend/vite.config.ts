import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';

// dist/ is emptied on every build; Go's //go:embed needs dist/.gitkeep to stay.
const keepGitkeep = (): Plugin => ({
  name: 'keep-gitkeep',
  closeBundle() {
    writeFileSync(resolve(__dirname, 'dist/.gitkeep'), '');
  },
});

// No React plugin: esbuild compiles TSX with the automatic runtime.
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  plugins: [keepGitkeep()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 800 },
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 30_000, // CI machines are shared and can be slow
    // a test file per core: vitest's default leaves one core free, which on CI's 2 cores ran
    // one file at a time (docs/benchmarks.md, "make test")
    maxWorkers: '100%',
    include: ['src/**/*.test.{ts,tsx}'],
    benchmark: { include: ['src/**/*.bench.{ts,tsx}'] },
  },
});
