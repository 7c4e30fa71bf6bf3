/* The part of the page runtime that only pages with lazy tables or a "What changed" view
 * load (explorer.js holds the rest and installs this part on its Lesson).
 *
 * A live table named in a module's LAZY has no cells in the page data: data.tableChunks
 * names those tables, the page's language and the grid index (position in grid order) at
 * which each chunk of points starts; chunk n is assets/data/<lesson>.<lang>.<n>.js, filed
 * under window.EXPLORER_CHUNKS[slug]["<lang>.<n>"] (explorer/lazy.py, lazy_tables). Until
 * a point's chunk is here, its tables keep the rows they show, marked busy, and then show
 * the point's own: never rows of another setting as if they were this one's.
 * {{< changes NAME ... >}} compares the readouts and tables it names between the setting
 * before a change and the one after it, from the same precomputed results.
 *
 * The page loads this script before explorer.js; it only queues its installer in
 * window.EXPLORER_PARTS, which explorer.js runs (at once, if it is there already).
 */
(function () {
  "use strict";

  function install(Lesson) {
    function keyAt(index, sizes) {
      var indices = [];
      for (var k = sizes.length - 1; k >= 0; k--) {
        indices.unshift(index % sizes[k]);
        index = Math.floor(index / sizes[k]);
      }
      return indices.join("-");
    }

    Lesson.prototype.tableChunkOf = function (key) {
      var starts = this.data.tableChunks.starts;
      var indices = key.split("-").map(Number);
      var index = 0;
      this.params.forEach(function (p, i) { index = index * p.values.length + indices[i]; });
      var low = 0;
      var high = starts.length - 1;
      while (low < high) {
        var middle = (low + high + 1) >> 1;
        if (starts[middle] <= index) low = middle; else high = middle - 1;
      }
      return low;
    };

    Lesson.prototype.fileTableChunk = function (number, chunk) {
      var data = this.data;
      var lazy = data.tableChunks;
      var name = lazy.lang + "." + number;
      chunk.tables.forEach(function (rows, i) {
        data.datasets[name + ":" + i] = rows.map(function (row) {
          return row.map(function (text) { return chunk.texts[text]; });
        });
      });
      var sizes = this.params.map(function (p) { return p.values.length; });
      var start = lazy.starts[number];
      chunk.points.forEach(function (tables, offset) {
        var key = keyAt(start + offset, sizes);
        var old = data.points[key];
        var t = {};
        Object.keys(old.t || {}).forEach(function (table) { t[table] = old.t[table]; });
        lazy.names.forEach(function (table, j) { t[table] = name + ":" + tables[j]; });
        data.points[key] = { r: old.r, d: old.d, t: t };
      });
    };

    Lesson.prototype.loadTableChunk = function (number) {
      var self = this;
      return this.loadChunk(this.data.tableChunks.lang + "." + number, function (chunk) {
        self.fileTableChunk(number, chunk);
      });
    };

    Lesson.prototype.tablesFor = function (key) {
      var lazy = this.data.tableChunks;
      var point = this.data.points[key];
      if (!lazy || !point) return null;
      var here = lazy.names.every(function (table) { return point.t && point.t[table] !== undefined; });
      return here ? null : this.loadTableChunk(this.tableChunkOf(key));
    };

    Lesson.prototype.lazyHolders = function () {
      var lazy = this.data.tableChunks;
      var holders = this.article.querySelectorAll("[data-table][data-live]");
      return Array.prototype.filter.call(holders, function (holder) {
        return lazy && lazy.names.indexOf(holder.dataset.table) >= 0;
      });
    };

    function markBusy(elements, busy) {
      elements.forEach(function (element) {
        element.classList.toggle("is-busy", busy);
        if (busy) element.setAttribute("aria-busy", "true"); else element.removeAttribute("aria-busy");
      });
    }

    Lesson.prototype.followTables = function (key) {
      var self = this;
      var from = this.changesKey === undefined ? key : this.changesKey;
      if (from !== key) {
        this.changesText = null;
        this.announcedKey = undefined;
      }
      this.changesKey = key;
      var own = this.showsTheHtmlRows(key) ? null : this.tablesFor(key);
      var before = from !== key ? this.tablesFor(from) : null;
      var holders = this.lazyHolders();
      var view = this.article.querySelector("[data-changes]");
      var views = view ? [view] : [];
      markBusy(holders, own !== null);
      markBusy(views, own !== null || before !== null);
      var current = function () { return self.key() === key; };
      var viewShown = Promise.all([own, before]).then(function () {
        if (!current()) return;
        markBusy(views, false);
        self.showChanges(from, key);
      }, function () {
        if (!current()) return;
        markBusy(views, false);
        var state = view && view.querySelector("[data-changes-state]");
        if (!state) return;
        view.querySelector("[data-changes-list]").hidden = true;
        state.hidden = false;
        state.textContent = self.article.dataset.tableFailed;
      });
      if (own === null) return viewShown;
      var tablesShown = own.then(function () {
        if (!current()) return;
        markBusy(holders, false);
        self.showTables(self.data.points[key]);
      }, function () {
        if (!current()) return;
        markBusy(holders, false);
        self.tablesFailed();
      });
      return Promise.all([tablesShown, viewShown]);
    };

    Lesson.prototype.showsTheHtmlRows = function (key) {
      var defaults = this.params.map(function (p) { return p.default; }).join("-");
      return key === defaults && this.lazyHolders().every(function (holder) {
        return holder.dataset.shown === undefined;
      });
    };

    Lesson.prototype.tablesFailed = function () {
      var article = this.article;
      this.lazyHolders().forEach(function (holder) {
        var row = document.createElement("tr");
        var cell = document.createElement("td");
        var body = holder.querySelector("[data-table-body]");
        if (!body) return;
        cell.colSpan = holder.querySelectorAll("thead th").length;
        cell.textContent = article.dataset.tableFailed;
        row.appendChild(cell);
        body.replaceChildren(row);
        holder.dataset.shown = "failed"; // no longer the rows the page was written with
      });
    };

    Lesson.prototype.changesBetween = function (view, before, after) {
      var datasets = this.data.datasets;
      var lines = [];
      var cellsOf = function (point, table) {
        var id = point.t ? point.t[table] : undefined;
        return id === undefined ? null : datasets[id];
      };
      JSON.parse(view.dataset.changes).forEach(function (item) {
        if (item.readout) {
          var was = before.r[item.readout];
          var now = after.r[item.readout];
          if (was !== now) lines.push(item.label + ": " + was + " \u2192 " + now);
          return;
        }
        var rowsBefore = cellsOf(before, item.table);
        var rowsAfter = cellsOf(after, item.table);
        if (!rowsBefore || !rowsAfter) return;
        var text = function (row) {
          return row.map(function (cell, i) { return item.columns[i] + ": " + cell; }).join("; ");
        };
        var once = function (rows) {
          var count = {};
          rows.forEach(function (row) { count[row[0]] = (count[row[0]] || 0) + 1; });
          return function (row) { return count[row[0]] === 1; };
        };
        var onceBefore = once(rowsBefore);
        var onceAfter = once(rowsAfter);
        var partner = function (row, rows, unique) {
          return unique(row) ? rows.filter(function (other) { return other[0] === row[0]; })[0] : undefined;
        };
        var was = rowsBefore.map(text);
        var now = rowsAfter.map(text);
        rowsAfter.forEach(function (row, i) {
          if (was.indexOf(now[i]) >= 0) return;
          var old = onceAfter(row) ? partner(row, rowsBefore, onceBefore) : undefined;
          if (old === undefined) {
            lines.push(view.dataset.added + " \u2014 " + now[i]);
            return;
          }
          var moved = row.map(function (cell, c) {
            return c === 0 || cell === old[c] ? null : item.columns[c] + ": " + old[c] + " \u2192 " + cell;
          }).filter(function (part) { return part !== null; });
          lines.push(view.dataset.changed + " \u2014 " + item.columns[0] + ": " + row[0] + "; " + moved.join("; "));
        });
        rowsBefore.forEach(function (row, i) {
          if (now.indexOf(was[i]) >= 0) return;
          var kept = onceBefore(row) ? partner(row, rowsAfter, onceAfter) : undefined;
          if (kept === undefined) lines.push(view.dataset.removed + " \u2014 " + was[i]);
        });
      });
      return lines;
    };

    Lesson.prototype.showChanges = function (from, key) {
      var view = this.article.querySelector("[data-changes]");
      if (!view || from === key) return;
      var lines = this.changesBetween(view, this.data.points[from], this.data.points[key]);
      var list = view.querySelector("[data-changes-list]");
      var state = view.querySelector("[data-changes-state]");
      list.replaceChildren.apply(list, lines.map(function (line) {
        var item = document.createElement("li");
        item.textContent = line;
        return item;
      }));
      list.hidden = !lines.length;
      state.hidden = lines.length > 0;
      state.textContent = view.dataset.none;
      view.dataset.from = from; // for the browser tests: the two points compared
      view.dataset.point = key;
      this.changesText = { key: key, text: lines.length ? lines.join(". ") + "." : view.dataset.none };
      var region = this.article.querySelector("[data-announcer]");
      if (region && this.announcedKey === key) {
        var text = this.changesToSay(key);
        if (text) region.textContent = text;
      }
    };

    Lesson.prototype.changesToSay = function (key) {
      this.announcedKey = key;
      var changes = this.changesText;
      if (!changes || changes.key !== key || changes.said) return "";
      changes.said = true;
      return changes.text;
    };
  }

  (window.EXPLORER_PARTS = window.EXPLORER_PARTS || []).push(install);
})();
