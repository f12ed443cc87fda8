/**
 * The offline bundle viewer: the console's own pages (src/bundle/main.tsx) built into one HTML file,
 * `dist/viewer/index.html`, with every script and style inline, for the exporter to fill with data.
 * `npm run build` makes it after the console; alone: `vite build --config vite.viewer.config.ts`.
 */
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { inlineBuiltFiles } from './src/bundle/singleFile.ts';

/** The one placeholder the exporter replaces with the bundle's JSON. */
const PLACEHOLDER = '<script type="application/json" id="stallscope-bundle"><!--stallscope-bundle-data--></script>';

/** Writes the built script and style into the page and drops them as files; names the page index.html. */
function singleFileViewer(): Plugin {
  return {
    name: 'stallscope-single-file-viewer',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const page = bundle['viewer.html'];
      if (page?.type !== 'asset') throw new Error('viewer.html was not built');
      const files = {
        get: (name: string): string | undefined => {
          const file = bundle[name];
          if (file === undefined) return undefined;
          return file.type === 'chunk' ? file.code : typeof file.source === 'string' ? file.source : new TextDecoder().decode(file.source);
        },
      };
      const { html, inlined } = inlineBuiltFiles(String(page.source), files);
      if (html.split(PLACEHOLDER).length !== 2) throw new Error('the viewer page must hold the bundle placeholder exactly once');
      // An undefined preload marker throws the first time a lazily imported page is opened.
      if (html.includes('__VITE_PRELOAD__')) throw new Error('the viewer still refers to __VITE_PRELOAD__ (see define)');
      for (const name of [...inlined, 'viewer.html']) Reflect.deleteProperty(bundle, name);
      const left = Object.keys(bundle);
      if (left.length > 0) throw new Error(`the viewer must be one file, but the build also made: ${left.join(', ')}`);
      this.emitFile({ type: 'asset', fileName: 'index.html', source: html });
    },
  };
}

export default defineConfig({
  plugins: [react(), singleFileViewer()],
  base: './',
  // public/ holds the console's favicon; the viewer refers to nothing outside its file.
  publicDir: false,
  // The console's routes import each page on first use; here those imports are inlined into the one
  // file, and Vite leaves its module-preload list marker undefined when there is nothing to preload.
  define: { __VITE_PRELOAD__: 'void 0' },
  build: {
    outDir: 'dist/viewer',
    emptyOutDir: true,
    sourcemap: false,
    modulePreload: false,
    cssCodeSplit: false,
    // Fonts and images the styles use become data: URLs, which the page's CSP allows.
    assetsInlineLimit: () => true,
    rolldownOptions: {
      input: 'viewer.html',
      output: { codeSplitting: false },
    },
  },
});
