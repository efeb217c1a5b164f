// Saving a file the page made (a trace, a figure's PNG): a link to the blob, clicked once.

/**
 * Offers `blob` for download as `name`. The blob's URL is revoked after a while, not at once: a browser that asks
 * where to save still reads it after the click.
 */
export function saveFile(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
