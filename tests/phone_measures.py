"""What a phone shows of a page, measured in the browser: chart text cut or overprinted
(issue 22 §4).

The scripts run on a page as it is laid out now and return plain data; the checks that judge
them run in the phone pass of every page (tests/test_browser_pages.py).
"""

from __future__ import annotations

OVERPRINT_SHARE = 0.2
"""Two chart texts overprint when they share more than this share of the smaller one's area."""

CUT_TOLERANCE_PX = 0.5
"""How far (CSS px) a text's box may reach past what shows it before it counts as cut."""

CHART_TEXTS = """([overprintShare, tolerance]) => {
  // A box {x, y, width, height} in an element's own coordinates, as the four corners it
  // covers on screen (client px): a rotated label is a rotated box.
  const corners = (box, m) => {
    const at = (x, y) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
    const right = box.x + box.width, bottom = box.y + box.height;
    return [at(box.x, box.y), at(right, box.y), at(right, bottom), at(box.x, bottom)];
  };
  const bounds = points => {
    const xs = points.map(p => p[0]), ys = points.map(p => p[1]);
    return {left: Math.min(...xs), right: Math.max(...xs),
            top: Math.min(...ys), bottom: Math.max(...ys)};
  };
  const within = (a, b) => ({left: Math.max(a.left, b.left), right: Math.min(a.right, b.right),
                             top: Math.max(a.top, b.top), bottom: Math.min(a.bottom, b.bottom)});
  const rectangle = r => [[r.left, r.top], [r.right, r.top], [r.right, r.bottom],
                          [r.left, r.bottom]];
  const area = polygon => polygon.reduce((sum, [x1, y1], i) => {
    const [x2, y2] = polygon[(i + 1) % polygon.length];
    return sum + (x1 * y2 - x2 * y1) / 2;
  }, 0);
  // Sutherland–Hodgman: the area of convex `subject` inside convex `clip`.
  const shared = (subject, clip) => {
    const sign = Math.sign(area(clip)) || 1;
    let kept = subject;
    clip.forEach((a, i) => {
      const b = clip[(i + 1) % clip.length];
      const side = p => sign * ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]));
      const input = kept;
      kept = [];
      input.forEach((p, j) => {
        const q = input[(j + 1) % input.length];
        const sp = side(p), sq = side(q);
        if (sp >= 0) kept.push(p);
        if ((sp >= 0) !== (sq >= 0)) {
          const t = sp / (sp - sq);
          kept.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
        }
      });
    });
    return kept.length >= 3 ? Math.abs(area(kept)) : 0;
  };
  const drawn = (text, svg) => {
    for (let node = text; node && node !== svg; node = node.parentNode) {
      const style = getComputedStyle(node);
      const gone = style.display === "none" || style.visibility === "hidden";
      if (gone || parseFloat(style.opacity) === 0) return false;
    }
    return parseFloat(getComputedStyle(text).fillOpacity) > 0;
  };
  // The rectangle (client px) that the clip-path of `node` lets show, if it has one.
  const clipOf = node => {
    const id = (node.getAttribute("clip-path") || "").match(/url\\(["']?#([^"')]+)/);
    const shape = id && document.getElementById(id[1])?.querySelector("rect");
    if (!shape) return null;
    const box = {x: shape.x.baseVal.value, y: shape.y.baseVal.value,
                 width: shape.width.baseVal.value, height: shape.height.baseVal.value};
    return bounds(corners(box, node.getScreenCTM()));
  };
  // The ascent and descent (in em) of the line box the browser gives a text's font.
  const metrics = {};
  const lineBox = (svg, style) => {
    const font = `font-family:${style.fontFamily};font-weight:${style.fontWeight};`
      + `font-style:${style.fontStyle};font-size:100px`;
    if (!metrics[font]) {
      const probe = document.createElementNS("http://www.w3.org/2000/svg", "text");
      probe.setAttribute("style", font);
      probe.textContent = "Hg";
      svg.appendChild(probe);
      const box = probe.getBBox();
      probe.remove();
      metrics[font] = [-box.y / 100, (box.y + box.height) / 100];
    }
    return metrics[font];
  };
  return Array.from(document.querySelectorAll(".chart-live svg")).map(svg => {
    const view = svg.closest("[data-chart-view]");
    const frame = view.getBoundingClientRect();
    // What the chart's box shows now: its padding box, scroll bars excluded.
    const port = {left: frame.left + view.clientLeft, top: frame.top + view.clientTop,
                  right: frame.left + view.clientLeft + view.clientWidth,
                  bottom: frame.top + view.clientTop + view.clientHeight};
    const seen = within(svg.getBoundingClientRect(), port);
    const texts = Array.from(svg.querySelectorAll("text"))
      .filter(t => t.textContent.trim() && t.getClientRects().length && drawn(t, svg))
      .map(t => {
        const style = getComputedStyle(t);
        const size = parseFloat(style.fontSize);
        // Vertically a line is its em box as Vega lays text out (0.8 em above the baseline to
        // 0.2 em below), not the font's line box, whose ascent and descent reach far past the
        // glyphs of the Korean face. Across, the box is the text's advance.
        const [ascent, descent] = lineBox(svg, style);
        const box = t.getBBox();
        const first = box.y + ascent * size, last = box.y + box.height - descent * size;
        const em = {x: box.x, y: first - 0.8 * size, width: box.width,
                    height: last - first + size};
        const quad = corners(em, t.getScreenCTM());
        let shown = seen;
        for (let node = t; node && node !== svg; node = node.parentNode) {
          const clip = node.getAttribute && clipOf(node);
          if (clip) shown = within(shown, clip);
        }
        const room = {left: shown.left - tolerance, right: shown.right + tolerance,
                      top: shown.top - tolerance, bottom: shown.bottom + tolerance};
        const whole = Math.abs(area(quad));
        const open = room.right > room.left && room.bottom > room.top;
        const role = (t.closest("[class*='role-']")?.getAttribute("class") || "")
          .split(" ").filter(c => c.startsWith("role-")).join(" ");
        // Lines of a broken title are tspans: keep a space between them in the report.
        const words = t.querySelectorAll("tspan").length
          ? Array.from(t.querySelectorAll("tspan")).map(s => s.textContent).join(" ")
          : t.textContent;
        return {
          text: words.trim().slice(0, 80), role, quad, area: whole,
          cut: !open || whole - shared(quad, rectangle(room)) > 1,
        };
      });
    const overprints = [];
    texts.forEach((a, i) => texts.slice(i + 1).forEach(b => {
      const smaller = Math.min(a.area, b.area);
      const common = smaller > 0 ? shared(a.quad, b.quad) : 0;
      if (common > overprintShare * smaller) {
        overprints.push({a: a.text, b: b.text, share: common / smaller});
      }
    }));
    return {
      chart: svg.closest("[data-chart]").dataset.chart,
      texts: texts.length,
      cut: texts.filter(t => t.cut).map(t => ({text: t.text, role: t.role})),
      overprints,
    };
  });
}"""
"""Per live chart: how many texts it draws, those cut by the chart's box, the box it scrolls
in or a clip (by more than 1 px² beyond :data:`CUT_TOLERANCE_PX`), and the pairs that
overprint by more than :data:`OVERPRINT_SHARE` of the smaller one's area."""

