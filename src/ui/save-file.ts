/**
 * Saves text as a file through the browser's download: a temporary object URL clicked from a
 * hidden link, revoked once the download has had time to start.
 */
export function saveFile(name: string, body: string, type: string): void {
  const url = URL.createObjectURL(new Blob([body], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
