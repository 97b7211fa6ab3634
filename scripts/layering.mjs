// The layering check of npm run lint (DESIGN.md, "The typed middle"): below core/src/api/ nothing
// knows a request. In the domains (every folder of core/ but api/) no string names a dotted request
// path ("items.0.mechanism.sigma") or one of the request's structural fields (items, target,
// discretization, of, op, explain, unknown), and no code builds paths (field_path, a parameter
// named *_field); the domains name what an error is about by their own parameters (result.hpp:
// Error::field and Error::item), and the readers of core/src/api/ put them on the request's paths.
// In core/src/api/ no message is rewritten (replace_all, or an assignment to an error's message).
// Prints each finding; returns how many there are.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { repoRoot } from './install.mjs';

const kStructuralFields = new Set(['items', 'target', 'discretization', 'of', 'op', 'explain', 'unknown']);
// Abbreviations that look like a dotted path inside prose.
const kProse = new Set(['e.g', 'i.e', 'et.al']);

function trackedSources() {
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'core'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  return listed.stdout.split('\n').filter((file) => /\.(cpp|hpp)$/.test(file));
}

/** The code of a C++ file with its comments blanked (strings kept), and its string literals. */
function parse(text) {
  let code = '';
  const strings = [];
  for (let i = 0; i < text.length;) {
    if (text.startsWith('#include', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (text[i] === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      strings.push({ value: text.slice(i + 1, j), line: text.slice(0, i).split('\n').length });
      code += '""';
      i = j + 1;
    } else if (text[i] === "'" && /^'(\\.|[^\\'])'/.test(text.slice(i, i + 4))) {
      const match = text.slice(i).match(/^'(\\.|[^\\'])'/);
      code += match[0];
      i += match[0].length;
    } else {
      code += text[i++];
    }
  }
  return { code, strings };
}

function domainFindings(file, text) {
  const findings = [];
  const { code, strings } = parse(text);
  for (const { value, line } of strings) {
    for (const [path] of value.matchAll(/(?<![\w.%/])[a-z_][a-z0-9_]*(\.[a-z0-9_]+)+(?![\w(])/g)) {
      if (!kProse.has(path)) findings.push(`${file}:${line}: a dotted request path in a string: "${path}"`);
    }
    if (kStructuralFields.has(value)) findings.push(`${file}:${line}: a request's field in a string: "${value}"`);
  }
  code.split('\n').forEach((source, index) => {
    for (const [name] of source.matchAll(/\b(field_path|RequestContext|\w+_field)\b/g)) {
      findings.push(`${file}:${index + 1}: builds request paths: ${name}`);
    }
  });
  return findings;
}

function apiFindings(file, text) {
  const { code } = parse(text);
  const findings = [];
  code.split('\n').forEach((source, index) => {
    if (/\breplace_all\s*\(|\.message\s*(\+?=)(?!=)/.test(source)) {
      findings.push(`${file}:${index + 1}: rewrites an error's message: ${source.trim()}`);
    }
  });
  return findings;
}

export function layeringFindings() {
  const findings = [];
  for (const file of trackedSources()) {
    let text;
    try {
      text = readFileSync(`${repoRoot}/${file}`, 'utf8');
    } catch {
      continue; // deleted in the working tree
    }
    const api = file.startsWith('core/src/api/') || file.startsWith('core/include/dpcalc/api/');
    findings.push(...(api ? apiFindings(file, text) : domainFindings(file, text)));
  }
  return findings;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const findings = layeringFindings();
  for (const finding of findings) console.log(finding);
  process.exit(findings.length === 0 ? 0 : 1);
}