THUMB_PX = 44
"""The smallest target a thumb can hit on a phone: WCAG 2.2 SC 2.5.5 (Target Size, Enhanced)."""

TARGETS = """() => {
  // Every target a reader can tap on the page as it shows now, with the box a tap hits: a
  // radio button or checkbox with its label, a slider, a list, a button, a link, a quiz
  // answer. A link inside a sentence is exempt (SC 2.5.5's inline exception); a link of the
  // page's navigation (header, contents, pager, breadcrumb, embed bar) never is.
  const navigation = "header, nav, .toc, .pager, .embed-bar";
  const seen = el => {
    if (!el.getClientRects().length) return false;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden") return false;
    const box = el.getBoundingClientRect();
    // Off-screen until focused (the skip link), or inside a box clipped to nothing (text for
    // screen readers only).
    if (box.right <= 0 || box.bottom <= -scrollY) return false;
    for (let node = el; node; node = node.parentElement) {
      const r = node.getBoundingClientRect();
      const clips = getComputedStyle(node).overflow !== "visible";
      if (r.width <= 1 || r.height <= 1 && clips) return false;
    }
    return true;
  };
  // The text on the line of a link: its nearest block's text outside any block inside it.
  const lineText = link => {
    let block = link.parentElement;
    while (block && getComputedStyle(block).display.startsWith("inline")) {
      block = block.parentElement;
    }
    const inline = node => node.nodeType === Node.TEXT_NODE ? node.textContent
      : node.nodeType === Node.ELEMENT_NODE && getComputedStyle(node).display.startsWith("inline")
        ? Array.from(node.childNodes).map(inline).join("") : "";
    return block ? Array.from(block.childNodes).map(inline).join("").trim() : "";
  };
  const inSentence = link => {
    if (link.closest(navigation)) return false;
    if (!getComputedStyle(link).display.startsWith("inline")) return false;
    return lineText(link).length > link.textContent.trim().length;
  };
  const targets = [];
  const add = (kind, el, box) => {
    const name = (el.textContent || el.getAttribute("aria-label") || el.name || "").trim();
    targets.push({kind, name: name.replace(/\\s+/g, " ").slice(0, 50),
                  width: box.width, height: box.height});
  };
  document.querySelectorAll("input, select, button, a[href], summary").forEach(el => {
    if (el.type === "hidden" || !seen(el)) return;
    if (el.type === "radio" || el.type === "checkbox") {
      const label = el.closest("label")
        || (el.id && document.querySelector(`label[for='${el.id}']`)) || el;
      add(el.closest(".quiz") ? "quiz answer" : el.type, label, label.getBoundingClientRect());
    } else if (el.tagName === "A") {
      if (!inSentence(el)) add("link", el, el.getBoundingClientRect());
    } else {
      const kind = el.type === "range" ? "slider" : el.tagName.toLowerCase();
      add(kind, el, el.getBoundingClientRect());
    }
  });
  return targets;
}"""
"""Every target on the page that SC 2.5.5 covers, with its size (CSS px)."""

