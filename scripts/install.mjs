// Installs what the build and the tests need and is missing: Debian packages (apt-get) and the npm
// packages of package-lock.json (npm ci). Safe to run every time: it does nothing when all is there.
import { existsSync, statSync } from 'node:fs';
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
  cmake: '/usr/bin/cmake',
  'g++': '/usr/bin/g++',
};

function run(command, args, options = {}) {
  execFileSync(command, args, { stdio: 'inherit', cwd: repoRoot, ...options });
}

function installDebianPackages() {
  const missing = Object.entries(debianPackages).filter(([, file]) => !existsSync(file)).map(([name]) => name);
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

function installNpmPackages() {
  const marker = path.join(repoRoot, 'node_modules', '.package-lock.json');
  const lock = path.join(repoRoot, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing npm packages (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

export function ensureDependencies() {
  installDebianPackages();
  installNpmPackages();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDependencies();
