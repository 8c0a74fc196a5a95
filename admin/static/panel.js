// Storefront admin panel: the one script, loaded from /admin/static (the CSP
// allows only same-origin scripts). The panel works without it; it only
// stops a double click from sending a form twice by disabling the submit
// buttons once a form is on its way.
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
