/**
 * Entry of the offline bundle viewer (viewer.html): read the embedded data, answer every request
 * from it, route in the hash, then render the console's pages.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { errorMessage, setTransport } from '../api/http';
import { routeSearchFromHash } from '../shared/currentSearch';
import { BundleApp, BundleFatal } from './BundleApp';
import { decodeBundle, embeddedBundleText, type BundleData } from './bundleData';
import { recordMiss } from './misses';
import { replayTransport } from './replayTransport';
import '../app/styles.css';

function load(): BundleData | string {
  const text = embeddedBundleText(document);
  if (text === null) return 'This page holds no bundle data: it is the viewer template, not an exported bundle.';
  try {
    return decodeBundle(JSON.parse(text));
  } catch (e) {
    return `This bundle cannot be read: ${errorMessage(e)}`;
  }
}

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
const data = load();
if (typeof data !== 'string') {
  setTransport(replayTransport(data.responses, recordMiss));
  routeSearchFromHash();
}
createRoot(root).render(<StrictMode>{typeof data === 'string' ? <BundleFatal message={data} /> : <BundleApp data={data} />}</StrictMode>);
