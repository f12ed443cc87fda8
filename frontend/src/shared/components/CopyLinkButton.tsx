import { useState } from 'react';
import { copyText } from '../clipboard';

/** Copies the page's full URL (the whole view state lives in it) and says whether that worked. */
export function CopyLinkButton({ testId }: { testId?: string }) {
  const [copied, setCopied] = useState<'idle' | 'ok' | 'failed'>('idle');
  const copy = async () => {
    const ok = await copyText(window.location.href);
    setCopied(ok ? 'ok' : 'failed');
    window.setTimeout(() => setCopied('idle'), 2000);
  };
  return (
    <button type="button" className="btn" onClick={() => void copy()} data-testid={testId}>
      {copied === 'ok' ? 'Copied ✓' : copied === 'failed' ? 'Copy failed — use the address bar' : 'Copy link'}
    </button>
  );
}
