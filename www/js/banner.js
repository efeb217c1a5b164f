// The error banner: any failure (load error, panic, uncaught exception) becomes visible text, never a blank page.

const PANIC_EVENT = 'netcode-lab-panic';
let shown = false;

/** Shows `message` in the banner at the top of the page (the first failure wins; later ones are appended). */
export function showError(message) {
  const banner = document.getElementById('banner');
  const text = String(message);
  banner.textContent = shown ? `${banner.textContent}\n${text}` : `Something went wrong: ${text}`;
  banner.hidden = false;
  shown = true;
  document.documentElement.dataset.failed = 'true';
}

export function hasFailed() {
  return shown;
}

/** Routes panics from Rust, uncaught errors and unhandled rejections to the banner. */
export function watchForErrors() {
  window.addEventListener(PANIC_EVENT, (event) => showError(`panic in the Rust core: ${event.detail}`));
  window.addEventListener('error', (event) => showError(event.message || String(event.error)));
  window.addEventListener('unhandledrejection', (event) => showError(event.reason?.message ?? String(event.reason)));
}
