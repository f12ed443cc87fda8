/** The Stallscope mark: a tiny flame graph. */
export function BrandMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 32 32" aria-hidden="true">
      <rect x="2" y="23" width="28" height="6" rx="1" fill="#e8a23c" />
      <rect x="4" y="16" width="16" height="6" rx="1" fill="#e0715a" />
      <rect x="6" y="9" width="9" height="6" rx="1" fill="#e0715a" />
      <rect x="21" y="16" width="7" height="6" rx="1" fill="#58b368" />
    </svg>
  );
}
