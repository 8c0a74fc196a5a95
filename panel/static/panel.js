// Storefront admin panel: the one script, loaded from /admin/static (the CSP
// allows only same-origin scripts). The panel works without it; it only
// stops a double click from sending a form twice by disabling the submit
// buttons once a form is on its way, moves focus to the result message after
// an action, and runs the Print buttons.
document.addEventListener("submit", function (ev) {
  var form = ev.target;
  if (ev.defaultPrevented || form.method.toLowerCase() !== "post") return;
  // Disable after the submission has taken the button's name/value.
  setTimeout(function () {
    var buttons = form.querySelectorAll("button[type=submit], button:not([type])");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].disabled = true;
      buttons[i].setAttribute("aria-busy", "true");
    }
  }, 0);
});

// After an action (a POST that redirected back with a message), keyboard
// and screen-reader focus goes to the message, not the top of the page.
document.addEventListener("DOMContentLoaded", function () {
  var msg = document.querySelector("main .flash[tabindex]");
  if (msg) msg.focus();
});

// Print buttons (invoice, packing slip): the CSP allows no inline script.
document.addEventListener("click", function (ev) {
  var b = ev.target.closest && ev.target.closest("[data-print]");
  if (b) {
    ev.preventDefault();
    window.print();
  }
});

// A table wider than its box scrolls inside .table-wrap: such a box takes
// keyboard focus (tabindex 0) so that the arrow keys can scroll it.
function markScrollers() {
  var boxes = document.querySelectorAll(".table-wrap");
  for (var i = 0; i < boxes.length; i++) {
    if (boxes[i].scrollWidth > boxes[i].clientWidth + 1) boxes[i].setAttribute("tabindex", "0");
    else boxes[i].removeAttribute("tabindex");
  }
}
document.addEventListener("DOMContentLoaded", markScrollers);
window.addEventListener("resize", markScrollers);
