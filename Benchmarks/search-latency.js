#!/usr/bin/env node
// Search latency of a built site, as its own script runs it (Benchmarks/run --only site).
// usage: node Benchmarks/search-latency.js SITE_DIR WORD...
// Loads SITE_DIR/_notepress/notepress.js with a minimal document whose <script> elements are read
// from disk (as a browser loads them from file://), then times notepressSearch.search(WORD, 8)
// for each word, cold (nothing loaded but the script) and again warm. Prints one JSON object.
"use strict";
const fs = require("fs");
const vm = require("vm");
const path = require("path");
const site = path.resolve(process.argv[2]);
const words = process.argv.slice(3);
const base = "file://" + site + "/";
let bytesLoaded = 0;
function el() { return { classList: { add() {}, toggle() {} }, setAttribute() {}, removeAttribute() {} }; }
global.window = global;
global.localStorage = { getItem() { return null; }, setItem() {}, removeItem() {} };
global.location = { search: "" };
global.document = {
  documentElement: el(), readyState: "complete", currentScript: { src: base + "_notepress/notepress.js" },
  querySelector() { return null; }, querySelectorAll() { return []; },
  createElement() { return {}; },
  head: { appendChild(s) {
    setImmediate(() => {
      const file = decodeURIComponent(s.src.slice("file://".length));
      let code;
      try { code = fs.readFileSync(file, "utf8"); } catch (e) { s.onerror(); return; }
      bytesLoaded += Buffer.byteLength(code);
      vm.runInThisContext(code, { filename: file });
      s.onload();
    });
  } },
};
vm.runInThisContext(fs.readFileSync(path.join(site, "_notepress/notepress.js"), "utf8"));
(async () => {
  const out = { cold: [], warm: [], results: [], bytes: [] };
  for (const w of words) {
    const before = bytesLoaded;
    let t = process.hrtime.bigint();
    const r = await notepressSearch.search(w, 8);
    out.cold.push(Number(process.hrtime.bigint() - t) / 1e6);
    out.bytes.push(bytesLoaded - before);
    t = process.hrtime.bigint();
    await notepressSearch.search(w, 8);
    out.warm.push(Number(process.hrtime.bigint() - t) / 1e6);
    out.results.push(r ? r.length : -1);
  }
  console.log(JSON.stringify(out));
})();
