/**
 * The frame of every page of a bundle: a header that says it is an offline, read-only record (in
 * place of the console's navigation and account menu), and a quiet notice of requests it lacked.
 */
import { useEffect, useState } from 'react';
import { Link, Outlet } from 'react-router';
import { BrandMark } from '../app/BrandMark';
import type { BundleData } from './bundleData';
import { currentMisses, onMiss } from './misses';
import './bundle.css';

export function BundleLayout({ data }: { data: BundleData }) {
  return (
    <div className="app">
      <header className="topbar bundle-topbar">
        <Link to="/" className="brand" aria-label="Bundle home">
          <BrandMark />
          Stallscope
        </Link>
        <span className="bundle-topbar__what" data-testid="bundle-header">
          Offline bundle · read-only
        </span>
        <span className="bundle-topbar__incident muted small">
          #{data.incident.id} {data.incident.title}
        </span>
      </header>
      <main className="page">
        <MissNotice />
        <Outlet />
      </main>
    </div>
  );
}

/** Discreet: a view still draws what it has; this names what the exporter left out. */
function MissNotice() {
  const [misses, setMisses] = useState<readonly string[]>(currentMisses);
  useEffect(() => onMiss(setMisses), []);
  if (misses.length === 0) return null;
  return (
    <details className="bundle-misses small" data-testid="bundle-misses">
      <summary>
        {misses.length === 1 ? '1 request is' : `${misses.length} requests are`} not in this bundle: this page may show less than the
        console did.
      </summary>
      <ul>
        {misses.map((m) => (
          <li key={m} className="mono">
            {m}
          </li>
        ))}
      </ul>
    </details>
  );
}
