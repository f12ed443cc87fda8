/** One line, ellipsis when too long, the full text on hover. Monospace for symbols and file names. */
export function Truncate({ text, mono = false, className = '' }: { text: string; mono?: boolean; className?: string }) {
  return (
    <span className={`truncate${mono ? ' mono' : ''} ${className}`} title={text}>
      {text}
    </span>
  );
}
