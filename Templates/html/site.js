/* The site script of a folder run (Templates/html/site.js, written once as
   _notepress/notepress.js): the colour-scheme toggle (remembered; automatic by default), the
   phone layout's menu button, heading anchor links, copy buttons on code blocks, link previews, and search over
   the index of _notepress/search/ (JavaScript files loaded by <script> tags, so it works from file://). */
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

  /* Search: the tokenizer and normalisation of SearchTerms.swift. Words by Intl.Segmenter (ICU,
     as the index's word break iterator); a word's search form: NFKD, lower-cased, folded by the
     index's table (meta.js "fold": what full case folding changes beyond toLowerCase, ß → ss),
     marks removed, NFKC. A word of Han or kana also matches character by character. Words are
     joined as people type them (`.net`, `c++`, `c#`, `jo@example.com`), a term leaves out
     apostrophes (`O’Reilly` → `oreilly`) and a word's parts are indexed too (`reilly`, `example`). */
  var CJK = /[\u3040-\u30FF\u31F0-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFF66-\uFF9F\uAC00-\uD7AF\u1100-\u11FF\u3130-\u318F\u{20000}-\u{3FFFF}]/u;
  var IDEO = /[\u3040-\u30FF\u31F0-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFF66-\uFF9F\u{20000}-\u{3FFFF}]/u;
  var SEG = window.Intl && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "word" }) : null;
  var SPACE = /[ \n\t\r\f\u00A0]/, APOS = /['\u2018\u2019\u02BC\uFF07]/gu, SPLIT = /['\u2018\u2019\u02BC\uFF07.@]/u;
  /* The words of `text`: [{word, index}] (index: UTF-16 offset), as SearchTerms.wordSpans makes
     them: the segments cut at dots, "@" and apostrophes, pieces with one of those between them
     joined (O’Reilly, example.com, jo@example.com), a "." before a word at the start or after a
     space kept (.net), "++" after a word kept (c++, C++17: c++ and 17), "+" or "#" after a word
     and before no word kept (c#, not a+b). */
  var CONNECTOR = /[.@'\u2018\u2019\u02BC\uFF07]/;
  function words(text) {
    var spans = [], pieces = [], out = [];
    if (SEG) {
      for (var s of SEG.segment(text)) if (s.isWordLike) spans.push([s.index, s.index + s.segment.length]);
    } else {
      var re = /[\p{L}\p{M}\p{N}_'’.]+/gu, m;
      while ((m = re.exec(text))) spans.push([m.index, m.index + m[0].length]);
    }
    spans.forEach(function (sp) {
      var from = sp[0];
      for (var k = sp[0]; k < sp[1]; k++) {
        if (!CONNECTOR.test(text[k])) continue;
        if (k > from) pieces.push([from, k]);
        from = k + 1;
      }
      if (sp[1] > from) pieces.push([from, sp[1]]);
    });
    for (var i = 0; i < pieces.length;) {
      var lo = pieces[i][0], hi = pieces[i][1];
      i++;
      while (i < pieces.length && hi < text.length && CONNECTOR.test(text[hi]) && pieces[i][0] === hi + 1) { hi = pieces[i][1]; i++; }
      if (lo >= 1 && text[lo - 1] === "." && (lo === 1 || SPACE.test(text[lo - 2]))) lo--;
      var e = hi;
      if (text[e] === "#") e++; else while (e < text.length && e - hi < 2 && text[e] === "+") e++;
      if (e > hi && ((e - hi === 2 && text[hi] === "+") || i >= pieces.length || pieces[i][0] !== e)) hi = e;
      out.push({ word: text.slice(lo, hi), index: lo });
    }
    return out;
  }
  /* A word's parts (SearchTerms.parts): its pieces between apostrophes, dots and "@" of two or
     more characters. */
  function wordParts(form) {
    var out = [];
    if (!SPLIT.test(form)) return out;
    form.split(new RegExp(SPLIT.source, "gu")).forEach(function (p) {
      var n = Array.from(p).length;
      if (n >= 2 && n <= 40 && out.indexOf(p) < 0) out.push(p);
    });
    return out;
  }
  function norm(s) {
    var fold = (S.info && S.info.fold) || {}, out = "";
    for (var ch of s.normalize("NFKD").toLowerCase()) out += fold[ch] !== undefined ? fold[ch] : ch;
    return out.normalize("NFKD").replace(/\p{M}/gu, "").normalize("NFKC");
  }
  /* The terms of `text`, in order: {t: term, chars: [characters] for a Han or kana word,
     parts: [the word's parts] when it has any}. */
  function terms(text) {
    var out = [];
    words(text).forEach(function (w) {
      norm(w.word).split(" ").forEach(function (piece) {
        var t = piece.replace(APOS, ""), c = Array.from(t);
        if (!t || c.length > 40) return;
        var x = IDEO.test(t) ? { t: t, chars: c } : { t: t };
        var ps = wordParts(piece).filter(function (p) { return p !== t; });
        if (ps.length) x.parts = ps;
        out.push(x);
      });
    });
    return out;
  }
  /* The index's terms of `text` (SearchTerms.terms), in its order. */
  function flat(text) {
    var out = [];
    terms(text).forEach(function (x) {
      if (!x.chars || x.chars.length > 1) out.push(x.t);
      if (x.chars) out.push.apply(out, x.chars);
      if (x.parts) out.push.apply(out, x.parts);
    });
    return out;
  }
  /* A query: [{terms, phrase, not}] — "quoted words" a phrase, -word excluded, others required. */
  function parse(q) {
    var parts = [], re = /(-?)"([^"]*)"?|(-?)([^\s"]+)/g, m;
    while ((m = re.exec(q))) {
      var phrase = m[2] !== undefined, ts = terms(phrase ? m[2] : m[4]);
      if (!ts.length) continue;
      var not = (phrase ? m[1] : m[3]) === "-";
      if (not) parts.push({ terms: ts, phrase: phrase, not: true });
      else if (phrase) parts.push({ terms: ts, phrase: true });
      else ts.forEach(function (t) { parts.push({ terms: [t] }); });
    }
    return parts;
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
  var S = window.notepressSearch = { raw: {}, indexes: {}, chunks: {}, texts: {}, info: null };
  S.shard = function (key, data) { S.raw[key] = data; };
  S.docs = function (n, list) { S.chunks[n] = list; };
  S.text = function (n, list) { S.texts[n] = list; };
  S.meta = function (m) { S.info = m; };
  S.normalize = norm;
  S.terms = terms;
  S.flat = flat;
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
  /* The sections holding term `t` (a prefix of a term too, unless `exact`): {ref: score}. */
  function lookup(t, exact) {
    var idx = index(shardKey(t)), found = {};
    if (!idx) return found;
    idx.query(function (q) {
      q.term(t, { usePipeline: false, boost: 10 });
      if (!exact) q.term(t, { usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING });
    }).forEach(function (r) { found[r.ref] = (found[r.ref] || 0) + r.score; });
    return found;
  }
  function intersect(a, b) {
    var out = {};
    for (var k in a) if (k in b) out[k] = a[k] + b[k];
    return out;
  }
  /* The sections a query term matches: the term (as a prefix unless `exact`: words to exclude are
     whole words), or for a Han or kana word, also
     the sections holding all of its characters (all of its parts, for a word with dots). */
  function match(term, exact) {
    var found = lookup(term.t, !!exact);
    if (term.chars && term.chars.length > 1) {
      var all = term.chars.map(function (c) { return lookup(c, true); }).reduce(intersect);
      for (var k in all) found[k] = Math.max(found[k] || 0, all[k]);
    }
    /* A typed word of two or more parts (example.com) also matches a longer word holding all
       of them (jo@example.com); the last part as a prefix while typing. */
    if (term.parts && term.parts.length > 1) {
      var n = term.parts.length;
      var every = term.parts.map(function (p, i) { return lookup(p, !!exact || i < n - 1); }).reduce(intersect);
      for (var j in every) found[j] = Math.max(found[j] || 0, every[j]);
    }
    return found;
  }
  /* Whether `ts` (terms) occur in this order, next to each other, among the terms of `text`. */
  function hasPhrase(text, ts) {
    function list(xs) {
      var out = [];
      xs.forEach(function (x) {
        if (x.chars) x.chars.forEach(function (c) { out.push({ t: c }); }); else out.push(x);
      });
      return out;
    }
    var seq = list(terms(text)), want = list(ts);
    /* A word of the text is one of the phrase's words by its term or one of its parts. */
    function same(s, w, last) {
      return (s.parts ? [s.t].concat(s.parts) : [s.t]).some(function (x) { return last ? x.startsWith(w.t) : x === w.t; });
    }
    for (var i = 0; i + want.length <= seq.length; i++) {
      var ok = true;
      for (var j = 0; j < want.length && ok; j++) ok = same(seq[i + j], want[j], j === want.length - 1);
      if (ok) return true;
    }
    return false;
  }
  /* Results, best first, one per page: {title, href, heading, sectionHref, excerpt: [[text, marked]]};
     null when search is unavailable. Every word must match a section (as a prefix while typing),
     a "quoted phrase" its words in order, and no page holding a -word is listed. */
  S.search = function (query, limit) {
    limit = limit || 50;
    return Promise.all([script("_notepress/lunr.js"), script("_notepress/search/meta.js")]).then(function (ok) {
      if (!ok[0] || !ok[1] || !window.lunr || !S.info) return null;
      var parts = parse(query), need = parts.filter(function (p) { return !p.not; });
      if (!need.length) return [];
      var all = [];
      parts.forEach(function (p) {
        p.terms.forEach(function (t) {
          all.push(t.t);
          if (t.chars) all.push.apply(all, t.chars);
          if (t.parts) all.push.apply(all, t.parts);
        });
      });
      var have = new Set(S.info.shards), names = new Set(all.map(function (t) { return hex(shardKey(t)); }));
      return Promise.all(Array.from(names).map(function (name) {
        return have.has(name) ? script("_notepress/search/t-" + name + ".js") : Promise.resolve(false);
      })).then(function () {
        var found = null;
        need.forEach(function (p) {
          p.terms.forEach(function (t) { var m = match(t); found = found === null ? m : intersect(found, m); });
        });
        var excluded = {};
        parts.forEach(function (p) {
          if (!p.not) return;
          var m = null;
          p.terms.forEach(function (t) { var x = match(t, true); m = m === null ? x : intersect(m, x); });
          for (var k in m) excluded[k] = p;
        });
        var list = Object.keys(found || {}).map(function (k) { return { ref: +k, score: found[k] }; });
        list.sort(function (a, b) { return b.score - a.score || a.ref - b.ref; });
        var per = S.info.docsPerFile, phrases = parts.filter(function (p) { return p.phrase && !p.not; });
        function load(refs) {
          var chunks = new Set(refs.map(function (r) { return Math.floor(r / per); })), files = [];
          chunks.forEach(function (c) { files.push(script("_notepress/search/docs-" + c + ".js"), script("_notepress/search/text-" + c + ".js")); });
          return Promise.all(files);
        }
        function doc(ref) { return (S.chunks[Math.floor(ref / per)] || [])[ref % per]; }
        function text(ref) { return (S.texts[Math.floor(ref / per)] || [])[ref % per] || ""; }
        var out = [], seen = {}, banned = {}, at = 0, most = Math.min(list.length, limit * 4);
        /* The candidates' files are loaded a few at a time, best first, until `limit` results
           are found: a query never loads the sections of results it does not show. */
        function more() {
          if (out.length >= limit || at >= most) return out;
          var batch = list.slice(at, Math.min(most, at + limit + 2));
          at += batch.length;
          return load(batch.map(function (r) { return r.ref; })).then(function () {
            batch.forEach(function (r) {
              var d = doc(r.ref);
              if (!d || out.length >= limit) return;
              var page = d[1].split("#")[0], body = text(r.ref);
              if (seen[page] || banned[page]) return;
              var full = body.length < S.info.textLength;
              var ok = phrases.every(function (p) {
                return hasPhrase(d[0], p.terms) || hasPhrase(d[2], p.terms) || hasPhrase(body, p.terms) || !full;
              });
              if (!ok) return;
              seen[page] = true;
              out.push({ title: d[0], href: base + page, heading: d[2], sectionHref: base + d[1],
                         excerpt: excerpt(body, all) });
            });
            return more();
          });
        }
        var skip = Object.keys(excluded).map(Number);
        return load(skip).then(function () {
          skip.forEach(function (k) {
            var d = doc(k), p = excluded[k];
            if (d && (!p.phrase || hasPhrase(d[0] + " \n " + d[2] + " \n " + text(k), p.terms))) banned[d[1].split("#")[0]] = true;
          });
          return more();
        });
      });
    });
  };
  /* An excerpt of `text` around the first word matching one of `ts` (normalised terms, as
     prefixes): [[text, marked]], the matching words marked. */
  function excerpt(text, ts) {
    if (!text) return [];
    var ws = words(text), first = -1;
    var hits = ws.filter(function (w) {
      var form = norm(w.word), n = form.replace(APOS, ""), ps = wordParts(form);
      return ts.some(function (t) {
        return t && (n.startsWith(t) || (IDEO.test(t) && n.indexOf(t) >= 0) || ps.some(function (p) { return p.startsWith(t); }));
      });
    });
    if (hits.length) first = hits[0].index;
    var from = Math.max(0, first - 60), to = Math.min(text.length, Math.max(from, first) + 160);
    if (from > 0) { var sp = text.indexOf(" ", from); if (sp >= 0 && sp < first) from = sp + 1; }
    var out = [], at = from;
    if (from > 0) out.push(["…", false]);
    hits.forEach(function (w) {
      if (w.index < at || w.index + w.word.length > to) return;
      if (w.index > at) out.push([text.slice(at, w.index), false]);
      out.push([w.word, true]);
      at = w.index + w.word.length;
    });
    if (at < to) out.push([text.slice(at, to), false]);
    if (to < text.length) out.push(["…", false]);
    return out;
  }

  function item(r) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = r.href;
    a.textContent = r.title;
    li.appendChild(a);
    if (r.heading && r.heading !== r.title) {
      var h = document.createElement("a");
      h.className = "search-heading";
      h.href = r.sectionHref;
      h.textContent = r.heading;
      li.appendChild(document.createTextNode(" › "));
      li.appendChild(h);
    }
    if (r.excerpt && r.excerpt.length) {
      var p = document.createElement("p");
      p.className = "search-excerpt";
      r.excerpt.forEach(function (part) {
        if (part[1]) { var m = document.createElement("mark"); m.textContent = part[0]; p.appendChild(m); }
        else p.appendChild(document.createTextNode(part[0]));
      });
      li.appendChild(p);
    }
    return li;
  }
  /* Arrow keys move through `list`'s results (the active one marked), Enter opens it. */
  function keys(input, list) {
    input.addEventListener("keydown", function (e) {
      var links = Array.from(list.querySelectorAll(":scope > li > a:first-child"));
      if (!links.length || list.hidden) return;
      var at = links.findIndex(function (a) { return a.classList.contains("active"); });
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        if (at >= 0) { links[at].classList.remove("active"); links[at].removeAttribute("aria-selected"); }
        at = e.key === "ArrowDown" ? (at + 1) % links.length : (at <= 0 ? links.length : at) - 1;
        links[at].classList.add("active");
        links[at].setAttribute("aria-selected", "true");
        links[at].scrollIntoView({ block: "nearest" });
      } else if (e.key === "Enter" && at >= 0) {
        e.preventDefault();
        location.href = links[at].href;
      }
    });
  }
  function count(n, q) {
    return n ? n + (n === 1 ? " result" : " results") + " for “" + q + "”" : "No results for “" + q + "”.";
  }

  /* The text of a code block to copy: its lines, less a terminal session's prompts and output
     (languages console, shell-session, sh-session, pwsh-session: only the lines after a prompt,
     without it), when it has any. */
  function codeText(code) {
    var text = code.textContent;
    if (!/(^|\s)language-(console|shell-session|sh-session|pwsh-session)(\s|$)/.test(code.className)) return text;
    var lines = text.replace(/\n$/, "").split("\n"), commands = [];
    lines.forEach(function (l) { var m = /^(?:PS [^>]*)?[$>] (.*)$/.exec(l); if (m) commands.push(m[1]); });
    return commands.length ? commands.join("\n") + "\n" : text;
  }
  /* Puts `text` on the clipboard: the Clipboard API where the page may use it (file:// and
     localhost are secure contexts), else a selected text area and the copy command. */
  function copy(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(text).then(function () { return true; }, function () { return legacyCopy(text); });
    }
    return Promise.resolve(legacyCopy(text));
  }
  function legacyCopy(text) {
    var t = document.createElement("textarea");
    t.value = text;
    t.setAttribute("readonly", "");
    t.style.cssText = "position:fixed;top:0;left:0;opacity:0";
    document.body.appendChild(t);
    t.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(t);
    return ok;
  }

  /* Link previews (Quartz's popovers): hovering or focusing a link in a page to another page of
     the site shows that page's title and first paragraph, or the linked section's heading and
     start, read from _notepress/previews/ (JavaScript files added as <script> tags on the first
     hover, so it works from file://; a page's file is the FNV-1a hash of its path, as
     SitePreviews.swift writes it). Text only (textContent, never markup); Escape hides it; fixed
     below the link (above it when there is no room), so it never covers the pointer nor moves
     the page. */
  var P = window.notepressPreviews = { info: null, shards: {} };
  P.meta = function (m) { P.info = m; };
  P.shard = function (n, data) { P.shards[n] = data; };
  function fnv(s) {
    var h = 0x811c9dc5;
    new TextEncoder().encode(s).forEach(function (b) { h = Math.imul(h ^ b, 0x01000193) >>> 0; });
    return h;
  }
  function previewTarget(a) {
    var href = a.getAttribute("href");
    if (!href || href.charAt(0) === "#" || !base) return null;
    var u;
    try { u = new URL(href, location.href); } catch (e) { return null; }
    var page = u.protocol + "//" + u.host + u.pathname;
    if (page.indexOf(base) !== 0) return null;
    var key = page.slice(base.length);
    if (key === "" || key.slice(-1) === "/") key += "index.html";
    try { key = decodeURIComponent(key); } catch (e) { return null; }
    if (!/\.html$/.test(key)) return null;
    var id = "";
    try { id = u.hash ? decodeURIComponent(u.hash.slice(1)) : ""; } catch (e) { id = ""; }
    return { key: key, id: id };
  }
  function previewData(key) {
    return script("_notepress/previews/meta.js").then(function (ok) {
      if (!ok || !P.info || !P.info.shards) return null;
      var n = fnv(key) % P.info.shards;
      return script("_notepress/previews/" + n + ".js").then(function () { return (P.shards[n] || {})[key] || null; });
    });
  }
  function previews() {
    var box = null, current = null, timer = 0, serial = 0;
    function hide() {
      clearTimeout(timer);
      serial++;
      if (box) box.hidden = true;
      if (current) { current.removeAttribute("aria-describedby"); current = null; }
    }
    function para(cls, text) {
      var p = document.createElement("p");
      p.className = cls;
      p.textContent = text;
      box.appendChild(p);
    }
    function place(a) {
      var r = a.getBoundingClientRect(), vw = document.documentElement.clientWidth, vh = window.innerHeight;
      var w = Math.min(352, vw - 16);
      box.style.width = w + "px";
      box.style.left = Math.max(8, Math.min(r.left, vw - w - 8)) + "px";
      box.style.top = "0px";
      box.hidden = false;
      var h = box.offsetHeight;
      box.style.top = (r.bottom + 6 + h > vh - 8 && r.top - 6 - h >= 8 ? r.top - 6 - h : r.bottom + 6) + "px";
    }
    function show(a, delay) {
      var t = previewTarget(a);
      if (!t || a === current) return;
      hide();
      var mine = serial;
      timer = setTimeout(function () {
        previewData(t.key).then(function (d) {
          if (mine !== serial || !d) return;
          if (!box) {
            box = document.createElement("div");
            box.className = "link-preview";
            box.id = "link-preview";
            box.setAttribute("role", "tooltip");
            box.hidden = true;
            document.body.appendChild(box);
          }
          box.textContent = "";
          var text = d[1], heading = "";
          (t.id ? d[2] || [] : []).forEach(function (s) { if (s[0] === t.id) { heading = s[1]; text = s[2] || text; } });
          para("link-preview-title", d[0]);
          if (heading) para("link-preview-section", heading);
          if (text) para("link-preview-text", text);
          current = a;
          a.setAttribute("aria-describedby", "link-preview");
          place(a);
        });
      }, delay);
    }
    function link(e) { return e.target && e.target.closest ? e.target.closest(".note a[href]") : null; }
    document.addEventListener("mouseover", function (e) { var a = link(e); if (a) show(a, 250); });
    document.addEventListener("mouseout", function (e) { var a = link(e); if (a && !a.contains(e.relatedTarget)) hide(); });
    document.addEventListener("focusin", function (e) { var a = link(e); if (a) show(a, 0); });
    document.addEventListener("focusout", function (e) { if (link(e)) hide(); });
    document.addEventListener("keydown", function (e) { if (e.key === "Escape") hide(); });
    window.addEventListener("scroll", function () { if (current) hide(); }, { passive: true });
  }

  function init() {
    previews();
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
    /* The page's contents: open beside the text on wide screens, folded above it on narrow
       ones (folded again after a jump); the section being read is marked (aria-current). */
    var contents = document.querySelector(".page-contents");
    if (contents) {
      var wide = window.matchMedia("(min-width: 75rem)");
      var fit = function () { contents.open = wide.matches; };
      fit();
      if (wide.addEventListener) wide.addEventListener("change", fit);
      var links = [].slice.call(contents.querySelectorAll("a[href^='#']"));
      var heads = links.map(function (a) {
        try { return document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1))); } catch (e) { return null; }
      });
      var mark = function () {
        var current = -1;
        heads.forEach(function (h, i) { if (h && h.getBoundingClientRect().top <= 80) current = i; });
        if (current < 0 && heads[0]) current = 0;
        links.forEach(function (a, i) { if (i === current) a.setAttribute("aria-current", "true"); else a.removeAttribute("aria-current"); });
      };
      var queued = false;
      window.addEventListener("scroll", function () {
        if (queued) return;
        queued = true;
        setTimeout(function () { queued = false; mark(); }, 50);
      }, { passive: true });
      links.forEach(function (a) { a.addEventListener("click", function () { if (!wide.matches) contents.open = false; }); });
      mark();
    }
    /* Copy buttons on code blocks (keyboard reachable, said through a live region; hidden in
       print). What is copied is the code as the reader sees it, less what is not code: a
       terminal session's prompts (`$ ` and `> `) are dropped with its output lines. */
    var said = null;
    document.querySelectorAll(".note pre > code").forEach(function (code) {
      var pre = code.parentNode;
      var b = document.createElement("button");
      b.type = "button";
      b.className = "copy-code";
      b.textContent = "Copy";
      b.setAttribute("aria-label", "Copy the code");
      b.addEventListener("click", function () {
        copy(codeText(code)).then(function (ok) {
          if (!said) {
            said = document.createElement("p");
            said.className = "copy-status";
            said.setAttribute("role", "status");
            said.setAttribute("aria-live", "polite");
            document.body.appendChild(said);
          }
          said.textContent = ok ? "Code copied" : "Could not copy the code";
          b.textContent = ok ? "Copied" : "Copy failed";
          setTimeout(function () { b.textContent = "Copy"; }, 2000);
        });
      });
      pre.classList.add("has-copy");
      pre.appendChild(b);
    });
    /* Suggestions while typing; "/" focuses the box; the count is announced (aria-live). */
    var form = document.querySelector(".site-search");
    var input = form && form.querySelector("input[name=q]");
    var box = form && form.querySelector(".search-suggestions");
    if (input) {
      document.addEventListener("keydown", function (e) {
        var t = e.target, typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
        if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); input.focus(); }
      });
    }
    var results = document.querySelector(".search-results");
    if (input && box && !results) {
      var live = document.createElement("p");
      live.className = "search-count";
      live.setAttribute("role", "status");
      live.setAttribute("aria-live", "polite");
      live.style.cssText = "position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;margin:0";
      form.appendChild(live);
      var serial = 0;
      input.addEventListener("input", function () {
        var mine = ++serial;
        S.search(input.value, 8).then(function (rs) {
          if (mine !== serial) return;
          box.textContent = "";
          (rs || []).forEach(function (r) { box.appendChild(item(r)); });
          box.hidden = !rs || !rs.length;
          live.textContent = rs && input.value.trim() ? count(rs.length, input.value) : "";
        });
      });
      input.addEventListener("keydown", function (e) { if (e.key === "Escape") box.hidden = true; });
      keys(input, box);
    }
    /* The results page: search.html?q=WORDS (its status is a live region). */
    var status = document.querySelector(".search-status");
    if (results && status) {
      var q = new URLSearchParams(location.search).get("q") || "";
      if (input) { input.value = q; keys(input, results); }
      if (!q.trim()) { status.textContent = "Type words to search for in the search box."; return; }
      status.textContent = "Searching…";
      S.search(q, 50).then(function (rs) {
        if (rs === null) { status.textContent = "Search is not available: its index or lunr.js is missing."; return; }
        results.textContent = "";
        rs.forEach(function (r) { results.appendChild(item(r)); });
        status.textContent = count(rs.length, q);
      });
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
