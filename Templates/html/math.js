// Notepress: draws each math span (<span class="math math-inline|math-display">TeX</span>) with
// KaTeX (Debian's libjs-katex, copied beside the page or carried in it). Without KaTeX the TeX
// source stays visible as written.
(function () {
  function draw() {
    if (!window.katex) return;
    var spans = document.querySelectorAll("span.math");
    for (var i = 0; i < spans.length; i++) {
      var e = spans[i];
      try {
        katex.render(e.textContent, e, { displayMode: e.classList.contains("math-display"), throwOnError: false });
      } catch (x) { /* left as TeX */ }
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", draw); else draw();
})();
