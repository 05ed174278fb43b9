// The browser table of one seat. It draws what the server sends (the seat's table, worded in
// the seat's language) and sends back what the person picks; it holds no rule of the game: the
// server says at each step what may be chosen (the steps of a play, whether a play is settled,
// which cards may pay), and checks every answer again.

const token = document.body.dataset.token;
const $ = (id) => document.getElementById(id);
let socket = null;
let table = null;        // the last table the server sent
let faces = [];          // face -> its words (`loadWords`)
let facesKey = null;     // ... of this card set and language
let shownForest = null;  // whose forest the left panel shows
let picking = null;      // the person's way through the current decision (see `startPicking`)
let retry = 500;         // ms before reconnecting; doubled up to 8 s
const drawnFrom = new Map();  // a part of the page -> what it was last drawn from (`unchanged`)

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function w(key) { return (table && table.words[key]) || key; }

// Whether a part of the page was last drawn from these very inputs: a step of a decision
// changes the question and the places lit, not the clearing, the scores or the log, and a
// table sent again after a reconnection changes nothing; a part drawn again would be laid out
// and painted again, its images and the scroll of its list with it.
function unchanged(part, inputs) {
  const key = JSON.stringify([table.lang, table.faces_key, inputs]);
  if (drawnFrom.get(part) === key) return true;
  drawnFrom.set(part, key);
  return false;
}

