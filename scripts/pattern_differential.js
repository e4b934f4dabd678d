#!/usr/bin/env node
// What V8 answers for JSON Schema patterns: the fixture tests/data/pattern_differential.json, against which
// tests/conformance/test_pattern_differential.py holds toolsense's pattern engine (no Node needed there; when
// Node is present, that test runs this script again and compares, so the fixture cannot drift).
//
//   node scripts/pattern_differential.js > tests/data/pattern_differential.json
//
// Patterns: every `pattern`, `patternProperties` key and `format: regex` instance of the JSON-Schema-Test-Suite
// (tests/data/json-schema-test-suite), and ECMA-262 edge cases below. Strings: the suite's own strings for the
// pattern's group, and probes that tell ECMA's semantics from others (a final \n, \r, U+2028, U+00A0, NEL,
// Arabic-Indic digits, non-ASCII letters, lone surrogates, an astral character).
// Each pattern is compiled as JSON Schema says (with the `u` flag); one that V8 rejects with `u` but accepts
// without it (ECMA-262 Annex B: `\e`, `\-`) is run without it, and one it rejects both ways is "invalid".
"use strict";
const fs = require("fs");
const path = require("path");

const SUITE = path.join(__dirname, "..", "tests", "data", "json-schema-test-suite", "tests");

const EDGE_PATTERNS = [
  "^abc$", "abc$", "^.$", "^.+$", "^.{2}$", "^\\d$", "^\\d+$", "^\\D$", "^\\w+$", "^\\W$", "\\bfoo\\b", "\\Bo",
  "^\\s$", "^\\S$", "^\\s+$", "^[\\s\\S]$", "^[^]$", "[]", "^[^\\n]*$", "^[^\\r\\n]+$", "\\r\\n",
  "^\\p{L}+$", "^\\p{Letter}+$", "^\\P{L}$", "^\\p{Lu}$", "^\\p{Nd}+$", "^\\p{Script=Arabic}+$",
  "^\\p{General_Category=Decimal_Number}$", "^[\\p{L}\\p{Nd}_-]+$", "\\p{Greek}",
  "^(?<year>\\d{4})-\\k<year>$", "^(?<a>.)\\k<a>$", "^\\u{1F600}$", "^\\uD83D\\uDE00$", "^\\uD800$", "^\\uDC00$",
  "^\\cJ$", "^[\\b]$", "^\\0$", "^\\x41$", "^\\u0041$", "^[\\u0600-\\u06FF]+$", "^[^\\x00-\\x7F]+$",
  "^(?=.*[A-Z])(?=.*\\d).{8,}$", "^(?!.*password).*$", "(?<=a)b", "(?<!a)b", "^(a)\\1$", "^(?:(a)|b)\\1$",
  "\\1(a)", "^(a)?\\1$", "^a{,2}$", "^a{2}$", "^a{1,2}$", "a{", "^x]$", "^[a-z\\d]+$", "^[^\\d\\s]+$",
  "^[\\D]$", "^[\\W]$", "^[\\S]$", "^[a\\S]$", "^[^a\\S]$", "^[\\w-]+$", "^[\\-]$", "^\\/$", "^\\.$", "^\\-$",
  "^\\e$", "$^", "a|", "^$", "^[a-z]+(?:-[a-z]+)*$", "^\\S+@\\S+\\.\\S+$", "^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+$",
  "(?i)a", "a++", "(?P<n>a)", "(?>a)", "(", "a)", "[a", "\\", "a{2,1}", "*a", "(?<n>a)(?<n>b)", "(?=a)*",
  // Annex B: a set escape next to `-` is no range (`[\w-.]` is \w, `-` and `.`); a bound beyond 2^31-1 is
  // V8's infinity (`{0,99999999999}` has no upper bound).
  "^[\\w-\\.]+@([\\w-]+\\.)+[\\w-]{2,4}$", "^[.-\\w]+$", "^[\\s-z]$", "^[\\D-a]+$", "^a{0,99999999999}$",
  "^a{2,99999999999}$",
];
const PROBES = [
  "", "a", "b", "ab", "aa", "abc", "abc\n", "\nabc", "\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085", "\u00a0",
  "\ufeff", "\t", " ", "x y", "_", "-", "foo", "a foo b", "\u00e9foo", "foo\u00e9", "0", "42", "2024",
  "2024-2024", "\u0663", "\u0663\u0664", "\u0661\u0662\u0663", "\u00e9", "\u00e9t\u00e9", "\u03b1\u03b2",
  "Stra\u00dfe", "\u0645\u0631\u062d\u0628\u0627", "\ud800", "\udc00", "a\ud800", "\ud83d\ude00", "a\ud83d\ude00",
  "A", "Abcdefg1", "Abcdefg1\n", "mypassword1A", "user@example.com", "p{Greek}", "e", "\\e", "-", "/", ".",
  "x]", "a{", "a{,2}", "\b", "\u0000", "\u0008", "\u000b", "\u000c", "{", "}",
];

function walk(value, visit) {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit);
  } else if (value !== null && typeof value === "object") {
    visit(value);
    for (const key of Object.keys(value)) walk(value[key], visit);
  }
}

function strings(value, found) {
  if (typeof value === "string") found.add(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, found);
  else if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) {
      found.add(key);
      strings(value[key], found);
    }
  }
}

function files(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(full));
    else if (entry.name.endsWith(".json")) out.push(full);
  }
  return out.sort();
}

function suitePatterns() {
  const patterns = new Map(); // pattern -> Set of strings
  const add = (pattern, texts) => {
    if (!patterns.has(pattern)) patterns.set(pattern, new Set());
    for (const text of texts) patterns.get(pattern).add(text);
  };
  for (const draft of ["draft2020-12", "draft7"]) {
    for (const file of files(path.join(SUITE, draft))) {
      for (const group of JSON.parse(fs.readFileSync(file, "utf8"))) {
        const texts = new Set();
        for (const test of group.tests) strings(test.data, texts);
        walk(group.schema, (node) => {
          if (typeof node.pattern === "string") add(node.pattern, texts);
          if (node.patternProperties && typeof node.patternProperties === "object") {
            for (const key of Object.keys(node.patternProperties)) add(key, texts);
          }
          if (node.format === "regex") {
            for (const test of group.tests) if (typeof test.data === "string") add(test.data, []);
          }
        });
      }
    }
  }
  return patterns;
}

function compile(pattern) {
  for (const flags of ["u", ""]) {
    try {
      return [new RegExp(pattern, flags), flags];
    } catch (error) {
      // rejected with these flags: try without `u` (Annex B), then give up
    }
  }
  return [null, null];
}

function main() {
  const patterns = suitePatterns();
  for (const pattern of EDGE_PATTERNS) if (!patterns.has(pattern)) patterns.set(pattern, new Set());
  const rows = [];
  for (const [pattern, texts] of [...patterns.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const [regex, flags] = compile(pattern);
    if (regex === null) {
      rows.push([pattern, null, null, "invalid"]);
      continue;
    }
    const all = [...new Set([...PROBES, ...texts])].sort();
    for (const text of all) rows.push([pattern, flags, text, regex.test(text)]);
  }
  const lines = rows.map((row) => "  " + JSON.stringify(row));
  process.stdout.write(`{"generator": "scripts/pattern_differential.js", "v8": ${JSON.stringify(process.versions.v8)},\n"rows": [\n${lines.join(",\n")}\n]}\n`);
}

main();
