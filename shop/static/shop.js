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

/* catalog: the product page's variant choice shows the variant's price */
document.addEventListener("change", function (e) {
  var sel = e.target;
  if (!sel.matches || !sel.matches("form.add select[name=variant_id]")) return;
  var opt = sel.options[sel.selectedIndex], price = document.querySelector("[data-price]");
  if (opt && price && opt.dataset.price) price.textContent = opt.dataset.price;
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
