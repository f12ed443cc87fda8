import { describe, expect, it } from 'vitest';
import { WEBHOOK_FORMATS } from './api';
import { draftOfWebhook, EMPTY_WEBHOOK_DRAFT, FORMAT_HINTS, shownUrl, webhookOf } from './webhookForm';

describe('webhook form', () => {
  it('sends the trimmed name and URL with the chosen format', () => {
    expect(webhookOf({ name: ' pager ', url: ' https://am.example:9093/api/v2/alerts ', format: 'alertmanager', enabled: false })).toEqual({
      body: { name: 'pager', url: 'https://am.example:9093/api/v2/alerts', format: 'alertmanager', enabled: false },
    });
  });

  it('round-trips a stored webhook', () => {
    const stored = {
      id: 1,
      name: 'chat',
      url: 'https://hooks.slack.com/services/T/B/x',
      format: 'slack' as const,
      enabled: true,
      created_at: '2026-12-01T10:00:00Z',
    };
    expect(webhookOf(draftOfWebhook(stored))).toEqual({ body: { name: 'chat', url: stored.url, format: 'slack', enabled: true } });
  });

  it('names the field in trouble', () => {
    expect(webhookOf({ ...EMPTY_WEBHOOK_DRAFT, url: 'https://x.example' })).toEqual({ problem: 'Name: required', field: 'name' });
    expect(webhookOf({ ...EMPTY_WEBHOOK_DRAFT, name: 'a' })).toEqual({ problem: 'URL: required', field: 'url' });
    expect(webhookOf({ ...EMPTY_WEBHOOK_DRAFT, name: 'a', url: 'hooks.example.com/x' })).toMatchObject({ field: 'url' });
    expect(webhookOf({ ...EMPTY_WEBHOOK_DRAFT, name: 'a', url: 'ftp://hooks.example.com/x' })).toEqual({
      problem: 'URL: an http:// or https:// address',
      field: 'url',
    });
  });

  it('has a hint for every format', () => {
    expect(WEBHOOK_FORMATS).toEqual(['json', 'alertmanager', 'slack']);
    for (const f of WEBHOOK_FORMATS) expect(FORMAT_HINTS[f]).not.toBe('');
  });

  it('shows a URL without what may be its secret', () => {
    expect(shownUrl('https://hooks.slack.com/services/T000/B000/XXXX')).toBe('https://hooks.slack.com/services/…');
    expect(shownUrl('https://user:pw@hooks.example.com/in?token=abc')).toBe('https://hooks.example.com/in/…');
    expect(shownUrl('http://am.example:9093/')).toBe('http://am.example:9093');
    expect(shownUrl('https://hooks.example.com/in')).toBe('https://hooks.example.com/in');
  });
});
