/**
 * Turns a built page into one self-contained file: its script and style sheets written inline.
 * A bundle's index.html is opened from disk, where Chromium loads no module script from a file
 * (file:// has an opaque origin) and the page's CSP allows nothing but inline code and data: URLs.
 * Pure: vite.viewer.config.ts calls it on the built HTML.
 */

/**
 * Code that cannot end its `<script>` element early: `</script` and `<!--` (which could make the
 * parser skip the real end tag) are written `\x3C/script` and `\x3C!--`, the same text in every
 * JavaScript string, template and regular expression they can occur in.
 */
export function escapeInlineScript(code: string): string {
  return code.replace(/<(\/script|!--)/gi, '\\x3C$1');
}

/** A style sheet that cannot end its `<style>` element early (`\/` is `/` in CSS). */
export function escapeInlineStyle(css: string): string {
  return css.replace(/<\/style/gi, '<\\/style');
}

export interface BuiltFiles {
  /** File name as the HTML names it (without a leading `./` or `/`) -> its text. */
  get(name: string): string | undefined;
}

const SCRIPT_TAG = /<script\b([^>]*)\ssrc="([^"]+)"([^>]*)><\/script>/g;
const STYLESHEET_TAG = /<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"[^>]*>/g;

const fileName = (ref: string): string => ref.replace(/^\.?\//, '');

/**
 * `html` with each `<script src>` and stylesheet `<link>` replaced by the file's text inline; the
 * names it inlined are returned so the caller can drop those files. A reference to a file the build
 * did not make is an error: the page would load nothing from disk.
 */
export function inlineBuiltFiles(html: string, files: BuiltFiles): { html: string; inlined: string[] } {
  const inlined: string[] = [];
  const read = (ref: string): string => {
    const name = fileName(ref);
    const text = files.get(name);
    if (text === undefined) throw new Error(`the page refers to ${ref}, which the build did not produce`);
    inlined.push(name);
    return text;
  };
  const out = html
    .replace(SCRIPT_TAG, (_tag, before: string, src: string, after: string) => {
      const attributes = `${before}${after}`.replace(/\s+crossorigin\b(="[^"]*")?/g, '');
      // A function replacement: `$&` and friends in the code are kept as they are.
      return `<script${attributes}>${escapeInlineScript(read(src))}</script>`;
    })
    .replace(STYLESHEET_TAG, (_tag, href: string) => `<style>${escapeInlineStyle(read(href))}</style>`);
  return { html: out, inlined };
}