PRINT_BREAKS = """() => {
  // How the page breaks in print (the page must be emulating print media): every place where
  // a break would strand something.
  const style = el => getComputedStyle(el);
  const shown = el => el.getClientRects().length > 0;
  const problems = [];
  const name = el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + " " + el.textContent.trim().slice(0, 40);
  document.querySelectorAll("main h1, main h2, main h3, main h4").forEach(h => {
    if (shown(h) && style(h).breakAfter !== "avoid") {
      problems.push(`heading may end a page: ${name(h)}`);
    }
  });
  document.querySelectorAll("form.controls").forEach(form => {
    const summary = form.querySelector(".controls-summary");
    if (style(form).breakAfter !== "avoid") {
      problems.push(`settings line may leave its figure: ${name(form)}`);
    }
    if (!summary || !shown(summary)) problems.push(`no settings line printed: ${name(form)}`);
    form.querySelectorAll(".control").forEach(c => {
      if (shown(c)) problems.push(`a control is printed: ${name(c)}`);
    });
  });
  document.querySelectorAll("figure.chart").forEach(figure => {
    if (style(figure).breakInside !== "avoid") problems.push(`figure may break: ${name(figure)}`);
  });
  const footer = document.querySelector(".site-footer");
  if (footer && style(footer).breakBefore !== "avoid") problems.push("the footer may stand alone");
  return problems;
}"""
"""What the print style sheet does to a page: the breaks it would allow that strand a heading,
a figure's settings line or the footer, or split a figure."""

PAGE_FILL = 0.8
"""Printed, the text of a lesson fills at least this share of its pages' area: a figure kept
whole with its heading and settings never leaves half a page empty (style.css, @media print)."""
