/*
 * <ask-article article="mooncake" api-base="https://api.example">: the "Ask about this article" box.
 *
 * One plain JavaScript file, no build step, no dependencies. A custom element with a shadow root, so
 * the page's CSS and the widget's never meet; themed through CSS custom properties (--ask-*).
 *
 * It POSTs {question, article, history, stream: true} to `${api-base}/v1/ask` and reads the Server-Sent
 * Events (meta, delta…, calculation, done, error) from a fetch() stream (EventSource cannot POST).
 * Each question carries `X-Client: widget` and `X-Session`: a random id per conversation, kept in this
 * tab's sessionStorage (a reload continues it, "New conversation" replaces it). The service's question
 * log stores only a salted hash of it, to count one conversation's questions together; nothing else
 * about the reader is sent.
 *
 * Safety: everything that comes from the network or the reader (answer Markdown, citations, snippets,
 * the question) becomes DOM through createElement/createTextNode only — a small Markdown renderer with
 * a whitelist of elements (p, strong, em, code, pre, ul/ol/li, a with an http(s) href). No innerHTML,
 * no attribute names from data, no inline handlers: nothing in an answer can execute.
 *
 * Events (bubbling, composed) for the host page: ask-start, ask-delta, ask-answer, ask-error, ask-feedback.
 */
