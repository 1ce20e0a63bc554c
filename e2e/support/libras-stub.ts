/**
 * The Libras widget is a third-party script (VLibras) that this machine
 * cannot reach, so the tests serve a small script with the same interface
 * (`window.VLibras.Widget`) from another loopback origin. It checks what the
 * product controls: the script address from configuration, the CSP that
 * allows it, the start call, and hiding the widget on admin-guarded routes.
 */
import http from 'node:http';
import { freePort } from './server';

const SCRIPT = `window.VLibras = { Widget: function (rootPath) {
  var button = document.querySelector('[vw-access-button]');
  if (button) { button.textContent = 'Libras'; button.setAttribute('data-root', rootPath); }
} };`;

export async function startLibrasScriptServer(): Promise<{
  url: string;
  stop: () => Promise<void>;
}> {
  const port = await freePort();
  const server = http.createServer((request, response) => {
    if (request.url === '/app/vlibras-plugin.js') {
      response.writeHead(200, { 'content-type': 'application/javascript' });
      response.end(SCRIPT);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/app/vlibras-plugin.js`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
