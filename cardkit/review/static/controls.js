// cardkit review: the controls of one gap (steppers, yes/no, text, YAML), for review.js.
// Plain JavaScript, no build step; every text is set with textContent, never as markup.
(function () {
  "use strict";
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function plainText(value) {
    if (value === null || value === undefined) { return "(absent)"; }
    if (typeof value === "object" && !Array.isArray(value)) {  // slots of token counts
      var parts = Object.keys(value).map(function (slot) {
        var v = value[slot];
        if (v && typeof v === "object" && !Array.isArray(v)) {
          return slot + ": " + Object.keys(v).map(function (t) { return v[t] + " " + t; }).join(", ");
        }
        return slot + ": " + (typeof v === "string" ? v : JSON.stringify(v));
      });
      return parts.join(" · ");
    }
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  function stepper(value, onChange) {
    var box = el("span", { "class": "stepper", tabindex: "0", role: "spinbutton" });
    var minus = el("button", { type: "button", tabindex: "-1", "aria-label": "one less" }, "−");
    var shown = el("b", {}, value);
    var plus = el("button", { type: "button", tabindex: "-1", "aria-label": "one more" }, "+");
    var start = value, typed = "", typedAt = 0;
    box.value = value;
    function set(n) {
      box.value = Math.max(0, Math.min(999, n));
      shown.textContent = box.value;
      box.setAttribute("aria-valuenow", box.value);
      box.classList.toggle("changed", box.value !== start);
      box.dispatchEvent(new Event("stepped", { bubbles: true }));
      if (onChange) { onChange(); }
    }
    box.digit = function (d) {  // two digits typed quickly make one number: 1 then 2 is 12
      var now = Date.now();
      typed = (now - typedAt < 700 && typed.length < 2) ? typed + d : d;
      typedAt = now;
      set(parseInt(typed, 10));
    };
    box.step = function (by) { typed = ""; set(box.value + by); };
    minus.addEventListener("click", function () { box.step(-1); box.focus(); });
    plus.addEventListener("click", function () { box.step(1); box.focus(); });
    box.setAttribute("aria-valuenow", value);
    box.appendChild(minus); box.appendChild(shown); box.appendChild(plus);
    return box;
  }

  function drawControl(gap) {
    var editor = gap.editor, node, read;
    if (gap.status !== "open" || editor.type === "note" || editor.type === "fix-in-file") { return null; }
    if (editor.type === "counts") {
      node = el("table", { "class": "counts" });
      var head = el("tr");
      head.appendChild(el("th"));
      editor.slots.forEach(function (slot) { head.appendChild(el("th", {}, slot)); });
      node.appendChild(head);
      var cells = [];
      editor.tokens.forEach(function (token) {
        var row = el("tr");
        row.appendChild(el("th", {}, token));
        editor.slots.forEach(function (slot) {
          var have = (editor.counts[slot] || {})[token] || 0;
          var cell = el("td"), box = stepper(have);
          box.setAttribute("aria-label", token + " " + slot);
          box.slot_ = slot; box.token_ = token;
          cells.push(box);
          cell.appendChild(box);
          row.appendChild(cell);
        });
        node.appendChild(row);
      });
      read = function () {
        var counts = {};
        cells.forEach(function (box) {
          if (box.value > 0) { (counts[box.slot_] = counts[box.slot_] || {})[box.token_] = box.value; }
        });
        return counts;
      };
      var initial = read();
      return { node: node, read: read, initial: initial, send: function () {
        return { type: "counts", counts: read() };
      } };
    }
    if (editor.type === "numbers") {  // a mapping of numbers: one stepper each, by its path
      node = el("table", { "class": "counts" });
      var leaves = editor.leaves.map(function (leaf) {
        var row = el("tr"), cell = el("td"), box = stepper(leaf[1]);
        box.setAttribute("aria-label", leaf[0].join(" "));
        row.appendChild(el("th", {}, leaf[0].join(" · ")));
        cell.appendChild(box);
        row.appendChild(cell);
        node.appendChild(row);
        return [leaf[0], box];
      });
      read = function () { return leaves.map(function (l) { return [l[0], l[1].value]; }); };
      var before = read();
      return { node: node, read: read, initial: before, send: function () {
        return { type: "numbers", leaves: read() };
      } };
    }
    if (editor.type === "number") {
      var box = stepper(typeof gap.value === "number" ? gap.value : 0);
      box.setAttribute("aria-label", gap.field);
      node = el("div"); node.appendChild(box);
      read = function () { return box.value; };
    } else if (editor.type === "bool") {
      var toggle = el("button", { type: "button", "class": "toggle" });
      toggle.yes = gap.value === true;
      var show = function () {
        toggle.textContent = toggle.yes ? "yes" : "no";
        toggle.setAttribute("aria-pressed", toggle.yes ? "true" : "false");
      };
      toggle.set = function (yes) { toggle.yes = yes; show(); toggle.dispatchEvent(new Event("stepped", { bubbles: true })); };
      toggle.addEventListener("click", function () { toggle.set(!toggle.yes); });
      show();
      node = el("div"); node.appendChild(toggle);
      read = function () { return toggle.yes; };
    } else if (editor.type === "text") {
      node = el("textarea", { "aria-label": gap.field });
      node.value = typeof gap.value === "string" ? gap.value : "";
      read = function () { return node.value; };
    } else {
      node = el("input", { "class": "yaml", "aria-label": gap.field + " (YAML)", autocomplete: "off" });
      node.value = editor.text || "";
      read = function () { return node.value; };
    }
    var start = read();
    return { node: node, read: read, initial: start, send: function () {
      return editor.type === "yaml" ? { type: "yaml", text: read() } : { type: editor.type, value: read() };
    } };
  }

  window.cardkitControls = { el: el, plainText: plainText, stepper: stepper, control: drawControl };
})();
