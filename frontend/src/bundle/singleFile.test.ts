import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { escapeInlineScript, inlineBuiltFiles } from './singleFile';

const files = (entries: Record<string, string>) => ({ get: (name: string) => entries[name] });

describe('the single-file viewer page', () => {
  it('inlines the built script and style sheet, and nothing can close their elements early', () => {
    const html =
      '<head><script type="module" crossorigin src="./assets/viewer-1.js"></script>' +
      '<link rel="stylesheet" crossorigin href="./assets/viewer-1.css"></head><body><div id="root"></div></body>';
    const code = 'const a = "</script><script>alert(1)</script>"; const b = /<\\/SCRIPT/i; const c = `<!--${a}`; const d = "$&$1";';
    const { html: out, inlined } = inlineBuiltFiles(html, files({ 'assets/viewer-1.js': code, 'assets/viewer-1.css': 'a::after{content:"</style>"}' }));
    expect(inlined).toEqual(['assets/viewer-1.js', 'assets/viewer-1.css']);
    expect(out).not.toMatch(/src=|href=|crossorigin/);
    // One element each, each ended by its own tag only.
    expect(out.match(/<\/script/gi)).toHaveLength(1);
    expect(out.match(/<\/style/gi)).toHaveLength(1);
    expect(out).not.toContain('<!--');
    expect(out).toContain('"$&$1"');

    // The escaped code means what it meant.
    const script = /<script type="module">([\s\S]*)<\/script>/.exec(out)?.[1] ?? '';
    const values: unknown = runInNewContext(`${script}; [a, b.source, c, d];`);
    expect(values).toEqual(['</script><script>alert(1)</script>', '<\\/SCRIPT', '<!--</script><script>alert(1)</script>', '$&$1']);
  });

  it('escapes in regular expressions with the unicode flag too', () => {
    const escaped = escapeInlineScript('/<!--x<\\/script/u.test("<!--x</script")');
    expect(escaped).not.toMatch(/<!--|<\/script/i);
    expect(runInNewContext(escaped)).toBe(true);
  });

  it('refuses a page that refers to a file the build did not make', () => {
    expect(() => inlineBuiltFiles('<script type="module" src="/assets/gone.js"></script>', files({}))).toThrow(/assets\/gone\.js/);
  });
});
