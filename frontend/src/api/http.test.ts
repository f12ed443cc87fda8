import { describe, expect, it } from 'vitest';
import { errorDetail, parseErrorText } from './http';

describe('API errors', () => {
  it('uses FastAPI detail strings', () => {
    const e = parseErrorText(413, 'Payload Too Large', JSON.stringify({ detail: 'capture larger than the 2 GiB limit' }));
    expect(e.status).toBe(413);
    expect(e.message).toBe('capture larger than the 2 GiB limit');
  });
  it('flattens validation errors', () => {
    expect(errorDetail({ detail: [{ loc: ['body', 'title'], msg: 'Field required' }] }, 'x')).toBe('body.title: Field required');
  });
  it('falls back to the status line, and explains a dead proxy', () => {
    expect(parseErrorText(500, 'Internal Server Error', '<html>').message).toBe('HTTP 500 Internal Server Error');
    expect(parseErrorText(502, 'Bad Gateway', '').message).toMatch(/not answering.*Is the server running/);
  });
});
