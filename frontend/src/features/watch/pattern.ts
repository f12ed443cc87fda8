/**
 * A first look at a signature's regular expression before it is sent. The server compiles it with
 * Python's `re` and has the last word (its refusal is shown as it words it); this catches what both
 * dialects refuse (an unclosed group, a quantifier with nothing to repeat) without refusing what
 * only Python accepts: its syntax is rewritten into JavaScript's before the browser compiles it.
 */

/** The server's bound on an expression's length (`analysis/signatures.py`). */
export const PATTERN_LIMIT = 1000;

/** Python's inline flags, as `(?aiLmsux)` at the start or `(?i-s:…)` around a group. */
const FLAGS = /^\(\?(?:[aiLmsux]+(?:-[imsx]+)?|-[imsx]+)([:)])/;
/** `{m}`, `{m,}`, `{,n}`, `{m,n}`: a repeat in Python (JavaScript reads `{,n}` as text: no harm). */
const REPEAT = /^\{\d*(?:,\d*)?\}/;

/**
 * The expression with Python-only syntax replaced by JavaScript's nearest equivalent, for checking
 * only (what it matches may differ). Escapes and character classes are copied as they are.
 */
export function asJavaScriptPattern(expression: string): string {
  let out = '';
  let i = 0;
  // Whether the last thing copied was a repeat, so that a `+` after it is Python's possessive mark.
  let afterRepeat = false;
  while (i < expression.length) {
    const rest = expression.slice(i);
    const c = expression.charAt(i);
    if (c === '\\') {
      out += rest.slice(0, 2);
      i += 2;
      afterRepeat = false;
      continue;
    }
    if (c === '[') {
      const end = classEnd(expression, i);
      let body = expression.slice(i, end);
      // Python reads a `]` first in a class as a character; JavaScript as the end of an empty class.
      body = body.replace(/^(\[\^?)\]/, '$1\\]');
      out += body;
      i = end;
      afterRepeat = false;
      continue;
    }
    if (c === '+' && afterRepeat) {
      i += 1; // possessive: `a*+`, `a{2}+`
      afterRepeat = false;
      continue;
    }
    if (c === '?' && afterRepeat) {
      out += c; // lazy: `a*?`
      i += 1;
      afterRepeat = false;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') {
      out += c;
      i += 1;
      afterRepeat = true;
      continue;
    }
    const repeat = REPEAT.exec(rest);
    if (repeat && repeat[0] !== '{}') {
      out += repeat[0].replace(/^\{,/, '{0,');
      i += repeat[0].length;
      afterRepeat = true;
      continue;
    }
    afterRepeat = false;
    if (rest.startsWith('(?P<')) {
      out += '(?<';
      i += 4;
    } else if (rest.startsWith('(?P=')) {
      const close = expression.indexOf(')', i);
      const name = close < 0 ? expression.slice(i + 4) : expression.slice(i + 4, close);
      out += `\\k<${name}>`;
      i = close < 0 ? expression.length : close + 1;
    } else if (rest.startsWith('(?#')) {
      const close = expression.indexOf(')', i);
      i = close < 0 ? expression.length : close + 1; // a comment; unclosed, Python refuses it too
      if (close < 0) out += '(';
    } else if (rest.startsWith('(?>')) {
      out += '(?:'; // atomic group
      i += 3;
    } else if (rest.startsWith('(?(')) {
      // A conditional `(?(1)yes|no)`: its condition dropped, its branches kept in a group.
      const close = expression.indexOf(')', i + 3);
      out += '(?:';
      i = close < 0 ? expression.length : close + 1;
    } else {
      const flags = FLAGS.exec(rest);
      if (flags) {
        // `(?i)` leaves nothing behind; `(?i:…)` a plain group.
        out += flags[1] === ':' ? '(?:' : '';
        i += flags[0].length;
      } else {
        // `(?` is copied whole, so that its `?` is not read as a repeat.
        const step = rest.startsWith('(?') ? 2 : 1;
        out += rest.slice(0, step);
        i += step;
      }
    }
  }
  return out;
}

/** Where the character class opened at `start` ends (after its `]`), or the end of the text. */
function classEnd(expression: string, start: number): number {
  let i = start + 1;
  if (expression.charAt(i) === '^') i += 1;
  if (expression.charAt(i) === ']') i += 1; // a literal `]` in Python
  while (i < expression.length) {
    const c = expression.charAt(i);
    if (c === '\\') i += 2;
    else if (c === ']') return i + 1;
    else i += 1;
  }
  return expression.length;
}

/** The browser's words for a syntax error, without the expression it repeats. */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cut = message.lastIndexOf(': ');
  const words = message.startsWith('Invalid regular expression') && cut >= 0 ? message.slice(cut + 2) : message;
  return words.charAt(0).toLowerCase() + words.slice(1);
}

/**
 * Why `expression` (the `what` expression: "pattern", "process") cannot be a signature's, or null
 * when it looks like one.
 */
export function patternProblem(expression: string, what: string): string | null {
  if (expression === '') return `the ${what} expression is empty: it would match every name`;
  if (expression.length > PATTERN_LIMIT) return `the ${what} expression is ${expression.length} characters; at most ${PATTERN_LIMIT}`;
  try {
    new RegExp(asJavaScriptPattern(expression));
  } catch (e) {
    return `the ${what} expression is not a regular expression: ${reason(e)}`;
  }
  return null;
}
