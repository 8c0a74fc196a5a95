// Storefront shop: progressive enhancement only. Every page works without
// this file; it adds the quantity steppers, the cart that updates itself,
// the header's cart count, the variant picker's live price and the search
// suggestions.
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
    var less = button("−", input.dataset.less || "-", -1), more = button("+", input.dataset.more || "+", 1);
    if (input.id) {
      less.id = input.id + "-less";
      more.id = input.id + "-more";
    }
    input.parentNode.insertBefore(less, input);
    input.parentNode.insertBefore(more, input.nextSibling);
  }
  function init() {
    document.querySelectorAll("input[data-stepper]").forEach(stepper);
  }
  window.sfSteppers = function (root) {
    root.querySelectorAll("input[data-stepper]").forEach(stepper);
  };
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

/* the header's cart count: the sf_count cookie the server writes whenever
   this browser's cart changes (never part of a shared cached page). */
function sfCartCount() {
  var m = /(?:^|;\s*)sf_count=(\d+)/.exec(document.cookie), n = m ? Number(m[1]) : 0;
  document.querySelectorAll("[data-cart-count]").forEach(function (b) {
    b.textContent = n > 99 ? "99+" : String(n);
    b.hidden = n < 1;
  });
}
(function () {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", sfCartCount);
  } else {
    sfCartCount();
  }
  window.addEventListener("pageshow", sfCartCount); // back/forward cache
})();

/* a notice a redirect named (?m=) is shown once: the address loses it, so
   a reload or a bookmark does not show it again. */
(function () {
  if (!window.history.replaceState || !/[?&]m=/.test(window.location.search)) return;
  var q = window.location.search.slice(1).split("&").filter(function (p) { return p.slice(0, 2) !== "m="; }).join("&");
  window.history.replaceState(window.history.state, "", window.location.pathname + (q ? "?" + q : "") + window.location.hash);
})();

/* the cart that reacts: the cart page's forms (quantity, steppers, remove,
   coupon, delivery choice) are sent with fetch to their own routes; the
   answer is the cart page, whose #cart-view replaces this one (the
   server's lines and totals, never a sum made here) and whose data-say is
   announced in #cart-live. One request at a time: changes made meanwhile
   wait, the last value of each form winning; "Go to checkout" waits too. */
(function () {
  var queue = [], busy = false, leave = null;
  function view() { return document.getElementById("cart-view"); }
  function keyOf(form) {
    var p = form.querySelector("[name=product_id]"), v = form.querySelector("[name=variant_id]");
    return form.getAttribute("action").split("?")[0] + (p ? p.value + "-" + (v ? v.value : "") : "");
  }
  function enqueue(form, method) {
    var key = keyOf(form), body = new URLSearchParams(new FormData(form)).toString();
    queue = queue.filter(function (j) { return j.key !== key; });
    queue.push({ key: key, form: form, method: method, body: body });
    if (!busy) next();
  }
  function next() {
    var job = queue.shift();
    if (!job) {
      busy = false;
      var to = leave && leave();
      leave = null;
      if (to) window.location.href = to;
      return;
    }
    busy = true;
    var url = job.form.getAttribute("action"), init = { method: job.method, credentials: "same-origin", headers: { Accept: "text/html" } };
    if (job.method === "GET") {
      url = url.split("?")[0] + "?" + job.body;
      window.history.replaceState(window.history.state, "", url); // a reload keeps the choice
    } else {
      init.body = job.body;
      init.headers["Content-Type"] = "application/x-www-form-urlencoded";
    }
    fetch(url, init).then(function (r) {
      if (r.status >= 500) throw new Error(String(r.status));
      return r.text();
    }).then(function (html) {
      if (!queue.length) show(html);
      next();
    }).catch(function () {
      queue = [];
      busy = false;
      HTMLFormElement.prototype.submit.call(job.form); // as without this file
    });
  }
  function show(html) {
    var doc = new DOMParser().parseFromString(html, "text/html"), fresh = doc.getElementById("cart-view"), old = view();
    if (!fresh || !old) {
      window.location.href = "/cart/"; // not the cart page: show the cart as it is
      return;
    }
    var a = document.activeElement, inside = old.contains(a), focused = inside && a.id;
    old.replaceWith(document.importNode(fresh, true));
    var now = view();
    window.sfSteppers(now);
    sfCartCount();
    var f = focused && document.getElementById(focused);
    if (f && a.tagName === "INPUT" && a.name !== "quantity" && a.type !== "radio") f.value = a.value; // typing on: kept
    if (f) f.focus();
    else if (inside) document.getElementById("main").focus(); // its line is gone
    var live = document.getElementById("cart-live");
    if (live) live.textContent = now.getAttribute("data-say") || "";
  }
  function cartForm(el) {
    var f = el && el.closest && el.closest("form");
    return f && view() && view().contains(f) ? f : null;
  }
  document.addEventListener("change", function (e) {
    var f = cartForm(e.target);
    if (!f) return;
    if (e.target.name === "quantity") {
      var v = Number(e.target.value);
      if (e.target.value === "" || !(v >= 0 && v <= 1000) || Math.floor(v) !== v) return; // the Update button sends it: the server says why not
      enqueue(f, "POST");
    } else if (e.target.name === "delivery") {
      enqueue(f, "GET");
    }
  });
  document.addEventListener("submit", function (e) {
    var f = cartForm(e.target);
    if (!f || !window.fetch || !window.URLSearchParams) return;
    e.preventDefault();
    enqueue(f, (f.getAttribute("method") || "get").toUpperCase());
  });
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("#cart-view a[href^='/checkout/']");
    if (!a || (!busy && !queue.length)) return;
    e.preventDefault();
    leave = function () {
      var now = document.querySelector("#cart-view a[href^='/checkout/']");
      return now && now.getAttribute("href"); // none: the cart cannot go to checkout now
    };
  });
})();