(() => {
  "use strict";
  if (!window.customElements || customElements.get("ask-article")) return;

  // The API defaults to the origin that served this script, so <script src="https://api…/widget.js"> just works.
  const SCRIPT_ORIGIN = (() => {
    try { return new URL(document.currentScript.src).origin; } catch (_) { return ""; }
  })();
  const HISTORY_MAX_TURNS = 6;
  const TURN_MAX_CHARS = 4000;
  const QUESTION_MAX_CHARS = 2000;
  let nextId = 0;
  const uid = (prefix) => `${prefix}-${++nextId}`;
  const SESSION_KEY = "ask-article:session:";

  /** 128 random bits as hex (getRandomValues works on plain-http pages too, unlike randomUUID). */
  function randomId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // ------------------------------------------------------------------------------ styles ----

  const LIGHT = `
    --_fg: var(--ask-fg, #1d2025); --_bg: var(--ask-bg, #ffffff); --_surface: var(--ask-surface, #f3f4f6);
    --_muted: var(--ask-muted, #5a6170); --_border: var(--ask-border, #d5d9e0); --_accent: var(--ask-accent, #1f5fd1);
    --_accent-fg: var(--ask-accent-fg, #ffffff); --_link: var(--ask-link, #1a56c4); --_focus: var(--ask-focus, #f0a500);
    --_warning-bg: var(--ask-warning-bg, #fff6dd); --_warning-fg: var(--ask-warning-fg, #6b4a00);
    --_danger: var(--ask-danger, #b3261e); --_tip-bg: var(--ask-tooltip-bg, #20242b); --_tip-fg: var(--ask-tooltip-fg, #f5f6f8);`;
  const DARK = `
    --_fg: var(--ask-fg, #e5e7eb); --_bg: var(--ask-bg, #1a1d22); --_surface: var(--ask-surface, #252a31);
    --_muted: var(--ask-muted, #a2a9b5); --_border: var(--ask-border, #3a404a); --_accent: var(--ask-accent, #7aa7ff);
    --_accent-fg: var(--ask-accent-fg, #0d1420); --_link: var(--ask-link, #8ab4ff); --_focus: var(--ask-focus, #ffc94d);
    --_warning-bg: var(--ask-warning-bg, #3a3016); --_warning-fg: var(--ask-warning-fg, #ffdf8f);
    --_danger: var(--ask-danger, #ff8a80); --_tip-bg: var(--ask-tooltip-bg, #f1f3f6); --_tip-fg: var(--ask-tooltip-fg, #1d2025);`;

  const STYLE = `
    :host { all: initial; display: block; ${LIGHT}
      font: 15px/1.55 var(--ask-font, system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif);
      color: var(--_fg); --_radius: var(--ask-radius, 10px); }
    :host([theme="dark"]) { ${DARK} }
    @media (prefers-color-scheme: dark) { :host(:not([theme="light"])) { ${DARK} } }
    :host([hidden]) { display: none; }
    *, *::before, *::after { box-sizing: border-box; }
    .box { background: var(--_bg); color: var(--_fg); border: 1px solid var(--_border); border-radius: var(--_radius);
      padding: 14px; max-width: 100%; overflow-wrap: anywhere; }
    .sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
      clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
    a { color: var(--_link); }
    a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid var(--_focus); outline-offset: 2px; }
    button { font: inherit; cursor: pointer; border-radius: 8px; min-height: 40px; }
    button:disabled, button[aria-disabled="true"] { cursor: default; opacity: .55; }
    .log { list-style: none; margin: 0; padding: 0; }
    .log:empty { display: none; }
    .turn { margin: 0 0 16px; }
    .question { margin: 0 0 8px auto; width: fit-content; max-width: 90%; background: var(--_surface);
      border-radius: 12px 12px 2px 12px; padding: 6px 12px; white-space: pre-wrap; }
    .answer { position: relative; }
    .body p, .body ul, .body ol, .body pre { margin: 0 0 .6em; }
    .body ul, .body ol { padding-left: 1.3em; }
    .body code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .92em; background: var(--_surface);
      border-radius: 4px; padding: 0 .25em; }
    .body pre { background: var(--_surface); padding: 8px; border-radius: 6px; overflow-x: auto; }
    .body pre code { padding: 0; }
    .scope, .not-covered-title { display: inline-block; margin: 0 0 8px; font-size: .82em; font-weight: 600;
      padding: 2px 8px; border-radius: 999px; border: 1px solid var(--_border); color: var(--_muted); }
    .not-covered { border-left: 4px solid var(--_muted); padding-left: 10px; }
    .not-covered .not-covered-title { color: var(--_fg); font-size: .9em; }
    .loading { color: var(--_muted); display: flex; align-items: center; gap: 8px; margin: 0 0 8px; }
    .spinner { width: 14px; height: 14px; border-radius: 50%; border: 2px solid var(--_border);
      border-top-color: var(--_accent); animation: spin .8s linear infinite; flex: none; }
    @keyframes spin { to { transform: rotate(360deg); } }
    @media (prefers-reduced-motion: reduce) { .spinner { animation: none; } }
    .cite { white-space: nowrap; }
    .cite-link { font-size: .78em; vertical-align: super; line-height: 0; text-decoration: none; font-weight: 600;
      padding: 0 1px; }
    .cite-link:hover, .cite-link:focus { text-decoration: underline; }
    .tip { display: none; position: absolute; left: 0; right: 0; z-index: 10; max-width: 30rem; white-space: normal;
      background: var(--_tip-bg); color: var(--_tip-fg); border-radius: 8px; padding: 8px 10px; font-size: .86em;
      line-height: 1.45; box-shadow: 0 6px 20px rgba(0,0,0,.25); }
    .tip strong { display: block; margin-bottom: 2px; }
    .tip .where { display: block; margin-top: 4px; font-style: italic; opacity: .85; }
    .cite:hover .tip, .cite:focus-within .tip { display: block; }
    .cite.dismissed .tip { display: none; }
    .sources { margin: 4px 0 0; padding: 8px 0 0 1.6em; border-top: 1px solid var(--_border); font-size: .88em; }
    .sources li { margin: 2px 0; }
    .tag { font-size: .85em; color: var(--_muted); margin-left: 4px; font-style: italic; }
    .calc { margin: 10px 0 4px; overflow-x: auto; }
    .calc table { border-collapse: collapse; width: 100%; font-size: .88em; overflow-wrap: break-word; }
    .calc th[scope="row"] { width: 36%; font-weight: 600; }
    .calc caption { text-align: left; font-weight: 600; padding: 0 0 4px; }
    .calc th, .calc td { border: 1px solid var(--_border); padding: 3px 8px; text-align: left; vertical-align: top; }
    .calc tbody th[colspan] { background: var(--_surface); font-size: .82em; text-transform: uppercase; letter-spacing: .04em;
      color: var(--_muted); }
    .calc td.num { font-variant-numeric: tabular-nums; white-space: nowrap; }
    .calc tr.primary td, .calc tr.primary th { font-weight: 700; }
    .calc tr.warning td { background: var(--_warning-bg); color: var(--_warning-fg); }
    .calc .step-n { display: inline-block; min-width: 1.6em; color: var(--_muted); font-variant-numeric: tabular-nums; }
    .calc tr.warning .step-n { color: inherit; }
    .error { color: var(--_danger); margin: 0 0 8px; }
    .error button { margin-left: 8px; background: var(--_surface); color: var(--_fg); border: 1px solid var(--_border);
      padding: 0 14px; min-height: 36px; }
    .feedback { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-top: 8px; font-size: .88em;
      color: var(--_muted); }
    .feedback button { display: inline-flex; align-items: center; gap: 4px; background: transparent; color: var(--_fg);
      border: 1px solid var(--_border); padding: 2px 10px; min-height: 32px; font-size: 1em; }
    .feedback button[aria-pressed="true"] { background: var(--_accent); color: var(--_accent-fg); border-color: var(--_accent); opacity: 1; }
    .feedback svg { width: 16px; height: 16px; fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round;
      stroke-linejoin: round; }
    form { margin: 0; }
    label { display: block; font-weight: 600; margin-bottom: 6px; }
    .row { display: flex; gap: 8px; }
    input { flex: 1; min-width: 0; font: inherit; font-size: 16px; color: var(--_fg); background: var(--_bg);
      border: 1px solid var(--_border); border-radius: 8px; padding: 8px 10px; min-height: 42px; }
    input::placeholder { color: var(--_muted); opacity: 1; }
    .ask { background: var(--_accent); color: var(--_accent-fg); border: 1px solid var(--_accent); padding: 0 16px; font-weight: 600; }
    .bar { display: flex; justify-content: space-between; align-items: center; gap: 8px; margin-top: 6px;
      font-size: .82em; color: var(--_muted); }
    .reset { background: transparent; color: var(--_link); border: 0; padding: 0 4px; min-height: 32px; text-decoration: underline;
      white-space: nowrap; flex: none; }
    .reset[hidden] { display: none; }
  `;

  const THUMBS = {
    up: "M14 9V5a3 3 0 0 0-3-3l-4 9v11h11.28a2 2 0 0 0 2-1.7l1.38-9a2 2 0 0 0-2-2.3zM7 22H4a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2h3",
    down: "M10 15v4a3 3 0 0 0 3 3l4-9V2H5.72a2 2 0 0 0-2 1.7l-1.38 9a2 2 0 0 0 2 2.3zm7-13h2.67A2.31 2.31 0 0 1 22 4v7a2.31 2.31 0 0 1-2.33 2H17",
  };

  // ---------------------------------------------------------------------- DOM, safely ----

  /** el("p", {class: "x"}, "text", child…): attribute names are ours; values and text are inert strings. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === false || value === null || value === undefined) continue;
      node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function icon(path) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    const p = document.createElementNS(ns, "path");
    p.setAttribute("d", path);
    svg.append(p);
    return svg;
  }

  /** Only absolute http(s) URLs become links; anything else (javascript:, data:, relative) stays text. */
  function safeUrl(raw) {
    try {
      const url = new URL(String(raw));
      return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
    } catch (_) {
      return null;
    }
  }

  // ----------------------------------------------------------------- Markdown, safely ----

  const INLINE = new RegExp([
    "(`+)([^`]|[^`][\\s\\S]*?[^`])\\1(?!`)",               // 1,2 code span
    "\\[([^\\[\\]\\n]+)\\]\\(([^()\\s]+)\\)",                // 3,4 link
    "(?<![^\\s.,;:!?)])((?:\\[\\d{1,3}(?:\\s*,\\s*\\d{1,3})*\\])+)",  // 5 citation markers: service/answer/markers.py MARKER_SOURCE
    "\\*\\*(?=\\S)([\\s\\S]*?\\S)\\*\\*",                     // 6 strong
    "\\*(?=[^\\s*])([\\s\\S]*?[^\\s*])\\*",                   // 7 em
  ].join("|"), "g");

  /** Inline Markdown → an array of nodes. `cite(n)` makes a citation marker's node (or null). */
  function inline(text, cite, depth = 0) {
    const out = [];
    let last = 0;
    const re = new RegExp(INLINE.source, "g");
    for (let m; (m = re.exec(text)) !== null;) {
      if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
      last = re.lastIndex;
      if (m[2] !== undefined) {
        out.push(el("code", null, m[2]));
      } else if (m[3] !== undefined) {
        const href = safeUrl(m[4]);
        const label = depth < 2 ? inline(m[3], null, depth + 1) : [m[3]];
        out.push(href ? el("a", { href, target: "_blank", rel: "noopener noreferrer" }, label) : el("span", null, label));
      } else if (m[5] !== undefined) {
        const numbers = m[5].match(/\d+/g).map(Number);  // "[1][2]" and "[1, 2]" alike
        const nodes = cite ? numbers.map((n) => cite(n)) : [];
        if (nodes.length && nodes.every(Boolean)) out.push(...nodes);
        else out.push(document.createTextNode(m[0]));
      } else if (m[6] !== undefined) {
        out.push(el("strong", null, depth < 3 ? inline(m[6], cite, depth + 1) : m[6]));
      } else if (m[7] !== undefined) {
        out.push(el("em", null, depth < 3 ? inline(m[7], cite, depth + 1) : m[7]));
      }
    }
    if (last < text.length) out.push(document.createTextNode(text.slice(last)));
    return out;
  }

  /** Block Markdown → a DocumentFragment: paragraphs, bullet/numbered lists, fenced code. Nothing else. */
  function renderMarkdown(text, cite) {
    const fragment = document.createDocumentFragment();
    const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
    let para = [], list = null, item = null;
    const flushPara = () => {
      if (para.length) fragment.append(el("p", null, inline(para.join(" "), cite)));
      para = [];
    };
    const flushList = () => {
      if (item !== null) list.node.append(el("li", null, inline(item.join(" "), cite)));
      if (list) fragment.append(list.node);
      list = null; item = null;
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (/^\s*```/.test(line)) {
        flushPara(); flushList();
        const code = [];
        for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) code.push(lines[i]);
        fragment.append(el("pre", null, el("code", null, code.join("\n"))));
        continue;
      }
      const bullet = /^\s{0,3}([-*+]|\d{1,3}[.)])\s+(.*)$/.exec(line);
      if (bullet) {
        flushPara();
        const kind = /\d/.test(bullet[1]) ? "ol" : "ul";
        if (list && list.kind !== kind) flushList();
        if (!list) list = { kind, node: el(kind) };
        if (item !== null) list.node.append(el("li", null, inline(item.join(" "), cite)));
        item = [bullet[2]];
        continue;
      }
      if (!line.trim()) { flushPara(); flushList(); continue; }
      if (list && /^\s+\S/.test(line)) { item.push(line.trim()); continue; }  // a list item's continuation
      flushList();
      para.push(line.replace(/^\s{0,3}#{1,6}\s+/, "").trim());
    }
    flushPara(); flushList();
    return fragment;
  }

  const ACRONYMS = { kv: "KV", gpu: "GPU", gpus: "GPUs", tp: "TP", pp: "PP", dp: "DP", ep: "EP", mfu: "MFU", flops: "FLOPs" };

  /** "tokens_per_s_per_sequence" → "tokens/s per sequence", "kv_cache_bytes" → "KV cache", "min_gpus" → "min GPUs". */
  function humanize(name) {
    return String(name).replace(/_per_s(?=_|$)/g, "/s").replace(/_(bytes|s)(?=_|$)/g, "")
      .split("_").map((w) => ACRONYMS[w] || w).join(" ");
  }

  // --------------------------------------------------------------------- SSE over fetch ----

  /** Yield [event, data] from a text/event-stream body, the way EventSource parses it. */
  async function* readEvents(body) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = "", event = "message", data = [];
    try {
      for (;;) {
        const { value, done } = await reader.read();
        buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
        let at;
        while ((at = buffer.search(/\r\n|\r|\n/)) >= 0) {
          if (buffer[at] === "\r" && at === buffer.length - 1 && !done) break;  // maybe half of a \r\n
          const line = buffer.slice(0, at);
          buffer = buffer.slice(at + (buffer.startsWith("\r\n", at) ? 2 : 1));
          if (line === "") {
            if (data.length) yield [event, data.join("\n")];
            event = "message"; data = [];
          } else if (!line.startsWith(":")) {
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            let value = colon < 0 ? "" : line.slice(colon + 1);
            if (value.startsWith(" ")) value = value.slice(1);
            if (field === "event") event = value;
            else if (field === "data") data.push(value);
          }
        }
        if (done) {
          if (data.length) yield [event, data.join("\n")];
          return;
        }
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  class RequestFailed extends Error {
    constructor(message, retryable) { super(message); this.retryable = retryable; }
  }

  async function failureOf(response) {
    let message = "";
    try { message = (await response.json()).error.message; } catch (_) { /* not our JSON */ }
    const status = response.status;
    if (status === 429) {
      const wait = response.headers.get("retry-after");
      return new RequestFailed(`Too many questions at once — please wait${wait ? ` ${wait} s` : " a moment"} and retry.`, true);
    }
    if (status >= 500) return new RequestFailed("The assistant is unavailable right now. Please try again.", true);
    if (status === 404) return new RequestFailed(message || "This article isn't known to the assistant.", false);
    return new RequestFailed(message ? `That question can't be asked: ${message}` : `The request failed (${status}).`, false);
  }

  // ------------------------------------------------------------------------- the element ----

  class AskArticle extends HTMLElement {
    static get observedAttributes() { return ["article", "placeholder"]; }

    constructor() {
      super();
      this.history = [];   // [{role, content}], oldest first; sent with every question
      this.busy = false;
      this.controller = null;
      const root = this.attachShadow({ mode: "open" });
      const ids = { input: uid("ask-q"), hint: uid("ask-hint") };
      this.els = {};
      const e = this.els;
      e.status = el("div", { class: "sr-only", role: "status", "aria-live": "polite", "aria-atomic": "true" });
      e.log = el("ol", { class: "log", role: "log", "aria-live": "polite", "aria-label": "Questions and answers" });
      e.label = el("label", { for: ids.input });
      e.input = el("input", { id: ids.input, type: "text", name: "question", autocomplete: "off", enterkeyhint: "send",
        maxlength: QUESTION_MAX_CHARS, "aria-describedby": ids.hint, spellcheck: "true" });
      e.submit = el("button", { type: "submit", class: "ask" }, "Ask");
      e.hint = el("span", { id: ids.hint }, "Answers come from this site’s articles, with sources.");
      e.reset = el("button", { type: "button", class: "reset", hidden: true }, "New conversation");
      e.form = el("form", { novalidate: true }, e.label, el("div", { class: "row" }, e.input, e.submit),
        el("div", { class: "bar" }, e.hint, e.reset));
      const style = el("style", null, STYLE);
      root.append(style, el("div", { class: "box", part: "box" }, e.log, e.form, e.status));
      e.form.addEventListener("submit", (event) => { event.preventDefault(); this.submit(); });
      e.reset.addEventListener("click", () => this.reset());
      this.syncLabels();
    }

    connectedCallback() { this.syncLabels(); }

    disconnectedCallback() {
      queueMicrotask(() => { if (!this.isConnected) this.abort(); });  // moved within the page: keep streaming
    }

    attributeChangedCallback(name, before, after) {
      if (name === "article" && before !== null && before !== after) this.reset({ silent: true });
      this.syncLabels();
    }

    get article() { return this.getAttribute("article") || null; }

    /** This conversation's id: from sessionStorage (per article), made on first use. */
    get session() {
      if (this.sessionId) return this.sessionId;
      const key = SESSION_KEY + (this.article || "site");
      try { this.sessionId = sessionStorage.getItem(key) || ""; } catch (_) { this.sessionId = ""; }
      if (!/^[0-9a-f]{32}$/.test(this.sessionId)) this.newSession();
      return this.sessionId;
    }

    newSession() {
      this.sessionId = randomId();
      try { sessionStorage.setItem(SESSION_KEY + (this.article || "site"), this.sessionId); } catch (_) { /* private mode: memory only */ }
    }

    get apiBase() {
      return (this.getAttribute("api-base") || SCRIPT_ORIGIN || location.origin).replace(/\/+$/, "");
    }

    syncLabels() {
      const e = this.els;
      e.label.textContent = this.article ? "Ask a question about this article" : "Ask a question";
      e.input.placeholder = this.getAttribute("placeholder") || "Your question";
    }

    /** Put a message in the polite status region (re-set so a repeated message is read again). */
    announce(text) {
      this.els.status.textContent = "";
      setTimeout(() => { this.els.status.textContent = text; }, 30);
    }

    emit(name, detail) {
      this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
    }

    abort() {
      if (this.controller) this.controller.abort();
      this.controller = null;
    }

    reset({ silent = false } = {}) {
      this.abort();
      this.history = [];
      this.newSession();  // a new conversation
      this.setBusy(false);
      this.els.log.replaceChildren();
      this.els.reset.hidden = true;
      if (!silent) {
        this.announce("Conversation cleared.");
        this.els.input.focus();
      }
    }

    setBusy(busy) {
      this.busy = busy;  // aria-disabled, not disabled: a focused Ask button keeps the focus while it waits
      this.els.submit.setAttribute("aria-disabled", busy ? "true" : "false");
    }

    submit() {
      const question = this.els.input.value.trim();
      if (this.busy) { this.announce("Still answering the last question…"); return; }
      if (!question) { this.announce("Type a question first."); this.els.input.focus(); return; }
      this.els.input.value = "";
      this.els.log.querySelectorAll(".retry").forEach((button) => button.remove());  // the conversation moved on
      const turn = this.addTurn(question);
      this.run(turn, this.history.slice());
    }

    addTurn(question) {
      const answer = el("div", { class: "answer", "aria-busy": "true" });
      const node = el("li", { class: "turn" },
        el("p", { class: "question" }, el("span", { class: "sr-only" }, "You asked: "), question), answer);
      this.els.log.append(node);
      this.els.reset.hidden = false;
      return { question, node, answer };
    }

    /** Ask, stream the answer into `turn`; `history` is the conversation before this question. */
    async run(turn, history) {
      this.abort();
      const controller = new AbortController();
      this.controller = controller;
      this.setBusy(true);
      const state = { meta: null, text: "", calculation: null, done: null, citations: new Map() };
      turn.state = state;
      this.showLoading(turn);
      this.announce("Answering…");
      this.emit("ask-start", { question: turn.question, article: this.article });
      try {
        const response = await fetch(`${this.apiBase}/v1/ask`, {
          method: "POST", mode: "cors", credentials: "omit", signal: controller.signal,
          headers: { "content-type": "application/json", accept: "text/event-stream",
            "x-client": "widget", "x-session": this.session },
          body: JSON.stringify({ question: turn.question, article: this.article, history, stream: true }),
        });
        if (!response.ok) throw await failureOf(response);
        if (!(response.headers.get("content-type") || "").includes("text/event-stream")) {
          this.onDone(turn, await response.json(), history);  // a proxy that buffered the stream into JSON
        } else {
          for await (const [name, raw] of readEvents(response.body)) {
            let data;
            try { data = JSON.parse(raw); } catch (_) { continue; }
            if (name === "meta") this.onMeta(turn, data);
            else if (name === "delta") this.onDelta(turn, data);
            else if (name === "calculation") this.onCalculation(turn, data);
            else if (name === "done") this.onDone(turn, data, history);
            else if (name === "error") throw new RequestFailed(data.message || "The answer could not be completed.", true);
          }
          if (!state.done) throw new RequestFailed("The answer was cut off.", true);
        }
      } catch (error) {
        if (controller.signal.aborted) return;  // reset, or replaced by a newer question
        const failed = error instanceof RequestFailed ? error
          : new RequestFailed("Couldn’t reach the assistant. Check your connection and try again.", true);
        this.onError(turn, failed, history);
      } finally {
        if (this.controller === controller) {
          this.controller = null;
          this.setBusy(false);
        }
      }
    }

    showLoading(turn) {
      turn.answer.className = "answer";
      turn.answer.setAttribute("aria-busy", "true");
      turn.body = el("div", { class: "body" });
      turn.answer.replaceChildren(
        el("p", { class: "loading" }, el("span", { class: "spinner", "aria-hidden": "true" }), "Looking through the site…"),
        turn.body);
    }

    onMeta(turn, meta) {
      const state = turn.state;
      state.meta = meta;
      state.citations = new Map((meta.citations || []).map((c) => [c.n, c]));
      const answer = turn.answer;
      answer.replaceChildren();
      if (meta.route === "no_answer") {
        answer.classList.add("not-covered");
        answer.append(el("p", { class: "not-covered-title" },
          this.article ? "Not covered in this article" : "Not covered on this site"));
      } else if (meta.scope === "site" && this.article) {
        answer.append(el("p", { class: "scope" }, "From elsewhere on the site"));
      }
      answer.append(turn.body);
    }

    onDelta(turn, delta) {
      turn.state.text += String(delta.text || "");
      this.renderBody(turn, turn.state.text);
      this.emit("ask-delta", { text: String(delta.text || ""), answer: turn.state.text });
    }

    onCalculation(turn, calculation) {
      if (turn.state.calculation) return;
      turn.state.calculation = calculation;
      turn.answer.append(this.renderCalculation(calculation));
    }

    onDone(turn, done, history) {
      const state = turn.state;
      if (!state.meta) this.onMeta(turn, done);
      state.done = done;
      state.citations = new Map((done.citations || []).map((c) => [c.n, c]));
      this.renderBody(turn, done.answer || "");
      if (done.calculation) this.onCalculation(turn, done.calculation);
      if (done.citations && done.citations.length) turn.answer.append(this.renderSources(done.citations));
      if (done.answer_id) turn.answer.append(this.renderFeedback(done.answer_id));
      turn.answer.setAttribute("aria-busy", "false");
      this.history = history.concat(
        { role: "user", content: turn.question.slice(0, TURN_MAX_CHARS) },
        { role: "assistant", content: String(done.answer || "").slice(0, TURN_MAX_CHARS) },
      ).slice(-HISTORY_MAX_TURNS);
      this.announce(done.route === "no_answer" ? "Not covered: see the closest sections." : "Answer ready.");
      this.emit("ask-answer", { response: done });
    }

    onError(turn, failure, history) {
      const retry = failure.retryable ? el("button", { type: "button", class: "retry" }, "Retry") : null;
      turn.answer.className = "answer";
      turn.answer.setAttribute("aria-busy", "false");
      turn.answer.replaceChildren(el("p", { class: "error", role: "alert" }, failure.message, retry));
      this.emit("ask-error", { message: failure.message, retryable: failure.retryable });
      if (retry) {
        retry.addEventListener("click", () => { if (!this.busy) this.run(turn, history); });
        retry.focus();
      } else {
        this.els.input.value = turn.question;
        this.els.input.focus();
      }
    }

    renderBody(turn, text) {
      turn.body.replaceChildren(renderMarkdown(text, (n) => this.citationMarker(turn, n)));
    }

    /** `[n]` → a link to the cited section, with its snippet in a tooltip on hover and focus. */
    citationMarker(turn, n) {
      const c = turn.state.citations.get(n);
      const href = c && safeUrl(c.url);
      if (!href) return null;
      const tipId = uid("ask-tip");
      const elsewhere = this.article && c.doc_id !== this.article;
      const heading = [c.title, c.section].filter(Boolean).join(" › ");
      const tip = el("span", { class: "tip", role: "tooltip", id: tipId },
        el("strong", null, heading), c.snippet || "", elsewhere ? el("span", { class: "where" }, "From elsewhere on the site") : null);
      const sameArticle = this.article && c.doc_id === this.article && c.kind === "article";
      const link = el("a", { class: "cite-link", href, "aria-describedby": tipId,
        "aria-label": `Source ${n}: ${heading}`, ...(sameArticle ? {} : { target: "_blank", rel: "noopener noreferrer" }) }, `[${n}]`);
      const wrap = el("span", { class: "cite" }, link, tip);
      const place = () => {
        wrap.classList.remove("dismissed");
        const box = turn.answer.getBoundingClientRect();
        const at = link.getBoundingClientRect();
        const line = parseFloat(getComputedStyle(turn.body).lineHeight) || 24;  // below the marker's line
        tip.style.top = `${Math.round(Math.max(at.bottom, at.top + line * 0.9) - box.top + 2)}px`;
      };
      wrap.addEventListener("mouseenter", place);
      link.addEventListener("focus", place);
      link.addEventListener("keydown", (event) => { if (event.key === "Escape") wrap.classList.add("dismissed"); });
      if (sameArticle) link.addEventListener("click", (event) => this.jumpToSection(event, c.anchor));
      return wrap;
    }

    /** On the article's own page, a citation of this article scrolls to the section instead of reloading. */
    jumpToSection(event, anchor) {
      const target = anchor && document.getElementById(anchor);
      if (!target || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      history.pushState(null, "", `#${encodeURIComponent(anchor)}`);
      target.scrollIntoView({ behavior: "smooth", block: "start" });
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: true });
    }

    renderSources(citations) {
      const list = el("ol", { class: "sources", "aria-label": "Sources" });
      for (const c of citations) {
        const href = safeUrl(c.url);
        const heading = [c.title, c.section].filter(Boolean).join(" › ");
        const elsewhere = this.article && c.doc_id !== this.article;
        list.append(el("li", { value: c.n },
          href ? el("a", { href, target: "_blank", rel: "noopener noreferrer" }, heading) : heading,
          elsewhere ? el("span", { class: "tag" }, "elsewhere on the site") : null));
      }
      return list;
    }

    /** The worked calculation as one compact table: result, inputs, steps, assumptions, warnings. */
    renderCalculation(calc) {
      const text = (v) => (typeof v === "number" ? v.toLocaleString("en-US") : typeof v === "object" && v !== null
        ? JSON.stringify(v) : String(v));
      const words = humanize;
      const group = (title) => el("tr", null, el("th", { colspan: 2, scope: "colgroup" }, title));
      const body = [];
      const primary = calc.primary || {};
      const result = [el("tr", { class: "primary" }, el("th", { scope: "row" }, words(primary.name || "result")),
        el("td", { class: "num" }, text(primary.display ?? primary.value)))];
      for (const q of calc.quantities || []) {
        if (q.name === primary.name) continue;
        result.push(el("tr", null, el("th", { scope: "row" }, words(q.name)), el("td", { class: "num" }, text(q.display ?? q.value))));
      }
      body.push(el("tbody", null, group("Result"), result));
      const inputs = Object.entries(calc.inputs || {});
      if (inputs.length) {
        body.push(el("tbody", null, group("Inputs"), inputs.map(([k, v]) =>
          el("tr", null, el("th", { scope: "row" }, words(k)), el("td", null, text(v))))));
      }
      const listGroup = (title, items, cls) => items && items.length ? el("tbody", null, group(title), items.map((s, i) =>
        el("tr", { class: cls || null }, el("td", { colspan: 2 },
          el("span", { class: "step-n", "aria-hidden": "true" }, cls === "warning" ? "⚠" : `${i + 1}.`),
          String(s))))) : null;
      body.push(listGroup("Steps", calc.steps), listGroup("Assumptions", calc.assumptions),
        listGroup("Warnings", calc.warnings, "warning"));
      return el("div", { class: "calc" }, el("table", null,
        el("caption", null, `Worked calculation: ${words(calc.calculator || "")}`), body));
    }

    renderFeedback(answerId) {
      const note = el("span", { class: "note", "aria-live": "polite" });
      const button = (rating, label) => el("button", { type: "button", "aria-pressed": "false", "data-rating": rating },
        icon(THUMBS[rating]), label);
      const up = button("up", "Yes");
      const down = button("down", "No");
      const group = el("div", { class: "feedback", role: "group", "aria-label": "Was this answer helpful?" },
        el("span", { "aria-hidden": "true" }, "Helpful?"), up, down, note);
      for (const b of [up, down]) {
        b.setAttribute("aria-label", b === up ? "Helpful" : "Not helpful");
        b.addEventListener("click", () => this.sendFeedback(answerId, b.dataset.rating, b, [up, down], note));
      }
      return group;
    }

    async sendFeedback(answerId, rating, button, buttons, note) {
      // aria-disabled rather than disabled: the focused button keeps the keyboard focus.
      if (buttons.some((b) => b.getAttribute("aria-disabled") === "true")) return;
      buttons.forEach((b) => b.setAttribute("aria-disabled", "true"));
      try {
        const response = await fetch(`${this.apiBase}/v1/feedback`, {
          method: "POST", mode: "cors", credentials: "omit",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ answer_id: answerId, rating, source: "widget" }),
        });
        if (!response.ok) throw new Error(String(response.status));
        button.setAttribute("aria-pressed", "true");
        note.textContent = "Thanks for the feedback.";
        this.emit("ask-feedback", { answer_id: answerId, rating });
      } catch (_) {
        buttons.forEach((b) => b.removeAttribute("aria-disabled"));
        note.textContent = "Couldn’t send that — please try again.";
      }
    }
  }

  customElements.define("ask-article", AskArticle);
})();
