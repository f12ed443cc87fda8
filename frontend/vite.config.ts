/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const backend = process.env.STALLSCOPE_API ?? 'http://127.0.0.1:8000';
const proxy = {
  '/api': { target: backend, changeOrigin: false },
  // Short links; '/s/' not '/s', which would also catch /src/ in dev.
  '/s/': { target: backend, changeOrigin: false },
};

export default defineConfig({
  plugins: [react()],
  server: { proxy },
  preview: { proxy },
  build: { outDir: 'dist', sourcemap: true },
  test: {
    // Most tests are pure logic: Node is enough, and a DOM per file cost about a second each. A test
    // that needs one says so in its first line: `// @vitest-environment jsdom`.
    environment: 'node',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
});
