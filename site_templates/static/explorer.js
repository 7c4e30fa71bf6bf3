/* The page runtime: controls switch every chart and readout to a precomputed result.
 *
 * A classic script (no modules, no fetch) so that it runs from file:// too. The
 * lesson's results arrive in assets/data/<lesson>.<lang>.js as
 * window.EXPLORER_DATA[slug] = {params, points, datasets, charts}; each point is
 * keyed by its value indices joined with "-" and names its rows by dataset id
 * (chart rows in point.d, table cell texts in point.t). A large grid comes in a
 * compact form (explorer/render.py, compact_points) that expandCompact() turns
 * back into the same shape on load.
 * Rows of a module's LAZY datasets are not in the page data: data.chunks maps each
 * such dataset id to a chunk script, assets/data/<lesson>.<n>.js, which files its
 * rows under window.EXPLORER_CHUNKS[slug][n]. A chart loads the chunks it needs with
 * a <script> element before it swaps its rows (explorer/lazy.py writes them); live tables
 * named in LAZY load their cells the same way, by blocks of grid points in the page's
 * language (data.tableChunks). That, and the "What changed" view, is tables.js: only
 * the pages that use them load it.
 * State lives in the URL hash (#epsilon=0.5&releases=3) so a view can be shared.
 */
(function () {
  "use strict";

  // Chunk scripts sit in assets/data/, beside this script's folder: the prefix the page
  // used for this script (e.g. "../assets/") reaches them from the same page.
  var ASSETS = (function () {
    var script = document.currentScript;
    var src = script && script.getAttribute("src");
    return src ? src.replace(/[^\/]*$/, "") : "assets/";
  })();

  // Large grids: a point is a flat list of numbers (see data.layout), each text stored once in
  // data.texts. The fields come in groups by the parameters they follow (group.by): a group
  // holds each distinct record of its fields once (variants) and, for every combination of
  // its parameters' values in grid order, the variant it takes (group.points).
  function expandCompact(data) {
    var layout = data.layout;
    var texts = data.texts;
    var tableIds = {};
    var sizes = data.params.map(function (p) { return p.values.length; });
    var width = layout.r.length + layout.d.length + layout.t.length;
    var total = sizes.reduce(function (product, size) { return product * size; }, 1);
    var points = {};
    for (var index = 0; index < total; index++) {
      var indices = [];
      for (var k = sizes.length - 1, rest = index; k >= 0; k--) {
        indices.unshift(rest % sizes[k]);
        rest = Math.floor(rest / sizes[k]);
      }
      var flat = new Array(width);
      data.groups.forEach(function (group) {
        var place = 0;
        group.by.forEach(function (axis) { place = place * sizes[axis] + indices[axis]; });
        var variant = group.variants[group.points[place]];
        group.fields.forEach(function (field, i) { flat[field] = variant[i]; });
      });
      var record = { r: {}, d: {}, t: {} };
      var i = 0;
      layout.r.forEach(function (name) { record.r[name] = texts[flat[i++]]; });
      layout.d.forEach(function (name) {
        var id = flat[i++];
        if (id >= 0) record.d[name] = String(id);
      });
      layout.t.forEach(function (name) {
        var id = String(flat[i++]);
        record.t[name] = id;
        tableIds[id] = true;
      });
      points[indices.join("-")] = record;
    }
    Object.keys(tableIds).forEach(function (id) {
      data.datasets[id] = data.datasets[id].map(function (row) {
        return row.map(function (cell) { return texts[cell]; });
      });
    });
    data.points = points;
    delete data.groups;
  }

  // A hash longer than this is read only this far: no state of ours is nearly as long.
  var HASH_LIMIT = 8192;

  // The text of a percent-encoded hash part, or null when it is malformed ("%E0%A4%A").
  function decodePart(text) {
    try {
      return decodeURIComponent(text);
    } catch (error) {
      return null;
    }
  }

  // The state a URL hash names, as value indices by parameter name. Any hash is safe: a pair
  // that does not decode, names no parameter or no value of it is skipped, so that parameter
  // keeps its default; of a name given twice, the last valid value wins.
  function readHash(params, hash) {
    var byName = {};
    params.forEach(function (p) { byName["=" + p.name] = p; }); // "=": no clash with "__proto__"
    var state = {};
    String(hash).replace(/^#/, "").slice(0, HASH_LIMIT).split("&").forEach(function (pair) {
      var eq = pair.indexOf("=");
      if (eq < 0) return;
      var name = decodePart(pair.slice(0, eq));
      var text = decodePart(pair.slice(eq + 1));
      var param = name === null ? undefined : byName["=" + name];
      if (!param || text === null) return;
      var index = param.texts.indexOf(text);
      if (index >= 0) state[param.name] = index;
    });
    return state;
  }

  function writeHash(params, state) {
    var parts = params.map(function (p) {
      return encodeURIComponent(p.name) + "=" + encodeURIComponent(p.texts[state[p.name]]);
    });
    var url = window.location.pathname + window.location.search + "#" + parts.join("&");
    try {
      window.history.replaceState(null, "", url);
    } catch (error) {
      window.location.hash = parts.join("&"); // some embedding frames refuse replaceState
    }
    window.dispatchEvent(new Event("explorer:statechange")); // see keepState below, scorm.js
  }

  // Vega tags the row objects it is given, so every swap needs fresh objects.
  function freshRows(rows) {
    return JSON.parse(JSON.stringify(rows));
  }

  function Lesson(article, data) {
    this.article = article;
    this.slug = article.dataset.lesson;
    this.data = data;
    this.params = data.params;
    this.views = {};
    this.shown = {}; // per chart: the dataset ids and signal values its view holds
    this.runs = {}; // per chart: how many updates ran its view
    this.chunkLoads = {};
    this.inView = null; // chart name -> whether it is on screen (null: not watched, all are)
    this.readState();
  }

  // The state of the URL hash: its valid settings over `base` (a partial hash keeps the
  // other settings), or over the defaults when the page opens (see readHash).
  Lesson.prototype.readState = function (base) {
    var state = {};
    var fromHash = readHash(this.params, window.location.hash);
    this.params.forEach(function (p) {
      var given = Object.prototype.hasOwnProperty.call(fromHash, p.name);
      state[p.name] = given ? fromHash[p.name] : base ? base[p.name] : p.default;
    });
    this.state = state;
  };

  Lesson.prototype.key = function () {
    var state = this.state;
    return this.params.map(function (p) { return state[p.name]; }).join("-");
  };

  Lesson.prototype.syncControls = function () {
    var state = this.state;
    this.article.querySelectorAll("[data-param]").forEach(function (input) {
      var index = state[input.dataset.param];
      if (input.type === "radio") {
        input.checked = Number(input.value) === index;
      } else if (input.tagName === "SELECT") {
        input.value = String(index);
      } else {
        input.value = String(index);
        var labels = JSON.parse(input.dataset.labels);
        input.setAttribute("aria-valuetext", labels[index]);
        var output = input.parentNode.querySelector("[data-output]");
        if (output) output.textContent = labels[index];
      }
    });
    // The summary line that print shows in place of the controls.
    var self = this;
    this.article.querySelectorAll("[data-summary]").forEach(function (span) {
      var input = self.article.querySelector("[data-param='" + span.dataset.summary + "']");
      if (!input) return;
      var shown = controlText(self.article, input, state[span.dataset.summary]);
      span.textContent = shown.label + ": " + shown.value;
    });
  };

  // The label of the control `input` belongs to and the text of its value at `index`.
  function controlText(article, input, index) {
    if (input.type === "radio") {
      var group = input.closest("fieldset");
      var chosen = group.querySelector("[data-param][value='" + index + "']");
      return {
        label: group.querySelector("legend").textContent.trim(),
        value: chosen ? chosen.parentNode.textContent.trim() : ""
      };
    }
    var label = article.querySelector("label[for='" + input.id + "']");
    var value = input.tagName === "SELECT"
      ? (input.options[index] || { text: "" }).text
      : JSON.parse(input.dataset.labels)[index];
    return { label: label ? label.textContent.trim() : "", value: String(value).trim() };
  }

  // Readouts whose text differs between grid points get the live style (style.css); the
  // others show a number that no control moves.
  Lesson.prototype.markLiveReadouts = function () {
    var points = this.data.points;
    var keys = Object.keys(points);
    this.article.querySelectorAll("[data-readout]").forEach(function (el) {
      var name = el.dataset.readout;
      var first = points[keys[0]].r[name];
      var varies = keys.some(function (key) { return points[key].r[name] !== first; });
      el.classList.toggle("is-live", varies);
    });
  };

  // What a control change did, said once in the page's polite live region: the control's new
  // value, the readouts marked announce, and how many charts and numbers changed. A burst of
  // changes (a slider dragged or held) is said once, when it settles.
  Lesson.prototype.announce = function (input, fromKey) {
    var region = this.article.querySelector("[data-announcer]");
    if (!region) return;
    var self = this;
    if (this.announceFrom === undefined) this.announceFrom = fromKey;
    window.clearTimeout(this.announceTimer);
    this.announceTimer = window.setTimeout(function () {
      var fromKey = self.announceFrom;
      delete self.announceFrom;
      var key = self.key();
      if (!self.data.points[fromKey] || !self.data.points[key]) return;
      region.textContent = self.changeSummary(input, fromKey, key);
      region.dataset.point = key; // for the browser tests: the point the summary describes
    }, 400);
  };

  Lesson.prototype.changeSummary = function (input, fromKey, key) {
    var article = this.article;
    var data = this.data;
    var before = data.points[fromKey];
    var after = data.points[key];
    var control = controlText(article, input, this.state[input.dataset.param]);
    var parts = [control.label + ": " + control.value + "."];
    var numbers = {};
    article.querySelectorAll("[data-readout]").forEach(function (el) {
      var name = el.dataset.readout;
      if (before.r[name] !== after.r[name]) numbers[name] = true;
      if (el.hasAttribute("data-announce")) parts.push(el.title + ": " + el.textContent + ".");
    });
    var moved = {};
    var fromIndices = fromKey.split("-");
    var indices = key.split("-");
    this.params.forEach(function (p, i) { if (fromIndices[i] !== indices[i]) moved[p.name] = true; });
    var charts = Object.keys(this.views).filter(function (name) {
      var chart = data.charts[name];
      var rows = chart.datasets.some(function (d) { return before.d[d] !== after.d[d]; });
      return rows || chart.signals.some(function (signal) { return moved[signal]; });
    });
    parts.push(article.querySelector("[data-announcer]").dataset.changed
      .replace("{charts}", String(charts.length))
      .replace("{numbers}", String(Object.keys(numbers).length)));
    var changes = this.changesToSay(key); // the "What changed" view's lines, when known
    if (changes) parts.push(changes);
    return parts.join(" ");
  };

  // Korean particles that agree with a value as it is read: the twin of finalSound in
  // explorer/korean.py (which also checks, at build time, that every value can be read).
  var KOREAN = {
    digits: ["영", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구"],
    places: ["십", "백", "천", "만"],
    letters: {
      A: "에이", B: "비", C: "씨", D: "디", E: "이", F: "에프", G: "지", H: "에이치",
      I: "아이", J: "제이", K: "케이", L: "엘", M: "엠", N: "엔", O: "오", P: "피", Q: "큐",
      R: "알", S: "에스", T: "티", U: "유", V: "브이", W: "더블유", X: "엑스", Y: "와이", Z: "지"
    },
    // Greek letters are read by their names whatever comes before them ("kε": 케이 엡실론).
    greek: {
      "ε": "엡실론", "δ": "델타", "Δ": "델타", "σ": "시그마", "ρ": "로", "α": "알파",
      "β": "베타", "λ": "람다", "μ": "뮤", "θ": "세타"
    },
    signs: { "%": "퍼센트", "×": "배", k: "케이", n: "엔", x: "엑스" },
    units: [["MPa²", "메가파스칼 제곱"], ["MPa", "메가파스칼"], ["kg", "킬로그램"], ["bits", "비트"], ["bit", "비트"]],
    skipped: /[ \u00a0\u202f」』)\]}’”'"〉》.]+$/,
    number: /(\d[\d,]*)(?:\.(\d+))?$/
  };

  function syllableSound(syllable) {
    var final = (syllable.charCodeAt(0) - 0xac00) % 28;
    if (final === 0) return "vowel";
    return final === 8 ? "rieul" : "consonant";
  }

  function readingSound(reading) {
    return syllableSound(reading.charAt(reading.length - 1));
  }

  function isLetter(character) {
    return character !== "" && character.toLowerCase() !== character.toUpperCase();
  }

  // "vowel", "rieul" or "consonant"; null when the value cannot be read (the build refuses it).
  function finalSound(text) {
    var body = text.replace(KOREAN.skipped, "");
    if (!body) return null;
    var last = body.charAt(body.length - 1);
    var code = last.charCodeAt(0);
    if (code >= 0xac00 && code <= 0xd7a3) return syllableSound(last);
    var number = KOREAN.number.exec(body);
    if (number) {
      var whole = number[1].replace(/,/g, "");
      if (number[2] || last !== "0") return readingSound(KOREAN.digits[Number(last)]);
      var zeros = whole.length - whole.replace(/0+$/, "").length;
      if (zeros === whole.length) return readingSound(KOREAN.digits[0]);
      return readingSound(KOREAN.places[Math.min(zeros, 4) - 1]);
    }
    if (KOREAN.greek.hasOwnProperty(last)) return readingSound(KOREAN.greek[last]);
    for (var i = 0; i < KOREAN.units.length; i++) {
      var unit = KOREAN.units[i][0];
      var before = body.slice(0, body.length - unit.length);
      if (body.slice(-unit.length) === unit && !isLetter(before.slice(-1))) {
        return readingSound(KOREAN.units[i][1]);
      }
    }
    if (KOREAN.signs.hasOwnProperty(last) && !isLetter(body.slice(-2, -1))) {
      return readingSound(KOREAN.signs[last]);
    }
    if (KOREAN.letters.hasOwnProperty(last)) return readingSound(KOREAN.letters[last]);
    return null;
  }

  function particleAfter(text, particle) {
    var sound = finalSound(text);
    if (sound === "vowel") return particle.dataset.afterVowel;
    if (sound === "rieul") return particle.dataset.afterRieul;
    if (sound === "consonant") return particle.dataset.afterConsonant;
    return particle.dataset.afterConsonant + "(" + particle.dataset.afterVowel + ")";
  }
  window.explorerFinalSound = finalSound; // for the browser tests, which compare it with korean.py

  Lesson.prototype.showReadouts = function (point) {
    this.article.querySelectorAll("[data-readout]").forEach(function (el) {
      var text = point.r[el.dataset.readout];
      if (text === undefined || el.textContent === text) return;
      el.textContent = text;
      var join = el.parentNode;
      var particle = join.classList.contains("readout-join") && join.querySelector("[data-particle]");
      if (particle) particle.textContent = particleAfter(text, particle);
    });
  };

  // Table cells are set as text, never parsed as HTML.
  function tableRow(cells, rowHeaders) {
    var tr = document.createElement("tr");
    cells.forEach(function (text, column) {
      var cell = document.createElement(column === 0 && rowHeaders ? "th" : "td");
      if (column === 0 && rowHeaders) cell.setAttribute("scope", "row");
      cell.textContent = text;
      tr.appendChild(cell);
    });
    return tr;
  }

  Lesson.prototype.showTables = function (point) {
    var datasets = this.data.datasets;
    this.article.querySelectorAll("[data-table][data-live]").forEach(function (holder) {
      var id = point.t ? point.t[holder.dataset.table] : undefined;
      if (id === undefined || holder.dataset.shown === id) return;
      var body = holder.querySelector("[data-table-body]");
      var rowHeaders = holder.hasAttribute("data-row-headers");
      var fresh = document.createDocumentFragment();
      datasets[id].forEach(function (cells) { fresh.appendChild(tableRow(cells, rowHeaders)); });
      if (!datasets[id].length && holder.dataset.empty) {
        var tr = document.createElement("tr");
        var td = document.createElement("td");
        tr.className = "empty-row";
        td.colSpan = holder.querySelectorAll("thead th").length;
        td.textContent = holder.dataset.empty;
        tr.appendChild(td);
        fresh.appendChild(tr);
      }
      body.replaceChildren(fresh);
      holder.dataset.shown = id;
    });
  };

  // Chunk `name` of the lesson (assets/data/<lesson>.<name>.js: rows of charts, or the cells
  // of lazy tables, see tables.js), handed to `use` once it is here. Each is loaded once, by a
  // classic script (fetch is blocked on file://) that files it under
  // window.EXPLORER_CHUNKS[slug][name]; one that fails is tried again when next needed. A
  // page that carries its chunks itself (a single-file export) has filed them already.
  Lesson.prototype.loadChunk = function (name, use) {
    var self = this;
    if (this.chunkLoads[name]) return this.chunkLoads[name];
    var file = function () {
      var filed = (window.EXPLORER_CHUNKS || {})[self.slug] || {};
      if (!filed[name]) return false;
      use(filed[name]);
      delete filed[name];
      return true;
    };
    var loading = file() ? Promise.resolve() : new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = ASSETS + "data/" + self.slug + "." + name + ".js";
      script.onload = function () {
        script.remove();
        if (file()) resolve(); else reject(new Error("chunk " + name + " holds no rows"));
      };
      script.onerror = function () {
        script.remove();
        reject(new Error("chunk " + name + " did not load"));
      };
      document.head.appendChild(script);
    });
    this.chunkLoads[name] = loading;
    loading.catch(function () { delete self.chunkLoads[name]; });
    return loading;
  };

  // A promise of the chunks chart `name` needs at `point`, or null when it has every row.
  Lesson.prototype.rowsFor = function (name, point) {
    var data = this.data;
    var chart = data.charts[name];
    var chunks = {};
    if (!chart || !data.chunks) return null;
    chart.datasets.forEach(function (dataset) {
      var id = point.d[dataset];
      if (id !== undefined && !(id in data.datasets) && id in data.chunks) {
        chunks[data.chunks[id]] = true;
      }
    });
    var numbers = Object.keys(chunks);
    if (!numbers.length) return null;
    var self = this;
    var datasets = this.data.datasets;
    var fileRows = function (chunk) {
      Object.keys(chunk).forEach(function (id) { datasets[id] = chunk[id]; });
    };
    return Promise.all(numbers.map(function (number) { return self.loadChunk(number, fileRows); }));
  };

  // The spec of a chart holds the default point's rows: they serve a lazy dataset there,
  // so that the first paint loads no chunk. Copies, for Vega tags what it embeds.
  Lesson.prototype.keepDefaultRows = function (name, spec) {
    var datasets = this.data.datasets;
    var chart = this.data.charts[name];
    var point = this.data.points[this.params.map(function (p) { return p.default; }).join("-")];
    if (!chart || !point || !spec.datasets) return;
    chart.datasets.forEach(function (dataset) {
      var id = point.d[dataset];
      if (id !== undefined && !(id in datasets) && spec.datasets[dataset]) {
        datasets[id] = freshRows(spec.datasets[dataset]);
      }
    });
  };

  // Shows the point of `key` in chart `name`, once its rows are here, unless the state has
  // moved on meanwhile (the newer state draws its own). Rows that cannot be loaded turn
  // the chart back into its static picture, with the note that says so.
  Lesson.prototype.showChart = function (name, key) {
    var self = this;
    var point = this.data.points[key];
    var loading = this.rowsFor(name, point);
    if (!loading) return this.updateView(name, point);
    return loading.then(function () {
      if (self.key() === key && self.views[name]) return self.updateView(name, point);
    }, function () {
      self.chartFailed(name);
    });
  };

  // The static picture waits in a <noscript>, so that a page whose charts are live never
  // fetches it; a chart that fails takes it out of there.
  function staticPicture(figure) {
    var noscript = figure.querySelector("noscript");
    if (!noscript) return null;
    var template = document.createElement("template");
    template.innerHTML = noscript.textContent;
    var picture = template.content.querySelector(".chart-fallback");
    if (picture) noscript.parentNode.insertBefore(picture, noscript);
    return picture;
  }

  Lesson.prototype.chartFailed = function (name) {
    var figure = this.article.querySelector("[data-chart='" + name + "']");
    delete this.views[name];
    if (!figure) return;
    var holder = figure.querySelector(".chart-live");
    var fallback = figure.querySelector(".chart-fallback") || staticPicture(figure);
    if (holder) holder.remove();
    if (fallback) fallback.hidden = false;
    figure.classList.remove("is-live");
    if (figure.querySelector(".chart-error")) return;
    var note = document.createElement("p");
    note.className = "chart-error";
    note.textContent = this.article.dataset.chartFailed;
    figure.appendChild(note);
  };

  // A chart is given only what changed: the rows of a dataset whose id differs from the one it
  // shows (copying rows and re-running the dataflow is most of an update's time), the signals
  // whose value moved; a chart with neither is not run at all.
  Lesson.prototype.updateView = function (name, point) {
    var view = this.views[name];
    var chart = this.data.charts[name];
    if (!view || !chart) return Promise.resolve();
    var data = this.data;
    var state = this.state;
    var shown = this.shown[name] || (this.shown[name] = {});
    var changed = false;
    chart.datasets.forEach(function (dataset) {
      var id = point.d[dataset];
      if (id === undefined || shown["d:" + dataset] === id) return;
      view.data(dataset, freshRows(data.datasets[id]));
      shown["d:" + dataset] = id;
      changed = true;
    });
    chart.signals.forEach(function (signal) {
      var param = data.params.filter(function (p) { return p.name === signal; })[0];
      var value = param.values[state[signal]];
      if (shown["s:" + signal] === value) return;
      view.signal(signal, value);
      shown["s:" + signal] = value;
      changed = true;
    });
    if (!changed) return Promise.resolve();
    this.runs[name] = (this.runs[name] || 0) + 1; // for the browser tests
    return view.runAsync();
  };

  // Charts on screen are redrawn first; the others once that frame is painted, so that what
  // the reader sees follows the control at once. `seen` (optional) is called when the
  // readouts and the charts on screen show the state; the promise settles when every chart
  // does (and the page records the state in data-point).
  Lesson.prototype.apply = function (seen) {
    var key = this.key();
    var point = this.data.points[key];
    if (!point) return Promise.resolve();
    this.syncControls();
    this.showReadouts(point);
    this.showTables(point);
    var tables = this.followTables(key); // lazy tables and "What changed": tables.js
    var self = this;
    var names = Object.keys(this.views);
    var inView = this.inView;
    var onScreen = names.filter(function (name) { return !inView || inView[name]; });
    var offScreen = names.filter(function (name) { return onScreen.indexOf(name) < 0; });
    var show = function (name) { return self.showChart(name, key); };
    var first = Promise.all(onScreen.map(show));
    var rest = first.then(function () {
      if (seen) seen();
      if (!offScreen.length) return null;
      return afterPaint().then(function () {
        // A newer state draws these charts itself.
        return self.key() === key ? Promise.all(offScreen.map(show)) : null;
      });
    });
    return Promise.all([rest, tables]).then(function () {
      // Only the latest state is recorded, even when several changes overlap.
      if (self.key() === key) self.article.dataset.point = key;
    });
  };

  // A promise that settles once the browser has drawn the next frame, or after 50 ms when it
  // draws none (a hidden tab, an embed frame scrolled away: they pause animation frames).
  function afterPaint() {
    return new Promise(function (resolve) {
      if (window.requestAnimationFrame) {
        window.requestAnimationFrame(function () { window.setTimeout(resolve, 0); });
      }
      window.setTimeout(resolve, 50);
    });
  }

  // Which charts are on screen, kept up to date by an IntersectionObserver (without one,
  // every chart counts as on screen and all are redrawn at once).
  Lesson.prototype.watchCharts = function () {
    if (!window.IntersectionObserver) return;
    var inView = this.inView = {};
    var watcher = new window.IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        inView[entry.target.dataset.chart] = entry.isIntersecting;
      });
    });
    this.article.querySelectorAll("[data-chart]").forEach(function (figure) {
      inView[figure.dataset.chart] = false;
      watcher.observe(figure);
    });
  };

  // User-timing measures that `make bench` reads, from the control's input event: to the
  // readouts and the charts on screen updated ("explorer:update") and to the next frame drawn
  // after that ("explorer:paint"); to every chart updated, on screen or not ("explorer:all").
  function measureUpdate(name, started) {
    var timing = window.performance;
    if (!timing || !timing.measure || !window.requestAnimationFrame) return;
    try {
      timing.measure(name, { start: started, end: timing.now() });
    } catch (error) {
      return; // a browser without User Timing level 3: nothing to measure
    }
    if (name !== "explorer:update") return;
    window.requestAnimationFrame(function () {
      window.setTimeout(function () {
        timing.measure("explorer:paint", { start: started, end: timing.now() });
      }, 0);
    });
  }

  Lesson.prototype.bindControls = function () {
    var self = this;
    this.article.querySelectorAll("[data-param]").forEach(function (input) {
      var event = input.type === "radio" || input.tagName === "SELECT" ? "change" : "input";
      input.addEventListener(event, function (happened) {
        if (input.type === "radio" && !input.checked) return;
        var fromKey = self.key();
        self.state[input.dataset.param] = Number(input.value);
        writeHash(self.params, self.state);
        var key = self.key();
        self.apply(function () {
          if (self.key() === key) measureUpdate("explorer:update", happened.timeStamp);
        }).then(function () {
          if (self.key() === key) measureUpdate("explorer:all", happened.timeStamp);
        });
        self.announce(input, fromKey);
      });
    });
    window.addEventListener("hashchange", function () {
      self.readState(self.state);
      self.apply();
    });
  };

  // Marks that act as controls: a chart's point selection "<param>_by_mark" (charts.py,
  // mark_controls) sets the parameter to the grid value nearest the picked mark's field,
  // through the parameter's first control, exactly as moving that control would.
  Lesson.prototype.bindMarks = function (name, view) {
    var self = this;
    var marks = this.data.charts[name].marks || {};
    var holder = view.container();
    if (Object.keys(marks).length) {
      holder.classList.add("is-control");
      // A finger is captured by what it pressed: let a drag pick what it moves over instead.
      holder.addEventListener("pointerdown", function (event) {
        if (event.target.releasePointerCapture) event.target.releasePointerCapture(event.pointerId);
      }, true);
    }
    Object.keys(marks).forEach(function (param) {
      view.addSignalListener(param + "_by_mark", function (signal, picked) {
        var values = picked && picked[marks[param]];
        if (values && values.length) self.choose(param, values[0]);
      });
    });
  };

  Lesson.prototype.choose = function (name, value) {
    var param = this.params.filter(function (p) { return p.name === name; })[0];
    var index = param.values.indexOf(value);
    if (index < 0 && typeof value === "number" && typeof param.values[0] === "number") {
      index = 0;
      param.values.forEach(function (v, i) {
        if (Math.abs(v - value) < Math.abs(param.values[index] - value)) index = i;
      });
    }
    var input = this.article.querySelector("[data-param='" + name + "']");
    if (index < 0 || !input || index === this.state[name]) return;
    if (input.type === "radio") {
      input = this.article.querySelector("[data-param='" + name + "'][value='" + index + "']");
      input.checked = true;
    } else {
      input.value = String(index);
    }
    input.dispatchEvent(new Event(input.type === "range" ? "input" : "change"));
  };

  // "Show me" steps: a button sets its controls, scrolls its chart into view and says, in the
  // one polite region, what it set; the learner then takes over.
  Lesson.prototype.bindSteps = function () {
    var self = this;
    this.article.querySelectorAll("[data-showme]").forEach(function (button) {
      button.addEventListener("click", function () {
        var settings = JSON.parse(button.dataset.showme);
        Object.keys(settings).forEach(function (name) { self.state[name] = settings[name]; });
        writeHash(self.params, self.state);
        var figure = document.getElementById(button.dataset.showmeTarget);
        if (figure) figure.scrollIntoView({ block: "start" });
        window.clearTimeout(self.announceTimer); // the step says what it did, not a slider
        delete self.announceFrom;
        var region = self.article.querySelector("[data-announcer]");
        if (region) {
          region.textContent = button.dataset.said;
          region.dataset.point = self.key();
        }
        self.apply();
      });
    });
  };

  // Vega measures chart text when it embeds a chart: load the charts' font first, in both
  // weights, or labels are laid out with a fallback font. A font that fails to load is no error.
  function loadChartFont(figures) {
    if (!figures.length || !document.fonts || !document.fonts.load) return Promise.resolve();
    var config = JSON.parse(figures[0].querySelector("[data-chart-spec]").textContent).config;
    if (!config || !config.font) return Promise.resolve();
    var family = '"' + config.font + '"';
    return Promise.all([
      document.fonts.load("400 12px " + family),
      document.fonts.load("700 12px " + family)
    ]).catch(function () {});
  }

  // The y encodings of a panel and of its layers, at any depth.
  function rowEncodings(panel) {
    var found = [];
    (panel.layer || [panel]).forEach(function (part) {
      if (part.layer) found = found.concat(rowEncodings(part));
      else if (part.encoding && part.encoding.y) found.push(part.encoding.y);
    });
    return found;
  }

  // Panels that left their row labels to the panel on their left (the same y field with
  // `axis: null` or `labels: false`) show their own once stacked, as that panel does.
  function ownRowLabels(panels) {
    var shown = {};
    panels.forEach(function (panel) {
      rowEncodings(panel).forEach(function (y) {
        if (y.field && y.axis && y.axis.labels !== false && !shown[y.field]) shown[y.field] = y.axis;
      });
    });
    panels.forEach(function (panel) {
      rowEncodings(panel).forEach(function (y) {
        if (y.axis === null && shown[y.field]) {
          y.axis = JSON.parse(JSON.stringify(shown[y.field]));
        } else if (y.axis && y.axis.labels === false) {
          delete y.axis.labels;
          delete y.axis.ticks;
        }
      });
    });
  }

  // Legends laid out in one row above or below a chart wrap into this many columns at first,
  // and into one column fewer each time the chart is still too wide.
  var LEGEND_COLUMNS = 3;

  // Whether a one-row legend of `spec` (at any depth) was told to wrap, or to wrap narrower.
  function wrapLegends(spec) {
    var wrapped = false;
    (function visit(node) {
      if (Array.isArray(node)) {
        node.forEach(visit);
      } else if (node && typeof node === "object") {
        var legend = node.legend;
        var row = legend && (legend.direction === "horizontal" || /top|bottom/.test(legend.orient));
        if (row && (legend.columns === undefined || legend.columns > 1)) {
          legend.columns = legend.columns === undefined ? LEGEND_COLUMNS : legend.columns - 1;
          wrapped = true;
        }
        Object.keys(node).forEach(function (key) {
          if (key !== "datasets" && key !== "data") visit(node[key]);
        });
      }
    })(spec);
    return wrapped;
  }

  // The shortest a row label is cut to (CSS px) when plots can narrow no more.
  var NARROWEST_LABEL = 80;

  // At most this many layouts are tried after the first (stack, wrap legends, narrow plots).
  var FIT_STEPS = 6;

  // The smallest plot width (CSS px) a panel is narrowed to on a small screen.
  var NARROWEST_PANEL = 160;

  // `text` broken at spaces into `lines` lines of about equal length (a text broken before is
  // joined again first); null when it has too few words for that.
  function inLines(text, lines) {
    if (Array.isArray(text)) text = text.join(" ");
    if (typeof text !== "string") return null;
    var words = text.split(" ");
    if (words.length < lines) return null;
    var each = Math.ceil(text.length / lines);
    var broken = [""];
    words.forEach(function (word) {
      var line = broken[broken.length - 1];
      if (line && line.length + 1 + word.length > each) broken.push(word);
      else broken[broken.length - 1] = line ? line + " " + word : word;
    });
    return broken.length < 2 ? null : broken;
  }

  // `title` (a text or a Vega-Lite title object) with its text broken into `lines` lines and
  // its subtitle (a chart's takeaway) into `subtitleLines`; null when neither can be broken.
  function titleInLines(title, lines, subtitleLines) {
    var object = typeof title === "object" && title !== null && !Array.isArray(title);
    if (!object) return lines > 1 ? inLines(title, lines) : null;
    var copy = JSON.parse(JSON.stringify(title));
    var text = lines > 1 ? inLines(copy.text, lines) : null;
    var subtitle = subtitleLines > 1 ? inLines(copy.subtitle, subtitleLines) : null;
    if (text) copy.text = text;
    if (subtitle) copy.subtitle = subtitle;
    return text || subtitle ? copy : null;
  }

  // How many lines the chart's own texts of role `role` (its title, its subtitle; a panel's
  // are not broken here) need so that each stays inside the first `box` px of `holder` where
  // it is anchored; 0 when they are inside now.
  function linesToFit(holder, role, box) {
    var left = holder.getBoundingClientRect().left;
    var needed = 0;
    holder.querySelectorAll(".role-" + role + " text").forEach(function (text) {
      if (text.closest(".role-scope")) return;
      var drawn = text.getBoundingClientRect();
      var from = drawn.left - left;
      var to = drawn.right - left;
      if (from >= -0.5 && to <= box + 0.5) return;
      var anchor = text.getAttribute("text-anchor");
      var middle = (from + to) / 2;
      var room = anchor === "middle" ? 2 * Math.min(middle, box - middle)
        : anchor === "end" ? Math.min(to, box) : box - Math.max(from, 0);
      var lines = Math.max(1, text.querySelectorAll("tspan").length);
      needed = Math.max(needed, Math.ceil(lines * drawn.width / Math.max(room, box / 2)));
    });
    return needed;
  }

  // Whether a chart drawn in `holder` is wider than its `box` px, or its title, takeaway or
  // legend reaches past it (the SVG would cut them off: they do not widen the holder).
  function overflows(holder, box) {
    return holder.scrollWidth > box || reach(holder, "legend") > box + 0.5 ||
      linesToFit(holder, "title-text", box) > 0 || linesToFit(holder, "title-subtitle", box) > 0;
  }

  // How far (CSS px) from the left of `holder` the drawn parts of role `role` reach.
  function reach(holder, role) {
    var left = holder.getBoundingClientRect().left;
    var found = 0;
    holder.querySelectorAll(".role-" + role).forEach(function (part) {
      found = Math.max(found, part.getBoundingClientRect().right - left);
    });
    return found;
  }

  // `spec`, drawn in `holder` too wide for its `box` px, one step narrower: side-by-side
  // panels are stacked; a title or takeaway that reaches past the box is broken into lines
  // (each within the room on either side of where it is anchored); a one-row legend
  // wider than it wraps into columns; else stacked panels lose the overflow from their width
  // (a square panel stays square), down to NARROWEST_PANEL; then long row labels are cut.
  // Null when there is nothing left to do.
  function fittedPanels(spec, holder, box) {
    var fitted = JSON.parse(JSON.stringify(spec));
    var overflow = holder.scrollWidth - box;
    var changed = false;
    if (fitted.hconcat) {
      fitted.vconcat = fitted.hconcat;
      delete fitted.hconcat;
      ownRowLabels(fitted.vconcat);
      changed = true;
    }
    var lines = linesToFit(holder, "title-text", box);
    var subtitleLines = linesToFit(holder, "title-subtitle", box);
    var title = fitted.title && (lines || subtitleLines)
      ? titleInLines(fitted.title, lines, subtitleLines) : null;
    if (title) {
      fitted.title = title;
      changed = true;
    }
    if (reach(holder, "legend") > box && wrapLegends(fitted)) changed = true;
    if (changed) return fitted;
    if (overflow <= 0) return null; // the texts above could not be made to fit: nothing more
    var narrowed = false;
    (fitted.vconcat || []).forEach(function (panel) {
      if (typeof panel.width !== "number" || panel.width <= NARROWEST_PANEL) return;
      var width = Math.max(NARROWEST_PANEL, panel.width - overflow);
      if (panel.height === panel.width) panel.height = width;
      panel.width = width;
      narrowed = true;
    });
    if (narrowed) return fitted;
    // Plots at their narrowest: long row labels are cut short (with "…"; tooltips and the
    // table beside the chart still give them whole).
    var cut = false;
    (fitted.vconcat || []).forEach(function (panel) {
      rowEncodings(panel).forEach(function (y) {
        if (!y.axis) return;
        var limit = Math.max(NARROWEST_LABEL, (y.axis.labelLimit || y.axis.maxExtent || 180) - overflow - 4);
        if (limit >= (y.axis.labelLimit || Infinity)) return;
        y.axis.labelLimit = limit;
        if (y.axis.maxExtent) y.axis.maxExtent = Math.min(y.axis.maxExtent, limit + 8);
        cut = true;
      });
    });
    return cut ? fitted : null;
  }

  // Panels wider than their box (on a phone) are drawn again, when the page opens, a step
  // narrower each time while still too wide (see fittedPanels).
  function fitToBox(holder, target, spec, result, tries) {
    var box = target.clientWidth;
    var fitted = tries > 0 && overflows(holder, box) ? fittedPanels(spec, holder, box) : null;
    if (!fitted) return result;
    result.finalize();
    holder.replaceChildren();
    target.classList.add("is-refitted");
    return window.vegaEmbed(holder, JSON.parse(JSON.stringify(fitted)), { actions: false, renderer: "svg" })
      .then(function (again) { return fitToBox(holder, target, fitted, again, tries - 1); });
  }

  // A chart wider than its box that has a layout for narrow boxes (usermeta.narrow, see
  // explorer/charts.py) is drawn again in that layout, with the same data and params; it
  // then takes the box's width instead of scrolling in it. Resolves to the spec drawn and
  // vega-embed's result.
  function inNarrowLayout(holder, target, spec, result) {
    var narrow = spec.usermeta && spec.usermeta.narrow;
    if (!narrow || holder.scrollWidth <= target.clientWidth) {
      return Promise.resolve({ spec: spec, result: result });
    }
    var layout = JSON.parse(JSON.stringify(narrow));
    layout.datasets = spec.datasets;
    result.finalize();
    holder.replaceChildren();
    // No longer a box that scrolls: no longer a region of its own to tab to.
    target.classList.remove("is-fixed");
    ["tabindex", "role", "aria-label"].forEach(function (name) { target.removeAttribute(name); });
    return window.vegaEmbed(holder, layout, { actions: false, renderer: "svg" })
      .then(function (again) { return { spec: layout, result: again }; });
  }

  Lesson.prototype.embedCharts = function () {
    var self = this;
    var figures = this.article.querySelectorAll("[data-chart]");
    return loadChartFont(figures).then(function () {
      return self.embedEachChart(figures);
    });
  };

  Lesson.prototype.embedEachChart = function (figures) {
    var self = this;
    return Promise.all(Array.prototype.map.call(figures, function (figure) {
      var name = figure.dataset.chart;
      var spec = JSON.parse(figure.querySelector("[data-chart-spec]").textContent);
      var target = figure.querySelector("[data-chart-view]");
      var fallback = target.querySelector(".chart-fallback");
      var holder = document.createElement("div");
      holder.className = "chart-live";
      target.appendChild(holder);
      self.keepDefaultRows(name, spec);
      return window.vegaEmbed(holder, spec, { actions: false, renderer: "svg" })
        .then(function (result) {
          return inNarrowLayout(holder, target, spec, result);
        })
        .then(function (drawn) {
          return fitToBox(holder, target, drawn.spec, drawn.result, FIT_STEPS);
        })
        .then(function (result) {
          self.views[name] = result.view;
          self.bindMarks(name, result.view);
          if (fallback) fallback.hidden = true;
          figure.classList.add("is-live");
          return self.showChart(name, self.key());
        })
        .catch(function (error) {
          self.chartFailed(name);
          if (window.console) window.console.warn("chart " + name + ": " + error);
        });
    }));
  };

  // The controls are disabled in the page as written (no JavaScript, no data): the runtime
  // enables them once every chart shows the state.
  Lesson.prototype.enableControls = function () {
    this.article.querySelectorAll("[data-param], [data-showme]").forEach(function (input) {
      input.disabled = false;
    });
  };

  // Each group of controls and what follows it, up to the next group or past the last chart
  // or live table it moves, become one scope: on a wide screen the group sticks to the top of
  // the window while its scope is in view (style.css), and what the keyboard or a link reaches
  // scrolls clear of it. A lesson whose front matter says `pin_controls: false` pins none.
  function scopeControls(article, data) {
    var pins = article.dataset.pin !== "off";
    article.querySelectorAll("form.controls").forEach(function (form) {
      var scope = document.createElement("div");
      scope.className = "control-scope";
      form.parentNode.insertBefore(scope, form);
      var node = form;
      while (node && (node === form || !(node.nodeType === 1 && node.matches("form.controls")))) {
        var next = node.nextSibling;
        scope.appendChild(node);
        node = next;
      }
      var moved = movedBy(data, form);
      var last = form;
      Array.prototype.forEach.call(scope.children, function (child) {
        var inner = child.querySelectorAll("[data-chart], [data-table]");
        if (moved(child) || Array.prototype.some.call(inner, moved)) last = child;
      });
      while (scope.lastChild !== last) {
        scope.parentNode.insertBefore(scope.lastChild, scope.nextSibling);
      }
      var measure = function () {
        scope.style.setProperty("--controls-height", form.offsetHeight + "px");
        // A group taller than a quarter of the window would hide the figures: not pinned.
        scope.classList.toggle("is-pinned", pins && form.offsetHeight * 4 <= window.innerHeight);
      };
      measure();
      if (window.ResizeObserver) new window.ResizeObserver(measure).observe(form);
      window.addEventListener("resize", measure);
    });
  }

  // Whether a chart or live table moves with the controls of `form`: one of them is a signal of
  // the chart, or its rows (a table's cells) differ between two grid points they tell apart.
  // A lazy table, whose cells the page data does not name, counts as moved.
  function movedBy(data, form) {
    var names = Array.prototype.map.call(form.querySelectorAll("[data-param]"), function (i) {
      return i.dataset.param;
    });
    var keys = Object.keys(data.points);
    if (!data.moves) {
      data.moves = {}; // parameter -> the datasets and tables that change with it
      data.params.forEach(function (p, i) {
        var changes = data.moves[p.name] = {};
        keys.forEach(function (key) {
          var at = key.split("-");
          at[i] = String(Number(at[i]) + 1);
          var a = data.points[key];
          var b = data.points[at.join("-")];
          if (b) ["d", "t"].forEach(function (kind) {
            Object.keys(a[kind] || {}).forEach(function (name) {
              if (a[kind][name] !== b[kind][name]) changes[name] = true;
            });
          });
        });
      });
    }
    var changes = function (name) {
      return names.some(function (p) { return data.moves[p][name]; });
    };
    return function (el) {
      var chart = data.charts[el.dataset.chart];
      if (chart) {
        return chart.signals.some(function (s) { return names.indexOf(s) >= 0; }) ||
          chart.datasets.some(changes);
      }
      var table = el.dataset.table;
      if (!table || !("live" in el.dataset)) return false;
      return changes(table) || !(table in (data.points[keys[0]].t || {}));
    };
  }

  // Pages without lazy tables or a "What changed" view do not load tables.js: their tables
  // are all in the page data, and there is nothing to compare or to say about it.
  Lesson.prototype.followTables = function () { return Promise.resolve(); };
  Lesson.prototype.changesToSay = function () { return ""; };

  // Parts of the runtime that only some pages load queue an installer in
  // window.EXPLORER_PARTS; a part loaded after this script is installed as it arrives.
  var parts = window.EXPLORER_PARTS || [];
  window.EXPLORER_PARTS = {
    push: function (install) { install(Lesson); }
  };
  parts.forEach(function (install) { window.EXPLORER_PARTS.push(install); });

  function start() {
    var article = document.querySelector("[data-lesson]");
    if (!article) return;
    var all = window.EXPLORER_DATA || {};
    var data = all[article.dataset.lesson];
    var needsVega = article.querySelector("[data-chart]") !== null;
    if (!data || (needsVega && typeof window.vegaEmbed !== "function")) {
      var note = document.createElement("p");
      note.className = "chart-error";
      note.setAttribute("role", "alert");
      note.textContent = article.dataset.missing;
      article.insertBefore(note, article.firstChild);
      return;
    }
    if (data.groups) expandCompact(data);
    var lesson = new Lesson(article, data);
    article.classList.add("is-interactive");
    scopeControls(article, data);
    lesson.markLiveReadouts();
    lesson.watchCharts();
    lesson.bindControls();
    lesson.bindSteps();
    lesson.syncControls();
    lesson.showReadouts(data.points[lesson.key()]);
    lesson.showTables(data.points[lesson.key()]);
    lesson.followTables(lesson.key());
    window.explorerLesson = lesson; // for the browser tests and curious learners
    lesson.ready = lesson.embedCharts().then(function () {
      return lesson.apply();
    }).then(function () {
      lesson.enableControls();
      article.dataset.ready = "true";
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

/* Around the lesson: links that keep the learner's settings, and the height an embed page
 * reports to the frame that holds it.
 */
(function () {
  "use strict";

  // The language switch (and, in an embed page, the link to the full lesson) carries the
  // control settings: the hash names them in texts that are the same in every language.
  function keepState() {
    document.querySelectorAll("a[data-keep-state]").forEach(function (link) {
      link.href = link.href.split("#")[0] + window.location.hash;
    });
  }
  document.querySelectorAll("[data-lang-switch]").forEach(function (link) {
    link.setAttribute("data-keep-state", "");
  });
  keepState();
  window.addEventListener("explorer:statechange", keepState);
  window.addEventListener("hashchange", keepState);

  // An embed page tells its parent its height, so that the frame grows to the whole lesson
  // (no second scrollbar): on load and whenever it changes (controls, charts, fonts, width).
  // Two messages: a plain one for any host page, and the one Canvas listens for.
  var root = document.documentElement;
  if (!root.hasAttribute("data-embed") || window.parent === window) return;
  var reported = 0;
  var pending = false;
  function report() {
    pending = false;
    var height = Math.ceil(root.getBoundingClientRect().height);
    if (height === reported) return;
    reported = height;
    window.parent.postMessage({ type: "explorer:resize", height: height }, "*");
    window.parent.postMessage({ subject: "lti.frameResize", height: height }, "*");
  }
  function soon() {
    if (pending) return;
    pending = true;
    window.setTimeout(report, 30); // not requestAnimationFrame: paused in offscreen frames
  }
  if (window.ResizeObserver) new window.ResizeObserver(soon).observe(root);
  window.addEventListener("load", soon);
  window.addEventListener("resize", soon);
  if (document.fonts) {
    document.fonts.ready.then(soon);
    if (document.fonts.addEventListener) document.fonts.addEventListener("loadingdone", soon);
  }
  report();
})();

/* Predict-then-reveal questions: CSS already reveals the explanation when an answer is
 * picked; this marks the pick for browsers without :has and says the verdict to screen
 * readers. Nothing leaves the page and nothing is stored.
 */
(function () {
  "use strict";
  document.querySelectorAll("[data-quiz]").forEach(function (quiz) {
    quiz.addEventListener("change", function (event) {
      var input = event.target;
      if (!input || input.type !== "radio") return;
      var right = input.hasAttribute("data-right");
      quiz.setAttribute("data-answered", right ? "right" : "wrong");
      var verdict = quiz.querySelector(right ? ".quiz-verdict-right" : ".quiz-verdict-wrong");
      var status = quiz.querySelector("[data-quiz-status]");
      if (verdict && status) status.textContent = verdict.textContent;
    });
  });
})();