// ---- the connection -------------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${token}`);
  socket.addEventListener("open", () => { retry = 500; $("status").classList.remove("lost"); });
  socket.addEventListener("message", (ev) => receive(JSON.parse(ev.data)));
  socket.addEventListener("close", () => {
    $("status").classList.add("lost");
    $("status").textContent = w("web.reconnecting");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function send(msg) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
}

function receive(msg) {
  if (msg.type === "table") {
    const fresh = !table || table.state !== msg.state || !!table.decision !== !!msg.decision;
    table = msg;
    loadWords(msg.faces_key);
    if (fresh) picking = msg.decision ? startPicking(msg.decision) : null;
    draw();
  } else if (msg.type === "rehearsed") {
    settled(msg);
  } else if (msg.type === "hint") {
    if (picking) { picking.hint = msg.lines; drawAsk(); }
  } else if (msg.type === "error") {
    if (picking) { picking.error = msg.message; picking.busy = false; drawAsk(); }
    else $("status").textContent = msg.message;
  }
}

// ---- cards ------------------------------------------------------------------------------------
// every face's words, read once per card set and language: a table names faces, not their words
function loadWords(key) {
  if (facesKey === key) return;
  facesKey = key;
  fetch(`/faces/${key}/words.json`).then((r) => r.ok ? r.json() : [])
    .then((words) => { if (facesKey === key) faces = words; })
    .catch(() => { facesKey = null; });
}

function faceUrl(face) {
  return `/faces/${table.faces_key}/${face === null || face === undefined ? "back" : face}.png`;
}

function cardBox(card, cls = "") {
  const box = el("figure", {class: `card ${cls}`, tabindex: card.face !== null ? 0 : null,
                            "data-face": card.face});
  box.append(el("img", {src: faceUrl(card.face), alt: card.name,}));
  box.append(el("figcaption", {text: card.name}));
  if (card.face !== null && card.face !== undefined) {
    box.addEventListener("mouseenter", () => tip(box, card.face));
    box.addEventListener("focus", () => tip(box, card.face));
    box.addEventListener("mouseleave", () => tip(null));
    box.addEventListener("blur", () => tip(null));
    box.addEventListener("click", (ev) => { ev.stopPropagation(); tip(box, card.face, true); });
  }
  return box;
}

function tip(box, face, toggle = false) {
  const t = $("card-tip");
  if (!box || (toggle && !t.hidden && t.dataset.face === String(face))) { t.hidden = true; return; }
  const f = faces[face];
  if (!f) return;
  t.replaceChildren(el("h3", {text: f.title}));
  for (const p of f.parts) {
    if (f.parts.length > 1) t.append(el("h4", {text: p.name}));
    const facts = [p.host, p.cost !== null ? `${p.cost}` : null, ...p.types,
                   p.tree ? `‹${p.tree}›` : null].filter((x) => x);
    if (facts.length) t.append(el("p", {class: "facts", text: facts.join(" · ")}));
    for (const [label, text] of p.fields) t.append(el("p", {}, el("b", {text: label ? `${label}: ` : ""}), text));
  }
  t.dataset.face = String(face);
  t.hidden = false;
  const r = box.getBoundingClientRect();
  const width = Math.min(340, window.innerWidth - 16);
  t.style.width = `${width}px`;
  t.style.left = `${Math.max(8, Math.min(r.left, window.innerWidth - width - 8))}px`;
  const below = r.bottom + 8 + t.offsetHeight < window.innerHeight;
  t.style.top = `${below ? r.bottom + 8 + window.scrollY : Math.max(8, r.top - t.offsetHeight - 8) + window.scrollY}px`;
}
document.addEventListener("click", () => tip(null));

// ---- the table --------------------------------------------------------------------------------
function draw() {
  if (!table) return;
  document.documentElement.lang = table.lang;
  document.body.dataset.state = table.state;  // the table shown: what a test or a script reads
  $("title").textContent = table.title;
  const who = table.decision ? w("web.your_turn")
    : table.final ? w("web.over")
    : table.waiting ? `${w("web.waiting_for")} ${table.waiting}` : "";
  $("status").textContent = [table.table_line, who].filter((x) => x).join(" · ");
  $("status").classList.remove("lost");
  if (shownForest === null || shownForest >= table.forests.length) {
    shownForest = table.seat >= 0 ? table.seat : table.current;
  }
  drawTabs();
  drawForest();
  drawRow("clearing", w("clearing"), table.clearing);
  if (table.seat >= 0) drawRow("hand", w("hand"), table.hand);
  else if (!unchanged("hand", "spectator")) $("hand").replaceChildren(el("h2", {text: w("web.spectator")}));
  drawScores();
  drawLog();
  drawAsk();
}

function drawTabs() {
  if (unchanged("tabs", [table.players, shownForest, table.current, table.over])) return;
  $("tabs").replaceChildren(...table.players.map((p, j) => el("button", {
    class: j === shownForest ? "tab on" : "tab", role: "tab",
    "aria-selected": j === shownForest ? "true" : "false",
    onclick: () => { shownForest = j; drawTabs(); drawForest(); },
  }, `${p.name} · ${p.score}` + (j === table.current && !table.over ? " ◂" : ""))));
}

function drawForest() {
  const f = table.forests[shownForest];
  const p = table.players[shownForest];
  const lit = litPlaces();
  if (unchanged("forest", [f, p, [...lit]])) return;
  const head = el("h2", {text: `${f.name}: ${p.hand} ${w("hand")} · ${w("web.cave")} ${p.cave}` +
                         (p.cave_card ? ` (${p.cave_card})` : "")});
  const hosts = el("div", {class: "hosts"});
  for (const h of f.hosts) {
    const box = el("div", {class: "host", "data-host": h.index});
    const sides = {top: [], left: [], right: [], bottom: []};
    for (const s of h.slots) {
      const cards = s.cards.map((c) => cardBox(c, "small"));
      const free = s.cards.length < s.capacity;
      const mark = lit.get(`${h.index}:${s.slot}`);
      if (free || mark) {
        cards.push(el("div", {class: mark ? "slot lit" : "slot", title: s.name},
                          mark ? mark : `${s.name}${s.capacity > 1 ? ` ×${s.capacity - s.cards.length}` : ""}`));
      }
      (sides[s.side] || sides.bottom).push(...cards);
    }
    const centre = el("div", {class: "centre"}, cardBox(h.card, h.card.down ? "small down" : "small"),
                      ...h.beneath.map((b) => cardBox(b, "small beneath")));
    centre.append(el("span", {class: "index", text: `${h.index}`}));
    for (const side of ["top", "left", "right", "bottom"]) {
      box.append(el("div", {class: `side ${side}`}, ...sides[side]));
    }
    box.append(centre);
    hosts.append(box);
  }
  const fresh = lit.get("new");
  if (fresh) hosts.append(el("div", {class: "host new lit"}, fresh));
  if (!f.hosts.length && !fresh) hosts.append(el("p", {text: w("empty")}));
  $("forest").replaceChildren(head, hosts);
}

function litPlaces() {
  // the places of the card being placed, each with the points it would gain now
  const out = new Map();
  if (!picking || shownForest !== table.seat) return out;
  for (const s of picking.list()) {
    if (!s.place) continue;
    const key = s.place.host === null ? "new" : `${s.place.host}:${s.place.slot}`;
    const points = s.points === null || s.points === undefined ? "" : `${s.points > 0 ? "+" : ""}${s.points}`;
    out.set(key, points || "•");
  }
  return out;
}

function drawRow(id, title, cards) {
  if (unchanged(id, [title, cards, id === "clearing" ? [table.deck, table.winter, table.players.map((p) => [p.name, p.known])] : null])) return;
  const row = el("div", {class: "cards"});
  for (const c of cards) row.append(cardBox(c));
  const known = id === "hand" ? [] : table.players.filter((p) => p.known.length);
  const parts = [el("h2", {text: `${title} (${cards.length})`}), row];
  if (id === "clearing") {
    parts[0].textContent = `${title} (${cards.length}) · ${w("web.deck")} ${table.deck} · ${w("web.winter")} ${table.winter.drawn}/${table.winter.total}`;
    for (const p of known) {
      parts.push(el("p", {class: "known", text: `${p.name} · ${w("web.known")}:`}),
                 el("div", {class: "cards"}, ...p.known.map((c) => cardBox(c, "small"))));
    }
  }
  $(id).replaceChildren(...parts);
}

function drawScores() {
  const s = table.scores;
  if (unchanged("scores", s)) return;
  const t = el("table", {}, el("thead", {}, el("tr", {}, ...s.columns.map((c) => el("th", {text: c})))));
  const body = el("tbody");
  for (const r of s.rows) body.append(el("tr", {}, ...r.map((c, k) => el(k ? "td" : "th", {text: c}))));
  t.append(body);
  $("scores").replaceChildren(el("h2", {text: w("scores")}), el("div", {class: "scroll"}, t));
}

function drawLog() {
  if (unchanged("log", table.log)) return;
  const box = el("div", {class: "lines"}, ...table.log.map((line) => el("p", {text: line})));
  $("log").replaceChildren(el("h2", {text: w("log")}), box);
  box.scrollTop = box.scrollHeight;
}

// ---- deciding ---------------------------------------------------------------------------------
function startPicking(decision) {
  // lists: the lists opened, the first at the bottom; path: the labels picked on the way;
  // play: the play being settled, with `answers` (a river card); pay: a payment being made
  const p = {decision, lists: [decision.steps || []], path: [], play: null, answers: [],
             pay: decision.kind === "pay" ? decision.pay : null, picked: [], confirm: null,
             busy: false, error: null, hint: null, ask: decision.ask};
  p.list = () => p.lists[p.lists.length - 1];
  return p;
}

function drawAsk() {
  const box = $("ask");
  box.dataset.depth = picking ? picking.lists.length : 0;
  if (table.final) { drawFinal(box); return; }
  if (!picking) {
    const text = table.seat < 0 ? w("web.spectator") : table.waiting ? `${w("web.waiting_for")} ${table.waiting}` : w("waiting");
    box.replaceChildren(el("p", {class: "question", text}));
    return;
  }
  const p = picking;
  const parts = [el("p", {class: "question", text: [p.ask, ...p.path].join(" › ")})];
  if (p.error) parts.push(el("p", {class: "error", role: "alert", text: p.error}));
  if (p.confirm) {
    parts.push(el("p", {class: "confirming", text: p.confirm.label}),
               el("div", {class: "buttons"},
                  el("button", {class: "primary", disabled: p.busy, onclick: () => act([p.confirm.action, ...p.answers])}, w("web.confirm")),
                  el("button", {onclick: back}, w("web.back"))));
  } else if (p.pay) {
    parts.push(payPanel(p));
  } else {
    const list = el("ol", {class: "steps"});
    p.list().forEach((s, k) => {
      const points = s.points === null || s.points === undefined ? null
        : el("span", {class: "points", text: `${s.points > 0 ? "+" : ""}${s.points}`});
      list.append(el("li", {}, el("button", {class: "step", disabled: p.busy, onclick: () => pick(k)},
                                  el("span", {class: "label", text: s.label + (s.action ? "" : " …")}), points)));
    });
    parts.push(list);
    const buttons = el("div", {class: "buttons"});
    if (p.lists.length > 1 || p.play) buttons.append(el("button", {onclick: back}, w("web.back")));
    if (p.decision.kind === "turn") buttons.append(el("button", {onclick: () => { p.hint = [w("web.thinking")]; drawAsk(); send({type: "hint"}); }}, w("web.hint")));
    parts.push(buttons);
  }
  if (p.hint) parts.push(el("div", {class: "hint"}, ...p.hint.map((l) => el("p", {text: l}))));
  box.replaceChildren(...parts);
}

function pick(k) {
  const p = picking;
  const s = p.list()[k];
  p.error = null;
  if (!s.action) {
    p.lists.push(s.below); p.path.push(s.label);
  } else if (p.play) {          // a river card the play asks for
    p.answers.push(s.action); p.path.push(s.label);
    rehearse();
  } else if (s.settle) {        // a paid play: its river card and payment come first
    p.play = s; p.answers = []; p.path.push(s.label);
    rehearse();
  } else if (s.confirm) {       // a free play: confirmed as a paid one is
    p.confirm = s;
  } else {
    act([s.action]);
  }
  draw();
}

function rehearse() {
  picking.busy = true;
  send({type: "rehearse", actions: [picking.play.action, ...picking.answers], state: table.state});
}

function settled(msg) {
  const p = picking;
  if (!p) return;
  p.busy = false;
  if (msg.kind === "done") p.confirm = {label: p.path.join(" › "), action: p.play.action};
  else if (msg.kind === "pay") { p.pay = msg.pay; p.picked = []; p.ask = msg.ask; }
  else { p.lists.push(msg.steps); p.ask = msg.ask; }
  draw();
}

function back() {
  const p = picking;
  if (!p) return;
  p.error = null;
  if (p.confirm) {
    p.confirm = null;
    if (p.play) { p.play = null; p.answers = []; p.path.pop(); }
  } else if (p.pay && p.play) {  // a payment of a play not yet taken: back to the places
    p.pay = null; p.picked = []; p.ask = p.decision.ask;
    if (p.answers.length) { p.answers.pop(); p.path.pop(); rehearse(); return; }
    p.play = null; p.path.pop();
  } else if (p.play) {             // the river list: back to the places
    p.lists.pop(); p.play = null; p.answers = []; p.path.pop();
  } else if (p.lists.length > 1) {
    p.lists.pop(); p.path.pop();
  }
  draw();
}

function payPanel(p) {
  const pay = p.pay;
  const box = el("div", {class: "pay"}, el("p", {class: "pay-title", text: pay.title}));
  const list = el("ol", {class: "steps"});
  pay.cards.forEach((c) => {
    const on = p.picked.includes(c.action);
    list.append(el("li", {}, el("button", {class: on ? "step picked" : "step", "aria-pressed": on ? "true" : "false",
      onclick: () => {
        if (on) p.picked = p.picked.filter((a) => a !== c.action);
        else if (p.picked.length < pay.count) p.picked.push(c.action);
        drawAsk();
      }}, el("span", {class: "label", text: `${on ? "☑" : "☐"} ${c.details}`}))));
  });
  const every = p.picked.length > 0 && p.picked.every((a) => pay.cards.find((c) => c.action === a).shows);
  const note = !pay.bonus ? pay.notes.none : every ? pay.notes.yes : pay.notes.no;
  box.append(el("p", {class: "picked", text: `${p.picked.length} / ${pay.count} ${w("web.pay_picked")}`}),
             el("p", {class: "bonus", text: note}), list);
  const buttons = el("div", {class: "buttons"},
    el("button", {class: "primary", disabled: p.picked.length !== pay.count || p.busy,
                  onclick: () => act(p.play ? [p.play.action, ...p.answers, ...p.picked] : p.picked)}, w("web.confirm")));
  if (p.play) buttons.append(el("button", {onclick: back}, w("web.back")));
  box.append(buttons);
  return box;
}

function act(actions) {
  picking.busy = true;
  drawAsk();
  send({type: "act", actions, state: table.state});
}

function drawFinal(box) {
  const f = table.final;
  const parts = [el("h2", {text: f.title}), el("p", {class: "question", text: f.margin})];
  parts.push(el("div", {class: "final-cards"}, el("h3", {text: w("web.points_cards")}),
                ...f.cards.map((l) => el("p", {text: l}))));
  box.replaceChildren(...parts);
}

connect();
