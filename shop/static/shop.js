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
