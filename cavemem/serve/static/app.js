// cavemem page script: search, detail + history diff, edit (= supersede), forget, bulk forget, review.
// Loaded from /static (CSP forbids inline script); unsafe calls send the CSRF token from <meta>.
"use strict";
(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));

  function el(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const kid of kids.flat()) if (kid != null) node.append(kid.nodeType ? kid : String(kid));
    return node;
  }

  async function api(method, path, body) {
    const opts = { method, headers: { "X-CSRF-Token": csrf }, credentials: "same-origin" };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const resp = await fetch("/api/v1" + path, opts);
    const data = await resp.json();
    if (!resp.ok) throw new Error((data.error || resp.status) + ": " + (data.message || ""));
    return data;
  }

  function flash(msg, bad) {
    const box = el("p", { class: bad ? "flash error" : "flash", role: "status" }, msg);
    document.body.append(box);
    setTimeout(() => box.remove(), 4000);
  }

  // -- why a hit matched: the query's words found in it (prefix match, 3+ letters) --------------
  function words(text) { return (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || []); }
  const STOP = new Set(["the", "and", "for", "are", "was", "with", "where", "what", "when", "who", "how", "why", "which",
    "does", "did", "this", "that", "from", "into", "our", "you", "your", "its", "has", "have"]);
  function highlight(text, query) {
    const terms = words(query).filter((w) => w.length >= 3 && !STOP.has(w)).map((w) => w.slice(0, Math.max(3, w.length - 2)));
    const matched = new Set();
    const out = el("span", {});
    for (const part of text.split(/([\p{L}\p{N}_]+)/u)) {
      const low = part.toLowerCase();
      const hit = terms.find((t) => low.startsWith(t));
      if (hit && part) { matched.add(low); out.append(el("mark", {}, part)); } else out.append(part);
    }
    return [out, Array.from(matched)];
  }

  // -- search ----------------------------------------------------------------------------------
  async function search(query) {
    const box = $("#hits");
    box.hidden = false;
    box.replaceChildren(el("p", {}, "Recalling…"));
    const project = $('#filters [name="project"]').value || "*";
    try {
      const res = await api("POST", "/recall", { query, project, limit: 20, token_budget: 0 });
      const items = res.hits.map((h, i) => {
        const [text, matched] = highlight(h.text, query);
        return el("li", { class: "mem hit", tabindex: "0", "data-id": h.id },
          el("div", { class: "meta" }, el("b", {}, "#" + (i + 1)), el("span", { class: "score" }, "score " + h.score.toFixed(2)),
            el("span", { class: "proj" }, h.project || "global"), el("time", {}, (h.created_at || "").slice(0, 16))),
          el("div", { class: "text" }, text),
          el("div", { class: "why" }, matched.length ? "matched: " + matched.join(", ") : "matched by meaning / stems"));
      });
      box.replaceChildren(el("h2", {}, res.hits.length + " hit" + (res.hits.length === 1 ? "" : "s") + " for “" + query + "”"),
        res.hits.length ? el("ol", { class: "mems" }, items) : el("p", { class: "empty" }, "Nothing relevant remembered."));
    } catch (err) { box.replaceChildren(el("p", { class: "error" }, err.message)); }
  }

  // -- detail, history diff, edit, forget ---------------------------------------------------------
  function diff(a, b) {  // word-level LCS diff; fine for memory-sized texts
    const x = a.split(/(\s+)/), y = b.split(/(\s+)/);
    if (x.length * y.length > 4e6) return [el("del", {}, a), el("ins", {}, b)];
    const n = x.length, m = y.length, t = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--)
      t[i][j] = x[i] === y[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
    const out = [];
    let i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && x[i] === y[j]) { out.push(x[i]); i++; j++; }
      else if (j < m && (i >= n || t[i][j + 1] >= t[i + 1][j])) out.push(el("ins", {}, y[j++]));
      else out.push(el("del", {}, x[i++]));
    }
    return out;
  }

  async function openDetail(id) {
    const aside = $("#detail");
    aside.hidden = false;
    aside.replaceChildren(el("p", {}, "Loading…"));
    try {
      const [rec, hist] = await Promise.all([api("GET", "/memories/" + encodeURIComponent(id)),
        api("GET", "/memories/" + encodeURIComponent(id) + "/history")]);
      const versions = hist.history.map((v, k) => el("li", {}, el("time", {}, v.created_at.slice(0, 19)), " ",
        v.change || (k ? "" : "first"), el("div", { class: "diff" }, k ? diff(hist.history[k - 1].text, v.text) : v.text)));
      const editor = el("textarea", { id: "edittext", rows: "6", "aria-label": "new text" }, rec.text);
      const current = !rec.valid_until;
      aside.replaceChildren(
        el("button", { class: "close", "aria-label": "close", onclick: closeDetail }, "×"),
        el("h2", {}, rec.id), el("p", { class: "meta" }, (rec.project || "global") + " · " + rec.created_at.slice(0, 19) +
          (rec.kind ? " · " + rec.kind : "") + (rec.tags ? " · " + rec.tags.join(", ") : "")),
        current ? editor : el("p", { class: "text" }, rec.text),
        el("div", { class: "actions" },
          current ? el("button", { id: "save", onclick: () => save(rec.id, editor.value) }, "Save (supersede)") : null,
          el("button", { id: "forget", class: "danger", onclick: () => forget(rec.id) }, "Forget")),
        el("h3", {}, "History (" + hist.history.length + ")"), el("ol", { class: "history" }, versions));
      if (current) editor.focus();
    } catch (err) { aside.replaceChildren(el("p", { class: "error" }, err.message)); }
  }
  function closeDetail() { $("#detail").hidden = true; }

  async function save(id, text) {
    try {
      const res = await api("POST", "/memories/" + encodeURIComponent(id) + "/supersede", { text });
      flash("Saved as " + res.id);
      refreshRow(id, res.id, text);
      openDetail(res.id);
    } catch (err) { flash(err.message, true); }
  }

  async function forget(id) {
    if (!window.confirm("Forget " + id + "? This deletes it for good.")) return;
    try {
      await api("DELETE", "/memories/" + encodeURIComponent(id));
      $$('[data-id="' + CSS.escape(id) + '"]').forEach((n) => n.remove());
      closeDetail();
      flash("Forgot " + id);
    } catch (err) { flash(err.message, true); }
  }

  function refreshRow(oldId, newId, text) {
    for (const row of $$('[data-id="' + CSS.escape(oldId) + '"]')) {
      row.dataset.id = newId;
      $(".text", row).textContent = text;
    }
  }

  // -- bulk forget: preview count first (dry run), then confirm ----------------------------------
  let bulkBody = null;
  async function bulkPreview(ev) {
    ev.preventDefault();
    const f = new FormData($("#bulkform"));
    const body = { dry_run: true };
    for (const k of ["project", "tag", "before"]) if (f.get(k)) body[k] = f.get(k);
    try {
      const res = await api("POST", "/forget", body);
      $("#bulkpreview").textContent = "Would forget " + res.would_forget + " memor" + (res.would_forget === 1 ? "y" : "ies") +
        (body.project ? " in " + body.project : "") + ".";
      bulkBody = res.would_forget ? body : null;
      $("#bulkgo").hidden = !bulkBody;
    } catch (err) { $("#bulkpreview").textContent = err.message; }
  }
  async function bulkGo() {
    if (!bulkBody || !window.confirm($("#bulkpreview").textContent + " Forget them for good?")) return;
    try {
      const res = await api("POST", "/forget", Object.assign({}, bulkBody, { dry_run: false }));
      $("#bulkpreview").textContent = "Forgot " + res.forgotten + ".";
      $("#bulkgo").hidden = true;
    } catch (err) { $("#bulkpreview").textContent = err.message; }
  }

  // -- review: low-confidence captures (accept / edit / forget), injected-never-used, duplicates --
  function row(m, ...extra) {
    return el("li", { class: "mem", tabindex: "0", "data-id": m.id }, el("div", { class: "meta" },
      el("time", {}, m.created_at.slice(0, 16)), el("span", { class: "proj" }, m.project || "global"), ...extra),
      el("div", { class: "text" }, m.text));
  }
  function reviewRow(m, queue) {
    const li = row(m, queue === "low" ? el("span", { class: "conf" }, "conf " + m.confidence.toFixed(2)) : null,
      queue === "never" ? el("span", { class: "conf" }, "injected " + m.injected + "×, never used") : null);
    li.classList.add("review");
    li.dataset.queue = queue;
    if (queue === "low" && m.source) li.append(el("div", { class: "why" }, "from: " + m.source.slice(0, 300)));
    li.append(el("div", { class: "actions" },
      queue === "low" ? el("button", { class: "accept", title: "a", onclick: (ev) => { ev.stopPropagation(); reviewAct(li, "accept"); } }, "Accept") : null,
      queue === "low" ? el("button", { class: "edit", title: "e", onclick: (ev) => { ev.stopPropagation(); reviewEdit(li); } }, "Edit") : null,
      el("button", { class: "danger forget", title: "x", onclick: (ev) => { ev.stopPropagation(); reviewAct(li, "forget"); } }, "Forget")));
    return li;
  }
  function nextRow(li) {  // keep the keyboard where it was: focus the following row (or the one before)
    const rows = $$("#reviewbody .review");
    const at = rows.indexOf(li);
    return rows[at + 1] || rows[at - 1] || null;
  }
  async function reviewAct(li, action, text) {
    const id = li.dataset.id, low = li.dataset.queue === "low";
    if (action === "forget" && !window.confirm("Forget " + id + "? This deletes it for good.")) return;
    try {
      const path = "/review/" + encodeURIComponent(id) + "/";
      let res;
      if (action === "accept") res = await api("POST", path + "accept");
      else if (action === "edit") res = await api("POST", path + "edit", { text });
      else res = low ? await api("POST", path + "reject") : await api("DELETE", "/memories/" + encodeURIComponent(id));
      const next = nextRow(li);
      li.remove();
      $$('#timeline [data-id="' + CSS.escape(id) + '"]').forEach((n) => (action === "edit" ? refreshRow(id, res.id, text) : action === "forget" && n.remove()));
      for (const h of $$("#reviewbody h3[data-queue]")) h.textContent = h.dataset.label + " (" + $$('#reviewbody .review[data-queue="' + h.dataset.queue + '"]').length + ")";
      if (next) next.focus();
      flash(action === "accept" ? "Accepted " + id : action === "edit" ? "Saved as " + res.id : "Forgot " + id);
    } catch (err) { flash(err.message, true); }
  }
  function reviewEdit(li) {
    if ($("textarea", li)) { $("textarea", li).focus(); return; }
    const box = el("textarea", { rows: "3", class: "reviewtext", "aria-label": "corrected text" }, $(".text", li).textContent);
    const save = () => reviewAct(li, "edit", box.value);
    box.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); save(); }
      else if (ev.key === "Escape") { ev.stopPropagation(); form.remove(); li.focus(); }
    });
    const form = el("div", { class: "inline-edit" }, box, el("button", { class: "save", onclick: (ev) => { ev.stopPropagation(); save(); } }, "Save (Ctrl+Enter)"));
    form.addEventListener("click", (ev) => ev.stopPropagation());
    li.append(form);
    box.focus();
  }
  function queueHead(queue, label, n) { return el("h3", { "data-queue": queue, "data-label": label }, label + " (" + n + ")"); }
  async function loadReview() {
    const box = $("#reviewbody");
    try {
      const res = await api("GET", "/review?project=" + encodeURIComponent($('#filters [name="project"]').value || "*"));
      box.replaceChildren(
        el("p", { class: "count" }, "keys on a row: a accept · e edit · x forget · Enter open"),
        queueHead("low", "Low-confidence captures", res.low_confidence.length),
        el("ul", { class: "mems" }, res.low_confidence.map((m) => reviewRow(m, "low"))),
        queueHead("never", "Injected, never used", res.never_used.length),
        el("ul", { class: "mems" }, res.never_used.map((m) => reviewRow(m, "never"))),
        el("h3", {}, "Duplicate clusters (" + res.duplicate_clusters.length + ")"),
        ...res.duplicate_clusters.map((g) => el("ul", { class: "mems cluster" }, g.map((m) => row(m)))),
        el("h3", {}, "Seen once, oldest first (" + res.seen_once.length + ")"), el("ul", { class: "mems" }, res.seen_once.map((m) => row(m))),
        el("p", { class: "count" }, "scanned " + res.scanned + " current memories"));
    } catch (err) { box.replaceChildren(el("p", { class: "error" }, err.message)); }
  }

  function showTab(name) {
    for (const b of $$(".tabs button")) b.classList.toggle("on", b.dataset.tab === name);
    for (const s of $$(".tab")) s.hidden = s.id !== name;
    if (name === "review") loadReview();
  }

  // -- wiring and keys ------------------------------------------------------------------------------
  $("#search").addEventListener("submit", (ev) => { ev.preventDefault(); const q = $("#q").value.trim(); if (q) search(q); });
  $("#bulkform").addEventListener("submit", bulkPreview);
  $("#bulkgo").addEventListener("click", bulkGo);
  for (const b of $$(".tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));
  document.addEventListener("click", (ev) => {
    const mem = ev.target.closest(".mem");
    if (mem && !ev.target.closest("#detail")) openDetail(mem.dataset.id);
  });
  document.addEventListener("keydown", (ev) => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
    if (ev.key === "Escape") { closeDetail(); if (typing) document.activeElement.blur(); return; }
    if (typing) return;
    const rows = $$(".mem").filter((r) => r.offsetParent !== null);
    const at = rows.indexOf(document.activeElement);
    if (ev.key === "/") { ev.preventDefault(); $("#q").focus(); }
    else if (ev.key === "j" && rows.length) rows[Math.min(rows.length - 1, at + 1)].focus();
    else if (ev.key === "k" && rows.length) rows[Math.max(0, at - 1)].focus();
    else if (ev.key === "Enter" && at >= 0) openDetail(rows[at].dataset.id);
    else if (at >= 0 && rows[at].classList.contains("review") && "aex".includes(ev.key)) {
      ev.preventDefault();
      const li = rows[at], low = li.dataset.queue === "low";
      if (ev.key === "a" && low) reviewAct(li, "accept");
      else if (ev.key === "e" && low) reviewEdit(li);
      else if (ev.key === "x") reviewAct(li, "forget");
    }
    else if (ev.key === "e" && at >= 0) openDetail(rows[at].dataset.id);
  });
})();
