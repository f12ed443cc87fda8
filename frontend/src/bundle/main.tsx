/**
 * Entry of the offline bundle viewer (viewer.html): read the embedded data, answer every request
 * from it, route in the hash, then render the console's pages.
 */
// The app-wide sheet first: the viewer's styles are joined into one sheet in import order, and a page's
// rule must win over an app-wide one of the same specificity, as it does in the console, where each
// page's sheet arrives with its chunk after the app's.
import '../app/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { errorMessage, setTransport } from '../api/http';
import { routeSearchFromHash } from '../shared/currentSearch';
import { BundleApp, BundleFatal } from './BundleApp';
import { decodeBundle, embeddedBundleText, type BundleData } from './bundleData';
import { recordMiss } from './misses';
import { replayTransport } from './replayTransport';

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
