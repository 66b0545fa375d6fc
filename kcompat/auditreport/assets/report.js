// kcompat audit report: filters and pages over the inline findings (no library).
// Rows are built with DOM calls and textContent only: names from specs are never HTML.
(function () {
  "use strict";
  var source = document.getElementById("audit-data");
  if (!source) { return; }
  var data = JSON.parse(source.textContent);
  var SEV = 0, RULE = 1, MSG = 2, FIELD = 3, TEXT = 4, HINT = 5, WHERE = 6, VERSIONS = 7,
      STEPS = 8, COUNT = 9, PROOF = 10;
  var form = document.getElementById("filters");
  var rule = document.getElementById("filter-rule");
  var severity = document.getElementById("filter-severity");
  var message = document.getElementById("filter-message");
  var body = document.getElementById("finding-rows");
  var status = document.getElementById("findings-status");
  var label = document.getElementById("page-label");
  var prev = document.getElementById("page-prev");
  var next = document.getElementById("page-next");
  var messageRows = document.querySelectorAll("#message-rows tr[data-message]");
  var page = 0;
  var matching = data.groups;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  // A cell that names its column: on a phone each row is a block that says what it holds.
  function cell(label, className, text) {
    var node = el("td", className, text);
    node.setAttribute("data-label", label);
    return node;
  }

  function wanted() {
    var r = rule.value, s = severity.value, m = message.value.trim().toLowerCase();
    return data.groups.filter(function (g) {
      if (r && data.rules[g[RULE]] !== r) { return false; }
      if (s && data.severities[g[SEV]] !== s) { return false; }
      if (m && data.messages[g[MSG]].toLowerCase().indexOf(m) < 0) { return false; }
      return true;
    });
  }

  function pairsCell(g) {
    var found = cell("found in", "found");
    var steps = g[STEPS];
    var shown = steps.slice(0, data.pairsShown).map(function (i) { return data.steps[i]; });
    found.appendChild(document.createTextNode(shown.join(", ")));
    if (steps.length > data.pairsShown) {
      var more = el("details", "pairs");
      var summary = el("summary", null, "and " + (steps.length - data.pairsShown) + " more");
      more.appendChild(summary);
      more.addEventListener("toggle", function () {
        if (more.open && more.childNodes.length === 1) {  // listed when first opened
          more.appendChild(el("p", null, steps.slice(data.pairsShown).map(function (i) {
            return data.steps[i];
          }).join(", ")));
        }
      });
      found.appendChild(more);
    }
    if (g[COUNT] > steps.length) {
      found.appendChild(el("div", "where", g[COUNT] + " findings"));
    }
    return found;
  }

  function proofDetails(p) {
    var hex = p.hex || "";
    var box = el("details", "proof");
    box.appendChild(el("summary", null, "counterexample: " + (hex.length / 2) + " bytes, " +
      (p.direction || "") + ", version " + p.version));
    box.appendChild(el("p", "outcome", p.error ? "the reader fails: " + p.error :
      "wrote " + JSON.stringify(p.written) + ", read " + JSON.stringify(p.read)));
    box.appendChild(el("pre", null, (p.annotated || []).join("\n")));
    box.appendChild(el("p", "hex", "hex " + hex));
    return box;
  }

  function row(g) {
    var sev = data.severities[g[SEV]];
    var tr = el("tr", sev);
    tr.appendChild(cell("severity", "severity", sev));
    tr.appendChild(cell("rule", "rule", data.rules[g[RULE]]));
    var name = cell("message and field", "subject");
    name.appendChild(el("div", "name", data.messages[g[MSG]]));
    if (g[FIELD]) { name.appendChild(el("div", "field", g[FIELD])); }
    tr.appendChild(name);
    tr.appendChild(pairsCell(g));
    var finding = cell("finding", "finding");
    finding.appendChild(el("div", "text", g[TEXT]));
    if (g[HINT]) { finding.appendChild(el("div", "hint", "hint: " + g[HINT])); }
    finding.appendChild(el("div", "where", g[WHERE] + (g[VERSIONS] ? " · versions " + g[VERSIONS] : "")));
    if (g[PROOF] >= 0) { finding.appendChild(proofDetails(data.evidence[g[PROOF]])); }
    tr.appendChild(finding);
    return tr;
  }

  function render() {
    var pages = Math.max(1, Math.ceil(matching.length / data.pageSize));
    page = Math.min(Math.max(page, 0), pages - 1);
    var start = page * data.pageSize;
    var slice = matching.slice(start, start + data.pageSize);
    var fragment = document.createDocumentFragment();
    slice.forEach(function (g) { fragment.appendChild(row(g)); });
    if (!slice.length) {
      var empty = el("tr");
      var none = el("td", "empty", "no finding matches the filters");
      none.colSpan = 5;
      empty.appendChild(none);
      fragment.appendChild(empty);
    }
    body.replaceChildren(fragment);
    var total = matching.reduce(function (n, g) { return n + g[COUNT]; }, 0);
    status.textContent = matching.length + " of " + data.groups.length + " distinct findings match (" +
      total + " findings in all)" + (matching.length ? "; showing " + (start + 1) + "–" +
      (start + slice.length) : "") + ".";
    label.textContent = "page " + (page + 1) + " of " + pages;
    prev.disabled = page === 0;
    next.disabled = page >= pages - 1;
  }

  function filterMessages() {
    var m = message.value.trim().toLowerCase();
    for (var i = 0; i < messageRows.length; i++) {
      var name = messageRows[i].getAttribute("data-message").toLowerCase();
      messageRows[i].hidden = !!m && name.indexOf(m) < 0;
    }
  }

  function refilter() {
    matching = wanted();
    page = 0;
    render();
    filterMessages();
  }

  rule.addEventListener("change", refilter);
  severity.addEventListener("change", refilter);
  message.addEventListener("input", refilter);
  prev.addEventListener("click", function () { page -= 1; render(); });
  next.addEventListener("click", function () { page += 1; render(); });
  form.hidden = false;
  document.body.classList.add("scripted");
  render();
}());
