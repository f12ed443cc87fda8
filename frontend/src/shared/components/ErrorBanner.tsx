import { errorMessage } from '../../api/http';

export function ErrorBanner({ error, title, onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
  return (
    <div className="banner banner--error" role="alert">
      <div>
        {title ? <strong>{title} </strong> : null}
        <span>{errorMessage(error)}</span>
      </div>
      {onRetry ? (
        <button type="button" className="btn btn--small" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
