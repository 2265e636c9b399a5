import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The tab is served by the app's own server under /tab, beside its API, so it needs no dev proxy
// and no cross-origin calls: `npm run build` writes it next to the compiled server in dist/tab.
export default defineConfig({
  root: 'src/tab',
  base: '/tab/',
  plugins: [react()],
  build: {
    outDir: '../../dist/tab',
    emptyOutDir: true,
    sourcemap: true,
    // Fluent UI is most of the bundle; one chunk per library family keeps the
    // first report's script small enough and cacheable across releases.
    rollupOptions: {
      output: {
        manualChunks: (id) => {
          if (id.includes('node_modules/@fluentui') || id.includes('node_modules/@griffel')) return 'fluent';
          if (id.includes('node_modules/')) return 'vendor';
          return undefined;
        },
      },
    },
  },
  logLevel: 'warn',
});
