/** Raw-body upload with progress. fetch() cannot report upload progress, XMLHttpRequest can. */
import { routeQuery, type Answer, type ApiUrl, type RouteOf } from './contract';
import type { UploadUrl } from './endpoints';
import { ApiError, parseErrorText, REQUEST_HEADERS } from './http';
import type { Capture } from './types';

export interface UploadOptions {
  /** CSV and JSON-lines files: the column (or key) holding the time, when the console does not find it. */
  timeColumn?: string;
  /** Wall-clock start (UTC ISO) for captures nothing else aligns: their first record is placed there. */
  start?: string;
}

/** The upload URL with the options that are set (blank ones left out), as query parameters. */
export function withUploadOptions<U extends string>(url: U, options: UploadOptions): U {
  const p = routeQuery<'/api/incidents/{incident_id}/captures', 'post'>();
  const timeColumn = options.timeColumn?.trim() ?? '';
  if (timeColumn) p.set('time_column', timeColumn);
  const start = options.start?.trim() ?? '';
  if (start) p.set('start', start);
  if (p.toString() === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${p.toString()}` as U;
}

export interface UploadHandle<T = Capture> {
  promise: Promise<T>;
  abort: () => void;
}

export function uploadCapture(url: UploadUrl, file: Blob, onProgress: (fraction: number) => void): UploadHandle {
  return uploadBody(url, file, onProgress);
}

/** POST `file` as the raw body; the JSON answer (a capture, an imported bundle…) as the route's schema types it. */
export function uploadBody<R extends RouteOf<'post'>>(url: ApiUrl<R>, file: Blob, onProgress: (fraction: number) => void): UploadHandle<Answer<R, 'post'>> {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<Answer<R, 'post'>>((resolve, reject) => {
    xhr.open('POST', url);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    for (const [name, value] of Object.entries(REQUEST_HEADERS)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as Answer<R, 'post'>);
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      } else {
        reject(parseErrorText(xhr.status, xhr.statusText, xhr.responseText));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'Network error while uploading. Is the server running?'));
    xhr.onabort = () => reject(new ApiError(0, 'Upload cancelled.'));
    xhr.send(file);
  });
  return { promise, abort: () => xhr.abort() };
}
