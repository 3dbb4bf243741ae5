// cardkit review: the page. Plain JavaScript, no build step, no network but this server.
// Every card text is set with textContent (never as markup). Changes are POSTs of JSON;
// the page polls /api/state and shows a card again when its file changed on disk.
(function () {
  "use strict";
  var query = new URLSearchParams(location.search);
  var token = query.get("token") || "";
  var every = Math.max(100, parseInt(query.get("poll") || "1500", 10) || 1500);  // ms between looks
  var state = {
    cards: [], shown: [], at: 0, version: "", undo: [], own: {}, touched: {},
    focusGap: 0, busy: false
  };
  var keys = ["box", "group", "field", "origin"];

  var controls = window.cardkitControls, el = controls.el, plainText = controls.plainText;
  var drawControl = controls.control;
  function $(id) { return document.getElementById(id); }
  function say(text, how) {
    var box = $("message");
    box.textContent = text;
    box.className = how || "";
  }
  function api(path, body) {
    var options = { headers: { "X-Cardkit-Token": token }, cache: "no-store" };
    if (body !== undefined) {
      options.method = "POST";
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(path, options).then(function (response) {
      return response.json().then(function (data) {
        data.httpStatus = response.status;
        return data;
      });
    });
  }
  function url(path, card) {
    return path + "?token=" + encodeURIComponent(token) + "&card=" +
      encodeURIComponent(card.id) + "&v=" + encodeURIComponent(card.etag);
  }
  function fieldName(field) { return field.split(",")[0].trim().split("/").pop(); }
  // -- who and evidence: given on the command line, or typed once and remembered --------
  function remember(id, fallback) {
    var input = $(id), kept = localStorage.getItem("cardkit-review-" + id);
    input.value = fallback || kept || "";
    input.addEventListener("change", function () {
      localStorage.setItem("cardkit-review-" + id, input.value.trim());
    });
  }

  // -- the filters (as in the build report), kept in the address's #fragment -----------
  function fillFilters() {
    keys.forEach(function (key) {
      var select = $("f-" + key), chosen = select.value, counts = {};
      state.cards.forEach(function (card) {
        values(card, key).forEach(function (v) { if (v) { counts[v] = (counts[v] || 0) + 1; } });
      });
      while (select.options.length > 1) { select.remove(1); }
      Object.keys(counts).sort().forEach(function (v) {
        var option = el("option", { value: v }, v + " (" + counts[v] + ")");
        select.appendChild(option);
      });
      select.value = chosen;
    });
    // the group filter says what the games call a group (Marvel United: villain)
    var words = {};
    state.cards.forEach(function (card) { if (card.group && card.group_label) { words[card.group_label] = 1; } });
    $("f-group").parentNode.firstChild.textContent = (Object.keys(words).sort().join(" / ") || "group") + " ";
  }
  function values(card, key) {
    var open = card.gaps.filter(function (g) { return g.status === "open"; });
    if (key === "box") { return [card.box]; }
    if (key === "group") { return [card.group || card.document]; }
    if (key === "field") { return open.map(function (g) { return fieldName(g.field); }); }
    return open.map(function (g) { return g.origin; });
  }
  function keeps(card) {
    var q = $("f-q").value.trim().toLowerCase();
    var ok = keys.every(function (key) {
      var want = $("f-" + key).value;
      return !want || values(card, key).indexOf(want) >= 0;
    });
    if (ok && q) { ok = JSON.stringify([card.title, card.path, card.gaps]).toLowerCase().indexOf(q) >= 0; }
    return ok && (card.open > 0 || $("f-done").checked || state.touched[card.id]);
  }
  function readHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    keys.forEach(function (key) {
      // `villain=`: the group's name in addresses made before games declared their own
      var want = params.get(key) || (key === "group" && params.get("villain")) || "",
        select = $("f-" + key);
      if (want && !Array.prototype.some.call(select.options, function (o) { return o.value === want; })) {
        select.appendChild(el("option", { value: want }, want));
      }
      select.value = want;
    });
    $("f-q").value = params.get("q") || "";
  }
  function saveHash() {
    var params = new URLSearchParams();
    keys.forEach(function (key) { if ($("f-" + key).value) { params.set(key, $("f-" + key).value); } });
    if ($("f-q").value.trim()) { params.set("q", $("f-q").value.trim()); }
    history.replaceState(null, "", location.pathname + location.search + "#" + params.toString());
  }

  // -- the list and the current card -----------------------------------------------------
  function current() { return state.shown[state.at]; }
  function refilter(keepId) {
    state.shown = state.cards.filter(keeps);
    var at = state.shown.findIndex(function (c) { return c.id === keepId; });
    state.at = at >= 0 ? at : Math.min(state.at, Math.max(0, state.shown.length - 1));
    var open = state.cards.reduce(function (n, c) { return n + c.open; }, 0);
    $("summary").textContent = open + " open gaps on " +
      state.cards.filter(function (c) { return c.open; }).length + " cards";
    $("shown").textContent = state.shown.length + " of " + state.cards.length + " cards shown";
    drawList();
    drawCard();
  }
  function drawList() {
    var list = $("list");
    list.textContent = "";
    state.shown.forEach(function (card, index) {
      var button = el("button", { type: "button", "data-id": card.id, tabindex: "-1" });
      button.appendChild(el("span", {}, card.title));
      button.appendChild(el("br"));
      button.appendChild(el("small", {}, card.path.split("/").pop() + ":" + card.line +
        " · " + card.open + " open"));
      if (index === state.at) { button.className = "current"; }
      if (!card.open) { button.className += " done"; }
      button.addEventListener("click", function () { go(index); });
      list.appendChild(button);
    });
  }
  function go(index) {
    if (index < 0 || index >= state.shown.length) { return; }
    state.at = index;
    state.focusGap = -1;
    drawList();
    drawCard();
    var button = $("list").children[index];
    if (button) { button.scrollIntoView({ block: "nearest" }); }
  }
  function drawCard() {
    var card = current(), gaps = $("gaps");
    gaps.textContent = "";
    $("outlines").textContent = "";
    if (!card) {
      $("where").textContent = "no card with an open gap matches the filter";
      $("proxy").hidden = true;
      $("scan").hidden = true;
      return;
    }
    state.touched[card.id] = true;
    $("where").textContent = card.path + ":" + card.line + " · " + card.deck + " · " + card.kind;
    $("proxy").hidden = !card.picture;
    if (card.picture) {
      $("proxy-img").src = url("/api/card.png", card);
      $("proxy-img").alt = card.title;
      (card.outlines || []).forEach(function (o) {
        var box = el("div", { "class": "outline", "data-field": o.field });
        box.style.left = (o.x * 100) + "%";
        box.style.top = (o.y * 100) + "%";
        box.style.width = (o.w * 100) + "%";
        box.style.height = (o.h * 100) + "%";
        box.appendChild(el("span", {}, o.field + (o.part === "banner" ? " (not drawn)" : "")));
        $("outlines").appendChild(box);
      });
    }
    var after = state.shown[state.at + 1];  // drawn while this card is looked at
    if (after && after.picture) { new Image().src = url("/api/card.png", after); }
    $("scan").hidden = !card.scan;
    if (card.scan) { $("scan-img").src = url("/api/scan.png", card); }
    card.gaps.forEach(function (gap) { gaps.appendChild(drawGap(card, gap)); });
    var first = state.focusGap >= 0 ? state.focusGap :
      card.gaps.findIndex(function (g) { return g.status === "open"; });
    focusGap(first >= 0 ? first : 0);
  }
  function focusGap(index) {
    var forms = $("gaps").children;
    if (!forms.length) { return; }
    index = Math.max(0, Math.min(index, forms.length - 1));
    state.focusGap = index;
    Array.prototype.forEach.call(forms, function (f, i) { f.classList.toggle("focus", i === index); });
    var gap = current().gaps[index], name = fieldName(gap.address || gap.field);
    Array.prototype.forEach.call($("outlines").children, function (o) {
      o.classList.toggle("focus", o.getAttribute("data-field") === name);
    });
    var counted = Array.prototype.filter.call(forms[index].querySelectorAll(".stepper"),
      function (box) { return box.value > 0; });  // a count read wrong is most likely one read
    var target = counted[0] || forms[index].querySelector(".stepper, .toggle, textarea, input, button.go");
    if (target) { target.focus(); }
  }

  // -- one gap: what it is, its value, its control ----------------------------------------
  function drawGap(card, gap) {
    var form = el("div", { "class": "gap " + gap.status, "data-address": gap.address });
    form.appendChild(el("h3", {}, gap.field + " · " + (gap.code || gap.origin) + " · " + gap.status));
    form.appendChild(el("p", { "class": "why" }, gap.why));
    if (gap.address && gap.editor.type !== "note") {
      form.appendChild(el("div", { "class": "now" }, "now: " + plainText(gap.value)));
    }
    var control = drawControl(gap);
    if (control) { form.appendChild(control.node); }
    form.control = control;
    var actions = el("div", { "class": "actions" });
    if (gap.editor.type === "fix-in-file") {
      actions.appendChild(el("span", {}, "a rule's finding: change " + card.path + ":" + gap.line +
        " itself; the page shows it again when the file is saved"));
    } else if (gap.status === "open") {
      var button = el("button", { type: "button", "class": "go" },
        gap.editor.type === "note" ? "resolve the note (Enter)" : "confirm (Enter)");
      button.addEventListener("click", function () { submit(card, gap, form); });
      actions.appendChild(button);
      form.addEventListener("input", function () { label(gap, form, button); });
      form.addEventListener("stepped", function () { label(gap, form, button); });
    } else {
      actions.appendChild(el("span", { "class": "record" }, gap.why));
    }
    form.appendChild(actions);
    form.addEventListener("focusin", function () {
      var index = Array.prototype.indexOf.call($("gaps").children, form);
      if (index !== state.focusGap) { focusGapQuiet(index); }
    });
    return form;
  }
  function focusGapQuiet(index) {
    state.focusGap = index;
    Array.prototype.forEach.call($("gaps").children, function (f, i) { f.classList.toggle("focus", i === index); });
  }
  function label(gap, form, button) {
    if (gap.editor.type === "note") { return; }
    button.textContent = changed(gap, form) ? "correct (Enter)" : "confirm as it is (Enter)";
  }
  function changed(gap, form) {
    var c = form.control;
    if (!c) { return false; }
    return JSON.stringify(c.read()) !== JSON.stringify(c.initial);
  }

  // -- changes ------------------------------------------------------------------------------
  function who() {
    var by = $("by").value.trim(), evidence = $("evidence").value.trim();
    localStorage.setItem("cardkit-review-by", by);
    localStorage.setItem("cardkit-review-evidence", evidence);
    if (!by) { say("say who you are first (the 'who' box; e to get there)", "bad"); $("by").focus(); return null; }
    if (!evidence) { say("say what you checked it against first (the 'evidence' box)", "bad"); $("evidence").focus(); return null; }
    return { by: by, evidence: evidence };
  }
  function submit(card, gap, form) {
    if (state.busy || gap.status !== "open" || gap.editor.type === "fix-in-file") { return; }
    var person = who();
    if (!person) { return; }
    var body = {
      card: card.id, address: gap.address, by: person.by, evidence: person.evidence,
      seen: { etag: card.etag, value: gap.value, marked: gap.marked }
    };
    if (form.control && changed(gap, form)) { body.control = form.control.send(); }
    state.busy = true;
    api("/api/confirm", body).then(function (result) {
      state.busy = false;
      if (result.error) {
        say(result.error, "bad");
        if (result.stale) { reload(card.id, true); }
        return;
      }
      state.own[result.etag] = true;
      var verb = result.corrected.length ? "corrected" : result.confirmed.length ? "confirmed" : "unchanged";
      if (result.record && (result.confirmed.length || result.corrected.length)) {
        state.undo.push({ card: card.id, address: gap.address, record: result.record, title: card.title });
      }
      var note = result.elsewhere ? " (the file had changed on disk meanwhile: shown again as it is now, nothing lost)" : "";
      say(verb + " " + gap.address + " on " + card.title + " · u to undo" + note + warnings(result), result.elsewhere ? "" : "good");
      var next = card.gaps.findIndex(function (g, i) { return i > gap.index && g.status === "open"; });
      reload(card.id, false, next >= 0 ? next : null);
    }, failed);
  }
  function warnings(result) { return result.warnings && result.warnings.length ? " · " + result.warnings.join("; ") : ""; }
  function undo() {
    var last = state.undo[state.undo.length - 1];
    if (!last || state.busy) { say(last ? "busy" : "nothing to undo from this page", "bad"); return; }
    state.busy = true;
    api("/api/undo", { card: last.card, address: last.address, record: last.record }).then(function (result) {
      state.busy = false;
      if (result.error) { say(result.error, "bad"); if (result.stale) { state.undo.pop(); reload(last.card, true); } return; }
      state.undo.pop();
      state.own[result.etag] = true;
      say("undid " + last.address + " on " + last.title + ": its value and its mark are back", "good");
      reload(last.card, false, null, true);
    }, failed);
  }
  function failed(err) { state.busy = false; say("the review server did not answer (" + err + "); is it still running?", "bad"); }

  // -- following the files on disk ---------------------------------------------------------
  function reload(stayOn, stale, focus, goThere) {
    return api("/api/cards").then(function (data) {
      if (data.error) { say(data.error, "bad"); return; }
      var before = {};
      state.cards.forEach(function (c) { before[c.id] = c.etag; });
      var showing = current(), onId = stayOn || (showing && showing.id);
      state.cards = data.cards;
      state.version = data.version;
      if (!state.loaded) {  // --by (or the last name given on this server) wins once
        if (data.by) { $("by").value = data.by; }
        if (!$("evidence").value && data.evidence) { $("evidence").value = data.evidence; }
        state.loaded = true;
      }
      fillFilters();
      var mine = state.cards.find(function (c) { return c.id === onId; });
      if (stale) {
        $("message").className = "bad";  // the refusal, already said, stays on screen
      } else if (showing && mine && before[onId] && before[onId] !== mine.etag && !state.own[mine.etag] && !stayOn) {
        say(mine.path + " changed on disk (an editor, a terminal or another tab): this card is shown again as it is now", "bad");
      }
      if (data.problems.length) { say($("message").textContent + " · not readable: " + data.problems.join("; "), "bad"); }
      var card = mine, advance = !stale && card && stayOn && !card.open && focus === null && !goThere;
      state.focusGap = typeof focus === "number" ? focus : -1;
      refilter(onId);
      if (advance) {  // every gap of the card closed: on to the next card with one open
        var next = state.shown.findIndex(function (c, i) { return i > state.at && c.open; });
        if (next >= 0) { go(next); }
      }
    }, failed);
  }
  function poll() {
    api("/api/state").then(function (data) {
      if (data.version && data.version !== state.version && !state.busy) { reload(); }
    }, function () {}).then(function () { setTimeout(poll, every); });
  }

  // -- keys ---------------------------------------------------------------------------------
  function gapForm() { return $("gaps").children[state.focusGap]; }
  function steppers() { var f = gapForm(); return f ? Array.prototype.slice.call(f.querySelectorAll(".stepper")) : []; }
  document.addEventListener("keydown", function (event) {
    var target = event.target, tag = target.tagName, card = current();
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var typing = tag === "TEXTAREA" || (tag === "INPUT" && target.type !== "checkbox") || tag === "SELECT";
    if (typing) {
      if (event.key === "Escape") { target.blur(); focusGap(state.focusGap); event.preventDefault(); }
      if (event.key === "Enter" && !event.shiftKey) {
        if (target.id === "by" || target.id === "evidence" || target.id === "f-q") { focusGap(state.focusGap); }
        else if (card && gapForm() && gapForm().contains(target)) { submit(card, card.gaps[state.focusGap], gapForm()); }
        event.preventDefault();
      }
      return;
    }
    if (!card) { return; }
    var form = gapForm(), key = event.key, handled = true;
    var boxes = steppers(), at = boxes.indexOf(target);
    if (key === "j" || key === "PageDown") { go(state.at + 1); }
    else if (key === "k" || key === "PageUp") { go(state.at - 1); }
    else if (key === "Enter" && form && target.tagName !== "BUTTON") { submit(card, card.gaps[state.focusGap], form); }
    else if (key === "Enter" && form && target.classList.contains("toggle")) { submit(card, card.gaps[state.focusGap], form); }
    else if (/^[0-9]$/.test(key) && at >= 0) { target.digit(key); }
    else if (/^[0-9]$/.test(key) && boxes.length) { boxes[0].focus(); boxes[0].digit(key); }
    else if ((key === "ArrowUp" || key === "ArrowDown") && at >= 0) { target.step(key === "ArrowUp" ? 1 : -1); }
    else if ((key === "ArrowRight" || key === "ArrowLeft") && at >= 0) {
      var to = boxes[at + (key === "ArrowRight" ? 1 : -1)];
      if (to) { to.focus(); }
    }
    else if ((key === "y" || key === "n") && form && form.querySelector(".toggle")) { form.querySelector(".toggle").set(key === "y"); }
    else if (key === "u") { undo(); }
    else if (key === "e") { $("evidence").focus(); $("evidence").select(); }
    else if (key === "Tab" && !event.shiftKey && form && target === form.querySelector(".go")) {
      focusGap(state.focusGap + 1 < card.gaps.length ? state.focusGap + 1 : 0);
    }
    else { handled = false; }
    if (handled) { event.preventDefault(); }
  });

  remember("by", "");
  remember("evidence", "");
  readHash();
  keys.concat(["q", "done"]).forEach(function (key) {
    $("f-" + key).addEventListener(key === "q" ? "input" : "change", function () {
      saveHash();
      refilter(current() && current().id);
    });
  });
  reload().then(function () {
    readHash();
    refilter(current() && current().id);
    poll();
  });
})();
