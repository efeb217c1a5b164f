// The error banner: any failure (load error, panic, uncaught exception) becomes visible text, never a blank page.
// Its words are in the page's language (i18n.js knows it from the URL or the browser before anything loads);
// the failure's own message (from the browser or the Rust core) is quoted as it is.
import { t } from './strings/i18n.js';

const PANIC_EVENT = 'netcode-lab-panic';
let shown = false;

/** Shows `message` in the banner at the top of the page (the first failure wins; later ones are appended). */
export function showError(message) {
  const banner = document.getElementById('banner');
  const text = String(message);
  console.error(`netcode-lab: ${text}`); // also for the developer tools (and the end-to-end tests, which fail on it)
  banner.textContent = shown ? `${banner.textContent}\n${text}` : t('banner.failed', { message: text });
  banner.hidden = false;
  shown = true;
  document.documentElement.dataset.failed = 'true';
}

export function hasFailed() {
  return shown;
}

/** Routes panics from Rust, uncaught errors and unhandled rejections to the banner. */
export function watchForErrors() {
  window.addEventListener(PANIC_EVENT, (event) => showError(t('banner.panic', { message: event.detail })));
  window.addEventListener('error', (event) => {
    // Not a failure: the browser says it deferred some size notifications to the next frame (a layout change
    // inside a ResizeObserver callback). Nothing is lost; the page must not stop for it.
    if (/^ResizeObserver loop/.test(event.message ?? '')) return;
    showError(event.message || String(event.error));
  });
  window.addEventListener('unhandledrejection', (event) => showError(event.reason?.message ?? String(event.reason)));
}

let noticeTimer = null;

/** A non-fatal message (a refused value, a clamped URL setting): shown at the top, fades after a while. */
export function showNotice(message, { sticky = false } = {}) {
  const notice = document.getElementById('notice');
  if (!notice) return;
  notice.textContent = String(message);
  notice.hidden = false;
  clearTimeout(noticeTimer);
  if (!sticky) noticeTimer = setTimeout(() => { notice.hidden = true; }, 8000);
}
