/* SCORM 1.2 adapter: tells the LMS about the learner's progress in this lesson.
 *
 * Only in SCORM packages (explorer export --scorm), loaded before explorer.js. It finds
 * the LMS's `API` object in a parent window (or the opener's), then:
 * - LMSInitialize(""); lesson_status "incomplete" on the first open (never lowered later);
 * - restores the control settings from cmi.suspend_data (the URL hash, e.g.
 *   "query=mean&epsilon=0.5&releases=10"), so the learner resumes where they left,
 *   and saves them there whenever a control moves;
 * - sets lesson_status "completed" once the learner has BOTH reached the end of the
 *   lesson (its last line has been on screen) AND moved at least one control (a lesson
 *   without controls needs only the end);
 * - on leaving: cmi.core.exit "suspend", cmi.core.session_time, LMSCommit, LMSFinish.
 * Without an LMS it does nothing and logs nothing.
 */
(function () {
  "use strict";

  function apiIn(start) {
    var win = start;
    for (var depth = 0; win && depth < 500; depth++) {
      try {
        if (win.API && typeof win.API.LMSInitialize === "function") return win.API;
      } catch (error) {
        // a window of another origin: keep climbing
      }
      if (win.parent === win) break;
      win = win.parent;
    }
    return null;
  }

  var api = (window.parent !== window && apiIn(window.parent)) ||
    (window.opener && apiIn(window.opener)) || null;
  if (!api || String(api.LMSInitialize("")) !== "true") return;

  var started = Date.now();
  var finished = false;
  var completed = false;
  var reachedEnd = false;
  var usedControls = document.querySelector("[data-param]") === null;

  function set(name, value) {
    api.LMSSetValue(name, value);
  }

  var status = String(api.LMSGetValue("cmi.core.lesson_status"));
  if (status === "completed" || status === "passed") {
    completed = true;
  } else {
    set("cmi.core.lesson_status", "incomplete");
  }
  var saved = String(api.LMSGetValue("cmi.suspend_data") || "");
  if (saved && !window.location.hash) {
    try {
      window.history.replaceState(null, "", "#" + saved);
    } catch (error) {
      window.location.hash = saved;
    }
  }
  api.LMSCommit("");

  function complete() {
    if (completed || !reachedEnd || !usedControls) return;
    completed = true;
    set("cmi.core.lesson_status", "completed");
    api.LMSCommit("");
  }

  window.addEventListener("explorer:statechange", function () {
    if (finished) return;
    usedControls = true;
    set("cmi.core.exit", "suspend");
    set("cmi.suspend_data", window.location.hash.replace(/^#/, "").slice(0, 4096));
    api.LMSCommit("");
    complete();
  });

  function watchEnd() {
    var end = document.querySelector("[data-lesson-end]");
    if (!end || !window.IntersectionObserver) {
      reachedEnd = true;
      return;
    }
    new window.IntersectionObserver(function (entries) {
      if (entries.some(function (entry) { return entry.isIntersecting; })) {
        reachedEnd = true;
        complete();
      }
    }).observe(end);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", watchEnd);
  } else {
    watchEnd();
  }

  // SCORM 1.2 time: HHHH:MM:SS.SS
  function sessionTime() {
    var seconds = (Date.now() - started) / 1000;
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = (seconds % 60).toFixed(2);
    function pad(value, width) {
      value = String(value);
      while (value.length < width) value = "0" + value;
      return value;
    }
    return pad(hours, 4) + ":" + pad(minutes, 2) + ":" + pad(rest, 5);
  }

  function finish() {
    if (finished) return;
    finished = true;
    set("cmi.core.exit", "suspend"); // the LMS keeps suspend_data and resumes next time
    set("cmi.core.session_time", sessionTime());
    api.LMSCommit("");
    api.LMSFinish("");
  }
  window.addEventListener("pagehide", finish);
  window.addEventListener("beforeunload", finish);
})();
