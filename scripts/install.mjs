// Installs what the build and the tests need and is missing: Debian packages (apt-get) and the npm
// packages of package-lock.json (npm ci). Safe to run every time: it does nothing when all is there.
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Debian package -> a file it installs that the build uses.
const debianPackages = {
  emscripten: '/usr/bin/em++',
  'libboost-math-dev': '/usr/include/boost/math/special_functions/erf.hpp',
  'doctest-dev': '/usr/include/doctest/doctest.h',
  'libeigen3-dev': '/usr/include/eigen3/unsupported/Eigen/FFT',
  chromium: '/usr/bin/chromium',
  'firefox-esr': '/usr/bin/firefox-esr', // the offline page's test in Firefox (tests/browser/firefox_offline.test.mjs)
  cmake: '/usr/bin/cmake',
  'clang-format': '/usr/bin/clang-format', // npm run lint (scripts/lint.mjs)
  'g++': '/usr/bin/g++',
};

function run(command, args, options = {}) {
  execFileSync(command, args, { stdio: 'inherit', cwd: repoRoot, ...options });
}

function installDebianPackages() {
  const missing = Object.entries(debianPackages)
    .filter(([, file]) => !existsSync(file))
    .map(([name]) => name);
  if (missing.length === 0) return;
  console.log(`Installing Debian packages: ${missing.join(' ')}`);
  const asRoot = process.getuid && process.getuid() === 0;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => {
    const [command, ...rest] = asRoot ? ['apt-get', ...args] : ['sudo', 'apt-get', ...args];
    run(command, rest, { env });
  };
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', ...missing]);
}

// Every package the lock file pins, at its pinned version. Comparing versions rather than file times
// keeps a fresh checkout of an unchanged lock file from reinstalling (npm ci empties node_modules,
// which other checkouts may share through a link).
function missingNpmPackages() {
  const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8'));
  return Object.entries(lock.packages ?? {})
    .filter(([where, { version, optional }]) => {
      if (!where.startsWith('node_modules/') || optional) return false;
      const manifest = path.join(repoRoot, where, 'package.json');
      return !existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).version !== version;
    })
    .map(([where]) => where.slice('node_modules/'.length));
}

function installNpmPackages() {
  const missing = missingNpmPackages();
  if (missing.length === 0) return;
  console.log(`Installing npm packages (npm ci): ${missing.slice(0, 5).join(' ')}${missing.length > 5 ? ' …' : ''}`);
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

export function ensureDependencies() {
  installDebianPackages();
  installNpmPackages();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDependencies();
