// A small static file server for dist/, bound to 127.0.0.1. It sends the same strict
// Content-Security-Policy as the page's meta tag, and the right MIME type for .wasm so that
// browsers can compile it while it streams.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const contentTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.md': 'text/markdown; charset=utf-8',
};

// The page's own policy (its meta tag), sent as a header too so that the worker runs under it.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

async function resolveFile(root, urlPath) {
  const decoded = decodeURIComponent(urlPath.split('?')[0]);
  const candidate = path.resolve(root, '.' + path.posix.normalize(decoded));
  if (candidate !== root && !candidate.startsWith(root + path.sep)) return null;
  try {
    const info = await stat(candidate);
    if (info.isDirectory()) return resolveFile(root, path.posix.join(decoded, 'index.html'));
    return candidate;
  } catch {
    return null;
  }
}

/** Serves `root` on 127.0.0.1:`port` (0 picks a free port). Resolves to { url, close }. */
export function startServer({ root, port = 0 }) {
  const absoluteRoot = path.resolve(root);
  const server = createServer(async (request, response) => {
    let file = null;
    try {
      file = await resolveFile(absoluteRoot, request.url || '/');
    } catch {
      file = null;
    }
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found');
      return;
    }
    const body = await readFile(file);
    response.writeHead(200, {
      'content-type': contentTypes[path.extname(file)] || 'application/octet-stream',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-security-policy': contentSecurityPolicy,
    });
    response.end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actualPort } = server.address();
      resolve({
        url: `http://127.0.0.1:${actualPort}/`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
  const { url } = await startServer({ root, port: Number(process.env.PORT ?? 8080) });
  console.log(`dpcalc is served at ${url}`);
}
