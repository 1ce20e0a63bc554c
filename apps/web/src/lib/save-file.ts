/** Hands a downloaded file to the browser, which saves it under the given name. */
export function saveFile(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = filename;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The browser has taken the file once the click is handled; free the memory a bit later.
  setTimeout(() => URL.revokeObjectURL(href), 30_000);
}
