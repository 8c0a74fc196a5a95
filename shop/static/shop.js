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
