// Makes dist/ an npm package: package.json ("type": "module", "exports", "types"), the project's
// LICENSE, and THIRD_PARTY_NOTICES.md with the licence of every npm package bundled into dist/vendor/
// (gathered from node_modules, so the notices follow the lock file).
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './install.mjs';

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The npm package folders under node_modules that the bundled input files belong to. */
function packagesOf(inputs) {
  const folders = inputs.map((input) => input.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//)?.[1]).filter(Boolean);
  return [...new Set(folders)].sort().map((folder) => path.join(repoRoot, folder));
}

function licenceText(folder) {
  const file = readdirSync(folder).find((entry) => /^(licen[cs]e|copying)(\.md|\.txt)?$/i.test(entry));
  if (!file) throw new Error(`${folder}: no licence file to include in THIRD_PARTY_NOTICES.md`);
  return readFileSync(path.join(folder, file), 'utf8').trim();
}

function notices(vendorInputs) {
  const sections = packagesOf(vendorInputs).map((folder) => {
    const { name, version, license, homepage } = readJson(path.join(folder, 'package.json'));
    const fonts =
      name === 'katex'
        ? '\nThe KaTeX fonts in vendor/katex/fonts/ come from this package and are covered by the same licence.\n'
        : '';
    return `## ${name} ${version} (${license})\n\n${homepage ?? ''}\n${fonts}\n\`\`\`text\n${licenceText(folder)}\n\`\`\``;
  });
  return (
    `# Third-party software in this package\n\ndpcalc itself is under the Apache License 2.0 (LICENSE). The page bundles the\n` +
    `following npm packages into vendor/ (test-only tools such as axe-core and Playwright are not shipped).\n\n` +
    `${sections.join('\n\n')}\n`
  );
}

function packageJson() {
  const { version, description, license } = readJson(path.join(repoRoot, 'package.json'));
  const exported = (file) => ({ types: `./${file}.d.ts`, default: `./${file}.js` });
  return {
    name: 'dpcalc',
    version,
    description,
    license,
    type: 'module',
    main: './dpcalc.js',
    types: './dpcalc.d.ts',
    exports: {
      '.': exported('dpcalc'),
      // The client on the whole module, as the element has it (scripts/bundle.mjs); the page's own
      // client.js loads the split module.
      './client': { types: './client.d.ts', default: './dpcalc-client.js' },
      './dp-calculator': exported('dp-calculator'),
      './dpcalc.wasm': './dpcalc.wasm',
      './package.json': './package.json',
    },
    // `npx dpcalc …`: web/cli.js.
    bin: { dpcalc: './cli.js' },
    sideEffects: ['./dp-calculator.js'],
    engines: { node: '>=20' },
  };
}

/** Writes dist/package.json, dist/LICENSE and dist/THIRD_PARTY_NOTICES.md. */
export function packageDist(distDir, vendorInputs) {
  const manifest = packageJson();
  for (const target of Object.values(manifest.exports).flatMap((value) =>
    typeof value === 'string' ? [value] : Object.values(value),
  )) {
    if (target !== './package.json' && !existsSync(path.join(distDir, target)))
      throw new Error(`dist/package.json exports a missing ${target}`);
  }
  if (!existsSync(path.join(distDir, manifest.bin.dpcalc))) throw new Error(`dist/package.json's bin is missing`);
  copyFileSync(path.join(repoRoot, 'LICENSE'), path.join(distDir, 'LICENSE'));
  writeFileSync(path.join(distDir, 'THIRD_PARTY_NOTICES.md'), notices(vendorInputs));
  writeFileSync(path.join(distDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}
