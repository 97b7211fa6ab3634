// Serves dist/ on 127.0.0.1 with sirv: precompressed files (.br, .gz) where the browser accepts them,
// ETag and Last-Modified validators with `Cache-Control: no-cache` (so a reload revalidates and gets
// 304s), and the page's strict Content-Security-Policy as a header too, so that the worker runs under
// it. `Access-Control-Allow-Origin: *` lets pages on other origins embed the calculator (module
// scripts, the wasm and sandboxed frames are fetched with CORS).
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import sirv from 'sirv';

export const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

function setHeaders(response, pathname) {
  response.setHeader('X-Content-Type-Options', 'nosniff');
  // The single-file page allows its inline script and styles by hash in its own meta policy.
  if (!pathname.endsWith('/dpcalc-offline.html')) response.setHeader('Content-Security-Policy', contentSecurityPolicy);
  response.setHeader('Access-Control-Allow-Origin', '*');
}

/** Serves `root` on 127.0.0.1:`port` (0 picks a free port). Resolves to { url, close }. */
export function startServer({ root, port = 0 }) {
  // dev: files are looked up on each request, so a rebuild of dist/ is served without a restart.
  const serve = sirv(path.resolve(root), { dev: true, etag: true, brotli: true, gzip: true, setHeaders });
  const server = createServer((request, response) =>
    serve(request, response, () => {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found');
    }),
  );
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actualPort } = server.address();
      resolve({
        url: `http://127.0.0.1:${actualPort}/`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
  const { url } = await startServer({ root, port: Number(process.env.PORT ?? 8080) });
  console.log(`dpcalc is served at ${url}`);
}
