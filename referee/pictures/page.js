// The replay page's script: steps through the record's frames (see referee/pictures/page.py).
// Each step lists the pieces it removes ("del") and adds ("add") as indexes into
// data.pieces, so moving one step forward or back changes only those elements. The page's
// words are data too (data.words, in the page's language: referee/pictures/page_words.py);
// a word's {name} placeholders are filled in by `say`.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var XLINK = "http://www.w3.org/1999/xlink";
  var data = JSON.parse(document.getElementById("data").textContent);
  var steps = data.steps;
  var headings = [];
  var details = [];
  var heading = "";
  var detail = [];
  var i;
  for (i = 0; i < steps.length; i++) {
    if (steps[i].h !== undefined) { heading = steps[i].h; }
    if (steps[i].d !== undefined) { detail = steps[i].d; }
    headings.push(heading);
    details.push(detail);
  }
  var $ = function (id) { return document.getElementById(id); };
  var piecesLayer = $("pieces");
  var marksLayer = $("marks");
  var shown = {};
  var current = -1;
  var buttons = [];
  var highlighted = -1;
  var COLOURS = data.colours;
  var WORDS = data.words;

  function say(key, values) {
    return WORDS[key].replace(/\{(\w+)\}/g, function (whole, name) {
      return values && values[name] !== undefined ? String(values[name]) : whole;
    });
  }

  function text(id, value) { $(id).textContent = value; }

  function use(symbol) {
    var element = document.createElementNS(SVG, "use");
    element.setAttributeNS(XLINK, "xlink:href", "#" + symbol);
    return element;
  }

  function addPiece(id) {
    var entry = data.pieces[id];
    var element = use(entry[0]);
    element.setAttribute("class", "piece");
    element.setAttribute("transform", entry[1]);
    var fields = entry[2];
    Object.keys(fields).forEach(function (key) { element.setAttribute("data-" + key, fields[key]); });
    piecesLayer.appendChild(element);
    shown[id] = element;
  }

  function removePiece(id) {
    var element = shown[id];
    if (element) { element.parentNode.removeChild(element); delete shown[id]; }
  }

  function apply(step, forward) {
    (forward ? step.del : step.add).forEach(removePiece);
    (forward ? step.add : step.del).forEach(addPiece);
  }

  function drawMarks(step) {
    while (marksLayer.firstChild) { marksLayer.removeChild(marksLayer.firstChild); }
    step.k.split(" ").forEach(function (token) {
      if (!token) { return; }
      var mark = token.indexOf(":") < 0 ? [token, "last"] : token.split(":").reverse();
      var centre = data.cells[mark[0]];
      var element = use("cell-mark");
      element.setAttribute("transform", "translate(" + centre[0] + " " + centre[1] + ")");
      element.setAttribute("stroke", COLOURS[mark[1]]);
      element.setAttribute("data-at", mark[0]);
      element.setAttribute("data-kind", mark[1]);
      marksLayer.appendChild(element);
    });
  }

  function show(n) {
    var step = steps[n];
    text("caption", headings[n]);
    text("details", details[n].join(" \u00b7 "));
    text("step-label", data.turns[step.t + 1] || "");
    text("move", step.m === null ? say("start_position") : step.m);
    text("counter", say("step", { n: n, total: steps.length - 1 }));
    var error = $("error");
    error.hidden = step.x === undefined;
    error.textContent = step.x === undefined ? "" : say("illegal", { rule: step.x });
    var events = $("events");
    while (events.firstChild) { events.removeChild(events.firstChild); }
    (step.e || []).forEach(function (event) {
      var item = document.createElement("li");
      item.textContent = event[1];
      item.setAttribute("data-kind", event[0]);
      events.appendChild(item);
    });
    var notes = $("notes");
    while (notes.firstChild) { notes.removeChild(notes.firstChild); }
    (step.c || []).forEach(function (note) {
      var item = document.createElement("li");
      item.textContent = note;
      notes.appendChild(item);
    });
    drawMarks(step);
    describe(n);
    announce(n, step);
    if (buttons[highlighted]) { buttons[highlighted].classList.remove("current"); }
    highlighted = n;
    if (buttons[n]) {
      buttons[n].classList.add("current");
      scrollSoon();
    }
    document.body.setAttribute("data-step", String(n));
  }

  // The board in words, as referee/pictures/svg.py `describe` writes it: the caption, then
  // each side's pieces by square with what they are. It is the <desc> of the board's image.
  function describe(n) {
    var description = document.querySelector("#board svg > desc");
    if (!description) { return; }
    var lines = [headings[n]].concat(details[n]).filter(function (line) { return line; });
    var parts = lines.length ? [lines.join("; ")] : [];
    var sides = [];
    var bySide = {};
    Object.keys(shown).map(Number).sort(function (a, b) { return a - b; }).forEach(function (id) {
      var fields = data.pieces[id][2];
      var spoken = data.pieces[id][3];  // [side, piece] in the page's language (absent in English)
      var side = spoken ? spoken[0] : fields.side;
      var said = spoken ? spoken[1] : [fields.at].concat(Object.keys(fields).filter(function (key) {
        return key !== "at" && key !== "side";
      }).map(function (key) { return key + " " + fields[key]; })).join(" ");
      if (!bySide[side]) { bySide[side] = []; sides.push(side); }
      bySide[side].push(said);
    });
    sides.forEach(function (side) { parts.push(side + ": " + bySide[side].join(", ")); });
    description.textContent = parts.length ? parts.join(". ") + "." : "";
  }

  // What a screen reader says at each step (the aria-live region #announce): the step, the
  // action, and what it caused (events, the broken rule), then the caption.
  function announce(n, step) {
    var said = [say("step", { n: n, total: steps.length - 1 })];
    if (step.m !== null) { said.push((data.turns[step.t + 1] || "") + " " + step.m); }
    (step.e || []).forEach(function (event) { said.push(event[1]); });
    if (step.x !== undefined) { said.push(say("illegal", { rule: step.x })); }
    said.push(headings[n]);
    text("announce", said.join(". "));
  }

  // Scrolling the move list needs a layout: do it once per frame, not once per step.
  // Only the list itself scrolls: scrollIntoView would also scroll the window, and on a
  // narrow screen (the list below the board) the page would open scrolled past its header.
  var scrollPending = false;
  function scrollSoon() {
    if (scrollPending) { return; }
    scrollPending = true;
    window.requestAnimationFrame(function () {
      scrollPending = false;
      var button = buttons[highlighted];
      if (!button) { return; }
      var list = $("moves");
      var top = button.offsetTop;
      var bottom = top + button.offsetHeight;
      if (top < list.scrollTop) {
        list.scrollTop = top;
      } else if (bottom > list.scrollTop + list.clientHeight) {
        list.scrollTop = bottom - list.clientHeight;
      }
    });
  }

  function goTo(n) {
    if (!steps.length) { return; }
    n = Math.max(0, Math.min(steps.length - 1, n));
    if (current < 0) { apply(steps[0], true); current = 0; }
    while (current < n) { current += 1; apply(steps[current], true); }
    while (current > n) { apply(steps[current], false); current -= 1; }
    show(n);
  }

  function header() {
    var title = $("verdict");
    title.textContent = data.verdict;
    title.className = data.status;
    if (data.clock) {  // a timed record: both clocks and the deadline (TIME.md §5)
      var clock = $("clock");
      clock.textContent = data.clock;
      clock.hidden = false;
    }
    var table = $("tags");
    data.tags.forEach(function (tag) {
      var row = table.insertRow();
      row.insertCell().textContent = tag[0];
      row.insertCell().textContent = tag[1];
    });
  }

  function queues() {  // after the reveal: each queue's lines, the untriggered ones marked
    if (!data.queues || !data.queues.revealed.length) { return; }
    var notes = document.createElement("ul");
    notes.id = "queues";
    notes.setAttribute("aria-label", say("revealed_queues"));
    $("moves").parentNode.appendChild(notes);
    data.queues.revealed.forEach(function (queue) {
      var title = document.createElement("li");
      title.textContent = say("queue", { side: queue.side });
      notes.appendChild(title);
      queue.lines.forEach(function (line) {
        var item = document.createElement("li");
        item.textContent = line.triggered ? line.line : say("untriggered", { line: line.line });
        item.className = line.triggered ? "triggered" : "untriggered";
        notes.appendChild(item);
      });
    });
  }

  function moveList() {
    var list = $("moves");
    var items = {};
    steps.forEach(function (step, index) {
      var item = items[step.t];
      if (!item) {
        item = document.createElement("li");
        var label = document.createElement("span");
        label.className = "label";
        label.textContent = data.turns[step.t + 1] || "";
        if (data.queues && data.queues.replies.indexOf(step.t) >= 0) {
          label.textContent = say("queued", { label: label.textContent });  // a reply played from its side's queue (PLAY.md §9)
          label.className = "label queued";
        }
        item.appendChild(label);
        items[step.t] = item;
        list.appendChild(item);
      }
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = step.m === null ? say("start") : step.m;
      button.setAttribute("data-step", String(index));
      if (step.x !== undefined) { button.className = "illegal"; }
      button.addEventListener("click", function () { goTo(index); });
      item.appendChild(button);
      buttons.push(button);
    });
  }

  function source() {
    var where = data.source;
    if (!where) { return; }
    var pre = $("source");
    pre.hidden = false;
    where.lines.forEach(function (line, index) {
      var number = where.first + index;
      var row = document.createElement("div");
      row.textContent = String(number).padStart(5, " ") + "  " + line;
      if (number === where.line) {
        row.className = "bad";
        pre.appendChild(row);
        row = document.createElement("div");
        row.className = "bad";
        row.id = "source-caret";
        row.textContent = " ".repeat(6 + where.column) + "^ " + where.message;
      }
      pre.appendChild(row);
    });
    text("caption", say("malformed", { line: where.line, column: where.column }));
    text("move", where.message);
  }

  header();
  moveList();
  source();
  queues();
  if (!steps.length) { text("counter", say("no_steps")); }
  $("first").addEventListener("click", function () { goTo(0); });
  $("prev").addEventListener("click", function () { goTo(current - 1); });
  $("next").addEventListener("click", function () { goTo(current + 1); });
  $("last").addEventListener("click", function () { goTo(steps.length - 1); });
  document.addEventListener("keydown", function (event) {
    var target = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: steps.length - 1 }[event.key];
    if (target === undefined) { return; }
    event.preventDefault();
    goTo(target);
  });
  goTo(steps.length - 1);
}());
