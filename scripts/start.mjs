// npm start: install what is missing, build dist/, serve it on 127.0.0.1.
import path from 'node:path';
import { ensureDependencies } from './install.mjs';
import { buildDist } from './build.mjs';
import { startServer } from './serve.mjs';

ensureDependencies();
const root = await buildDist();
const { url } = await startServer({ root: path.resolve(root), port: Number(process.env.PORT ?? 8080) });
console.log(`\ndpcalc is running at ${url}  (Ctrl+C to stop)`);
