// npm start: install what is missing, build dist/, serve it on 127.0.0.1.
import path from 'node:path';
import { ensureDependencies } from './install.mjs';

// The build and the server are imported only after the install: on a fresh clone, the server's
// package (sirv) is not there until ensureDependencies has run.
ensureDependencies();
const { buildDist } = await import('./build.mjs');
const { startServer } = await import('./serve.mjs');
const root = await buildDist();
const { url } = await startServer({ root: path.resolve(root), port: Number(process.env.PORT ?? 8080) });
console.log(`\ndpcalc is running at ${url}  (Ctrl+C to stop)`);
