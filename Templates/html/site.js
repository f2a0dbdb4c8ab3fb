/* The site script of a folder run (Templates/html/site.js, written once as
   _notepress/notepress.js): the colour-scheme toggle (remembered; automatic by default), the
   phone layout's menu button, heading anchor links, and search over the index of
   _notepress/search/ (JavaScript files loaded by <script> tags, so it works from file://). */
(function () {
  "use strict";
  var html = document.documentElement;
  html.classList.add("js");
  var KEY = "notepress-theme";
  function stored() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
  function applyTheme(t) {
    if (t === "light" || t === "dark") html.setAttribute("data-theme", t); else html.removeAttribute("data-theme");
  }
  applyTheme(stored());
  var me = document.currentScript;
  var base = me ? me.src.replace(/_notepress\/notepress\.js([?#].*)?$/, "") : "";

  /* Search: the tokenizer of SearchTerms.swift. */
  var CJK = /[\u3040-\u30FF\u31F0-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFF66-\uFF9F\uAC00-\uD7AF\u1100-\u11FF\u3130-\u318F\u{20000}-\u{3FFFF}]/u;
  var WORD = /[\p{Alphabetic}\p{M}\p{N}]/u;
  function terms(text) {
    var out = [], word = "", cjk = [];
    function flushWord() { if (word && Array.from(word).length <= 40) out.push(word.toLowerCase()); word = ""; }
    function flushCJK() {
      if (cjk.length === 1) out.push(cjk[0]);
      for (var i = 0; i + 1 < cjk.length; i++) out.push(cjk[i] + cjk[i + 1]);
      cjk = [];
    }
    for (var ch of text) {
      if (CJK.test(ch)) { flushWord(); cjk.push(ch); }
      else if (WORD.test(ch)) { flushCJK(); word += ch; }
      else { flushWord(); flushCJK(); }
    }
    flushWord(); flushCJK();
    return out;
  }
  function shardKey(t) {
    var c = Array.from(t);
    if (!c.length || !S.info.depth) return "";
    return CJK.test(c[0]) || c.length === 1 ? c[0] : c[0] + c[1];
  }
  function hex(s) {
    if (!s) return "all";
    return Array.from(new TextEncoder().encode(s), function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }
  var S = window.notepressSearch = { raw: {}, indexes: {}, chunks: {}, info: null };
  S.shard = function (key, data) { S.raw[key] = data; };
  S.docs = function (n, list) { S.chunks[n] = list; };
  S.meta = function (m) { S.info = m; };
  var loading = {};
  function script(path) {
    if (!loading[path]) {
      loading[path] = new Promise(function (resolve) {
        var s = document.createElement("script");
        s.src = base + path;
        s.onload = function () { resolve(true); };
        s.onerror = function () { resolve(false); };
        document.head.appendChild(s);
      });
    }
    return loading[path];
  }
  function index(key) {
    if (!S.indexes[key] && S.raw[key]) { S.indexes[key] = lunr.Index.load(S.raw[key]); delete S.raw[key]; }
    return S.indexes[key];
  }
  /* Results, best first, one per page: {title, heading, href}; null when search is unavailable. */
  S.search = function (query, limit) {
    var ts = Array.from(new Set(terms(query)));
    if (!ts.length) return Promise.resolve([]);
    return Promise.all([script("_notepress/lunr.js"), script("_notepress/search/meta.js")]).then(function (ok) {
      if (!ok[0] || !ok[1] || !window.lunr || !S.info) return null;
      var have = new Set(S.info.shards);
      return Promise.all(ts.map(function (t) {
        var name = hex(shardKey(t));
        return have.has(name) ? script("_notepress/search/t-" + name + ".js") : Promise.resolve(false);
      })).then(function () {
        var found = {};
        ts.forEach(function (t) {
          var idx = index(shardKey(t));
          if (!idx) return;
          var prefix = Array.from(t).length >= 2 && !CJK.test(t);
          idx.query(function (q) {
            q.term(t, { usePipeline: false, boost: 10 });
            if (prefix) q.term(t, { usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING });
          }).forEach(function (r) {
            var f = found[r.ref] || (found[r.ref] = { ref: +r.ref, score: 0, terms: 0 });
            f.score += r.score; f.terms += 1;
          });
        });
        var list = Object.keys(found).map(function (k) { return found[k]; });
        list.sort(function (a, b) { return b.terms - a.terms || b.score - a.score || a.ref - b.ref; });
        var per = S.info.docsPerFile;
        var top = list.slice(0, (limit || 50) * 3);
        return Promise.all(top.map(function (r) { return script("_notepress/search/docs-" + Math.floor(r.ref / per) + ".js"); }))
          .then(function () {
            var seen = {}, out = [];
            top.forEach(function (r) {
              var d = (S.chunks[Math.floor(r.ref / per)] || [])[r.ref % per];
              if (!d) return;
              var page = d[1].split("#")[0];
              if (seen[page] || out.length >= (limit || 50)) return;
              seen[page] = true;
              out.push({ title: d[0], href: base + d[1], heading: d[2] });
            });
            return out;
          });
      });
    });
  };

  function item(r) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = r.href;
    a.textContent = r.title;
    li.appendChild(a);
    if (r.heading && r.heading !== r.title) {
      var h = document.createElement("span");
      h.className = "search-heading";
      h.textContent = " › " + r.heading;
      a.appendChild(h);
    }
    return li;
  }

  function init() {
    /* Colour scheme: automatic → light → dark → automatic. */
    var toggle = document.querySelector(".theme-toggle");
    if (toggle) {
      var show = function () { toggle.textContent = "Theme: " + (stored() || "auto"); };
      toggle.hidden = false;
      show();
      toggle.addEventListener("click", function () {
        var next = { light: "dark", dark: "auto" }[stored()] || "light";
        try { if (next === "auto") localStorage.removeItem(KEY); else localStorage.setItem(KEY, next); } catch (e) {}
        applyTheme(next);
        show();
      });
    }
    /* The phone layout's menu button. */
    var menu = document.querySelector(".nav-toggle");
    if (menu) {
      menu.hidden = false;
      menu.addEventListener("click", function () {
        var open = html.classList.toggle("nav-open");
        menu.setAttribute("aria-expanded", open ? "true" : "false");
      });
    }
    /* Heading anchors: ¶ after each heading with an id, shown on hover and focus. */
    document.querySelectorAll(".note :is(h1, h2, h3, h4, h5, h6)[id]").forEach(function (h) {
      var a = document.createElement("a");
      a.className = "heading-anchor";
      a.href = "#" + encodeURIComponent(h.id);
      a.setAttribute("aria-label", "Link to this section");
      a.textContent = "¶";
      h.appendChild(a);
    });
    /* Suggestions while typing. */
    var form = document.querySelector(".site-search");
    var input = form && form.querySelector("input[name=q]");
    var box = form && form.querySelector(".search-suggestions");
    if (input && box) {
      var serial = 0;
      input.addEventListener("input", function () {
        var mine = ++serial;
        S.search(input.value, 8).then(function (rs) {
          if (mine !== serial) return;
          box.textContent = "";
          (rs || []).forEach(function (r) { box.appendChild(item(r)); });
          box.hidden = !rs || !rs.length;
        });
      });
      input.addEventListener("keydown", function (e) { if (e.key === "Escape") box.hidden = true; });
    }
    /* The results page: search.html?q=WORDS. */
    var results = document.querySelector(".search-results");
    var status = document.querySelector(".search-status");
    if (results && status) {
      var q = new URLSearchParams(location.search).get("q") || "";
      if (input) input.value = q;
      if (!q.trim()) { status.textContent = "Type words to search for in the search box."; return; }
      status.textContent = "Searching…";
      S.search(q, 50).then(function (rs) {
        if (rs === null) { status.textContent = "Search is not available: its index or lunr.js is missing."; return; }
        results.textContent = "";
        rs.forEach(function (r) { results.appendChild(item(r)); });
        status.textContent = rs.length ? rs.length + (rs.length === 1 ? " result" : " results") + " for “" + q + "”"
          : "No results for “" + q + "”.";
      });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
