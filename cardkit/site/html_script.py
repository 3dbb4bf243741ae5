"""The build report's filter: plain JavaScript and CSS inlined into build/index.html.

The page works from file:// with no server and no network. The filter's state lives in
the address (`index.html#box=ks-promos&field=place&q=klaw`), so a filtered view can be
bookmarked or passed on, and it filters the gaps table and the card thumbnails alike.
"""

SCRIPT = r"""
(function () {
  var keys = ["box", "group", "field", "origin"];
  function control(key) { return document.getElementById("f-" + key); }
  function param(key) { return control(key).dataset.param || key; }
  function read() {
    var params = new URLSearchParams(location.hash.slice(1));
    keys.concat(["q"]).forEach(function (key) {
      var value = params.get(param(key)) || params.get(key) || "";
      var input = control(key);
      if (input.tagName === "SELECT" && value &&
          !Array.prototype.some.call(input.options, function (o) { return o.value === value; })) {
        var extra = document.createElement("option");
        extra.value = extra.textContent = value;
        input.appendChild(extra);
      }
      input.value = value;
    });
  }
  function wanted() {
    var chosen = {};
    keys.forEach(function (key) { chosen[key] = control(key).value; });
    chosen.q = control("q").value.trim().toLowerCase();
    return chosen;
  }
  function apply() {
    var chosen = wanted(), rows = 0, shownRows = 0, cards = 0, shownCards = 0;
    document.querySelectorAll("tr.gap").forEach(function (row) {
      var keep = keys.every(function (key) {
        return !chosen[key] || row.dataset[key] === chosen[key];
      }) && (!chosen.q || row.textContent.toLowerCase().indexOf(chosen.q) >= 0);
      row.hidden = !keep;
      rows += 1;
      shownRows += keep ? 1 : 0;
    });
    document.querySelectorAll("figure.card").forEach(function (card) {
      var fields = card.dataset.fields ? card.dataset.fields.split(" ") : [];
      var keep = (!chosen.box || card.dataset.box === chosen.box) &&
        (!chosen.group || card.dataset.group === chosen.group) &&
        (!chosen.field || fields.indexOf(chosen.field) >= 0) &&
        (!chosen.origin || fields.length > 0) &&
        (!chosen.q || card.textContent.toLowerCase().indexOf(chosen.q) >= 0);
      card.hidden = !keep;
      cards += 1;
      shownCards += keep ? 1 : 0;
    });
    document.getElementById("shown").textContent =
      shownRows + " of " + rows + " gaps, " + shownCards + " of " + cards + " cards shown";
  }
  function save() {
    var chosen = wanted(), params = new URLSearchParams();
    keys.forEach(function (key) { if (chosen[key]) { params.set(param(key), chosen[key]); } });
    if (control("q").value.trim()) { params.set("q", control("q").value.trim()); }
    var hash = params.toString();
    try {
      history.replaceState(null, "", hash ? "#" + hash : location.pathname);
    } catch (err) {
      location.hash = hash;
    }
    apply();
  }
  keys.forEach(function (key) { control(key).addEventListener("change", save); });
  control("q").addEventListener("input", save);
  document.getElementById("f-clear").addEventListener("click", function () {
    keys.concat(["q"]).forEach(function (key) { control(key).value = ""; });
    save();
  });
  window.addEventListener("hashchange", function () { read(); apply(); });
  read();
  apply();
})();
"""

STYLE = """
.filters{position:sticky;top:0;z-index:2;background:#fafaf7;padding:10px 0;display:flex;
gap:10px;flex-wrap:wrap;align-items:end;border-bottom:1px solid #ddd}
.filters label{display:flex;flex-direction:column;font-size:12px;color:#555}
.filters select,.filters input{font:inherit;padding:3px 6px;min-width:140px}
#shown{font-size:13px;color:#555;margin-left:auto}
.cards{display:flex;flex-wrap:wrap;gap:12px}
figure.card{margin:0;width:156px;background:#fff;border:1px solid #ddd;border-radius:6px;
padding:6px;font-size:12px}
figure.card.unsure{outline:3px solid #cc1a1a;outline-offset:-1px}
figure.card img{display:block;width:150px;height:auto;border-radius:4px;background:#eee}
figure.card figcaption{margin-top:4px;line-height:1.3}
figure.card a.where{display:block;color:#555;word-break:break-all}
span.unconfirmed{display:inline-block;background:#fde8e8;color:#a31212;border:1px solid #cc1a1a;
border-radius:3px;padding:0 4px;margin:2px 2px 0 0;font-weight:600}
td a{color:inherit}
td.why{min-width:280px}
#gaps-table td:first-child{min-width:260px;overflow-wrap:anywhere}
.scroll{max-height:70vh;overflow:auto;border:1px solid #e1e1e1}
.scroll table{margin:0}
.scroll th{position:sticky;top:0;z-index:1}
"""
