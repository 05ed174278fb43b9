// The lobby: make a game through the HTTP API (POST /api/games) and list this server's games.
// Every check of what is asked is the server's; the page shows its message.

const $ = (id) => document.getElementById(id);
let editions = [];

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

const AIS = ["human", "easy", "medium", "hard", "random", "greedy"];

function seatRow(n, kind) {
  const list = el("datalist", {id: `ais-${n}`}, ...AIS.map((a) => el("option", {value: a})));
  return el("div", {class: "seat"},
    el("span", {text: `${n}.`}),
    el("label", {}, "Player ", el("input", {class: "kind", list: `ais-${n}`, value: kind, size: 10,
                                            "aria-label": `seat ${n}: human or an AI`})),
    el("label", {}, "Name ", el("input", {class: "name", size: 14, maxlength: 40, placeholder: "(optional)"})),
    list);
}

function addSeat(kind) {
  const seats = $("seats");
  const n = seats.querySelectorAll(".seat").length;
  if (n < 5) seats.append(seatRow(n + 1, kind));
}

async function loadEditions() {
  const res = await fetch("/api/editions");
  editions = (await res.json()).editions;
  const sel = $("edition");
  sel.replaceChildren(...editions.filter((e) => e.standalone).map((e) =>
    el("option", {value: e.id, text: e.names.en || e.id})));
  sel.addEventListener("change", showExpansions);
  showExpansions();
}

function showExpansions() {
  const e = editions.find((x) => x.id === $("edition").value);
  const box = $("expansions");
  box.replaceChildren(el("legend", {text: "Expansions"}));
  for (const id of (e ? e.combines_with : [])) {
    const x = editions.find((y) => y.id === id);
    box.append(el("label", {}, el("input", {type: "checkbox", value: id}), ` ${x ? x.names.en || id : id}`));
  }
  box.hidden = !(e && e.combines_with.length);
}

function linkItem(label, path) {
  const url = new URL(path, location.href).href;
  return el("li", {}, `${label}: `, el("a", {href: url, text: url}));
}

async function create(ev) {
  ev.preventDefault();
  $("error").textContent = "";
  const seed = $("seed").value.trim();
  const body = {
    edition: $("edition").value,
    with: [...$("expansions").querySelectorAll("input:checked")].map((i) => i.value),
    lang: $("lang").value,
    seed: seed === "" ? null : Number(seed),
    seats: [...$("seats").querySelectorAll(".seat")].map((row) => {
      const kind = row.querySelector(".kind").value.trim();
      const name = row.querySelector(".name").value.trim();
      return name ? {kind, name} : {kind};
    }),
  };
  const res = await fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
                                         body: JSON.stringify(body)});
  const out = await res.json();
  if (!res.ok) { $("error").textContent = out.error; return; }
  const links = $("links");
  links.replaceChildren();
  out.links.seats.forEach((path, k) => { if (path) links.append(linkItem(out.seats[k].name, path)); });
  links.append(linkItem("Spectators", out.links.spectator));
  $("made").hidden = false;
  listGames();
}

async function listGames() {
  const res = await fetch("/api/games");
  const games = (await res.json()).games;
  $("games").querySelector("tbody").replaceChildren(...games.map((g) => {
    const links = g.links ? [...g.links.seats.map((p, k) => p ? el("a", {href: p, text: g.seats[k].name}) : null),
                             el("a", {href: g.links.spectator, text: "watch"})].filter((x) => x) : [];
    const cell = el("td");
    links.forEach((a, k) => { if (k) cell.append(" · "); cell.append(a); });
    return el("tr", {}, el("td", {text: g.id}), el("td", {text: [g.edition, ...g.with].join(" + ")}),
              el("td", {text: g.seats.map((s) => `${s.name} (${s.kind})`).join(", ")}),
              el("td", {text: g.state}), el("td", {text: String(g.turn)}), cell);
  }));
}

$("create").addEventListener("submit", create);
$("add-seat").addEventListener("click", () => addSeat("hard"));
$("drop-seat").addEventListener("click", () => {
  const rows = $("seats").querySelectorAll(".seat");
  if (rows.length > 2) rows[rows.length - 1].remove();
});
addSeat("human");
addSeat("medium");
loadEditions();
listGames();
setInterval(listGames, 5000);
