// Storefront shop: progressive enhancement only. Every page works without
// this file; it adds the quantity steppers and the variant picker's live price.
"use strict";

/* cart and checkout: quantity steppers. Each input[data-stepper] gets a
   "one less" and a "one more" button (labels from its data-less and
   data-more attributes); the form's own Update button still sends it. */
(function () {
  function stepper(input) {
    var min = Number(input.min || 0), max = Number(input.max || 1000);
    function button(text, label, delta) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "step";
      b.textContent = text;
      b.setAttribute("aria-label", label);
      b.addEventListener("click", function () {
        var v = Math.min(max, Math.max(min, (Number(input.value) || 0) + delta));
        input.value = String(v);
        input.dispatchEvent(new Event("change", { bubbles: true }));
      });
      return b;
    }
    input.parentNode.insertBefore(button("−", input.dataset.less || "-", -1), input);
    input.parentNode.insertBefore(button("+", input.dataset.more || "+", 1), input.nextSibling);
  }
  function init() {
    document.querySelectorAll("input[data-stepper]").forEach(stepper);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();

/* product page: the variant picker. Each fieldset.options of the add form
   is one option (the radios its values); script[data-variants] lists the
   variants: their value in each group (opts), price, was, stock text, in
   stock, and their picture's place in the gallery (shot, -1: none). A
   choice disables the values of the later groups no variant in stock has
   with the values chosen before them (as the server renders it), and the
   price, stock, button and picture follow the variant chosen. The form
   posts the values; the server resolves the variant. */
(function () {
  function attach(form) {
    var data = form.querySelector("script[data-variants]");
    if (!data) return;
    var variants = JSON.parse(data.textContent), groups = [].slice.call(form.querySelectorAll("fieldset.options"));
    var price = document.querySelector("[data-price]"), was = price && price.parentNode.querySelector("s"),
      stock = document.querySelector("[data-stock]"), add = form.querySelector("button[type=submit]");
    function agrees(v, n, values) {
      for (var j = 0; j < n; j++) if (v.opts[j] !== values[j]) return false;
      return true;
    }
    function settle() { // the values chosen, each group left with an enabled one checked when it has one
      var values = [];
      groups.forEach(function (g, i) {
        var radios = [].slice.call(g.querySelectorAll("input[type=radio]"));
        radios.forEach(function (r) {
          r.disabled = !variants.some(function (v) { return v.in && v.opts[i] === r.value && agrees(v, i, values); });
          if (r.disabled) r.checked = false;
        });
        var on = g.querySelector("input:checked") || g.querySelector("input:not(:disabled)");
        if (on) on.checked = true;
        values.push(on ? on.value : null);
      });
      return values;
    }
    form.addEventListener("change", function (e) {
      if (!e.target.closest("fieldset.options")) return;
      var values = settle(), v = variants.filter(function (x) { return agrees(x, groups.length, values); })[0];
      if (!v) return;
      if (price) price.textContent = v.price;
      if (was) {
        was.hidden = !v.was;
        while (was.childNodes.length > 1) was.removeChild(was.lastChild); // keeps the "Was" label
        was.appendChild(document.createTextNode(v.was || ""));
      }
      if (stock) {
        stock.textContent = v.stock;
        stock.className = "stock " + (v.in ? "in" : "out");
      }
      if (add) add.disabled = !v.in;
      if (v.shot >= 0) document.dispatchEvent(new CustomEvent("shop:shot", { detail: v.shot }));
    });
  }
  function init() { document.querySelectorAll("form.add").forEach(attach); }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();

/* product page: the gallery. A thumbnail (.thumbs a, a link to its
   picture's slide without this file) shows its picture in place; the
   event shop:shot (the variant picker's) shows picture detail (from 0); a
   swipe marks the thumbnail of the picture it stops on.
   A picture (a link to its full size without this file) opens at full
   size in a <dialog>. */
(function () {
  function attach(gallery) {
    var strip = gallery.querySelector(".shots");
    if (!strip) return;
    var thumbs = [].slice.call(gallery.querySelectorAll(".thumbs a")), dialog;
    function mark(i) {
      thumbs.forEach(function (a, j) {
        if (j === i) a.setAttribute("aria-current", "true");
        else a.removeAttribute("aria-current");
      });
    }
    function show(i) {
      var li = strip.children[i];
      if (!li) return;
      strip.scrollLeft += li.getBoundingClientRect().left - strip.getBoundingClientRect().left;
      mark(i);
    }
    strip.addEventListener("scrollend", function () { // a swipe marks the picture it stops on
      var left = strip.getBoundingClientRect().left, best = 0, dist = Infinity;
      [].forEach.call(strip.children, function (li, i) {
        var d = Math.abs(li.getBoundingClientRect().left - left);
        if (d < dist) { dist = d; best = i; }
      });
      mark(best);
    });
    thumbs.forEach(function (a, i) {
      a.addEventListener("click", function (e) {
        e.preventDefault();
        show(i);
      });
    });
    document.addEventListener("shop:shot", function (e) { show(e.detail); });
    function lightbox() {
      var d = document.createElement("dialog"), f = document.createElement("form"), b = document.createElement("button");
      d.className = "lightbox";
      f.method = "dialog";
      b.type = "submit";
      b.textContent = gallery.dataset.close || "Close";
      f.appendChild(b);
      d.appendChild(f);
      d.appendChild(document.createElement("img"));
      d.addEventListener("click", function (e) { if (e.target === d) d.close(); });
      document.body.appendChild(d);
      return d;
    }
    strip.addEventListener("click", function (e) {
      var a = e.target.closest("a.zoom"), img = a && a.querySelector("img");
      if (!img || typeof HTMLDialogElement !== "function") return;
      e.preventDefault();
      dialog = dialog || lightbox();
      var big = dialog.querySelector("img");
      big.src = a.href;
      big.alt = img.alt;
      dialog.setAttribute("aria-label", img.alt);
      dialog.showModal();
    });
  }
  function init() { document.querySelectorAll(".gallery").forEach(attach); }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();

/* header: the menu (a <details>) closes on Escape and on a click outside it */
document.addEventListener("click", function (e) {
  document.querySelectorAll("details.menu[open]").forEach(function (d) {
    if (!d.contains(e.target) && getComputedStyle(d.querySelector("summary")).display !== "none") d.open = false;
  });
});
document.addEventListener("keydown", function (e) {
  if (e.key !== "Escape") return;
  document.querySelectorAll("details.menu[open]").forEach(function (d) {
    var s = d.querySelector("summary");
    if (getComputedStyle(s).display === "none") return;
    d.open = false;
    if (d.contains(document.activeElement)) s.focus();
  });
});

/* search: as-you-type suggestions. Each search box (input[name=q] of a
   form sent to /search/) gets a datalist of the names of the products the
   text typed so far finds (GET /search/suggest); choosing one opens its
   page. Without this file the form searches as typed. */
(function () {
  var n = 0;
  function attach(input) {
    var list = document.createElement("datalist"), urls = {}, timer, last = "";
    list.id = "q-hints-" + (++n);
    input.parentNode.insertBefore(list, input.nextSibling);
    input.setAttribute("list", list.id);
    input.setAttribute("autocomplete", "off");
    function fill(q, items) {
      if (input.value.trim() !== q) return;
      list.textContent = "";
      urls = {};
      items.forEach(function (h) {
        var o = document.createElement("option");
        o.value = h.name;
        urls[h.name] = h.url;
        list.appendChild(o);
      });
    }
    input.addEventListener("input", function (e) {
      if (urls[input.value] && (!e.inputType || e.inputType === "insertReplacementText")) {
        window.location.href = urls[input.value];
        return;
      }
      clearTimeout(timer);
      timer = setTimeout(function () {
        var q = input.value.trim();
        if (q === last) return;
        last = q;
        if (q.length < 2) return fill(q, []);
        fetch("/search/suggest?q=" + encodeURIComponent(q), { headers: { Accept: "application/json" } })
          .then(function (r) { return r.ok ? r.json() : { items: [] }; })
          .then(function (d) { fill(q, d.items || []); })
          .catch(function () {});
      }, 150);
    });
  }
  function init() {
    document.querySelectorAll('form[action="/search/"] input[name=q]').forEach(attach);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
