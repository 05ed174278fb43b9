"""The browser table in real Chromium (Debian's, driven by Playwright), against `grove serve`
on the loopback address: whole games played by clicks, one browser context a seat; every
WebSocket message and the page at every decision hold no card the seat may not see; a late
table in German and Thai, at 1280x800 and 390x844, has no text box over another and nothing
off the screen. Skipped, with the reason, where Chromium or Playwright is missing."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from grove.compiler import cardset as cs
from grove.engine import record as rec
from grove.engine import runner
from grove.engine.game import Game
from grove.serve.faces import Faces
from tests.serve_helpers import CHROMIUM, call, play_seats, start

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).is_file() and not shutil.which("chromium"),
                                reason="no Chromium at /usr/bin/chromium: apt-get install "
                                       "chromium")

# one click towards an answer, as a person would: confirm, pay, or pick a line of the list
# (the line chosen by the table's state, so games vary); what it did, or "" when nothing asks
CLICK = r"""
() => {
  const ask = document.getElementById('ask');
  const state = Number(document.body.dataset.state || 0);
  const enabled = (b) => b && !b.disabled;
  const primary = ask.querySelector('button.primary');
  if (ask.querySelector('.confirming') && enabled(primary)) { primary.click(); return 'confirm'; }
  const pay = ask.querySelector('.pay');
  if (pay) {
    if (enabled(primary)) { primary.click(); return 'pay'; }
    const free = [...pay.querySelectorAll('button.step[aria-pressed="false"]')];
    if (free.length) { free[0].click(); return 'pick a card'; }
    return '';
  }
  const steps = [...ask.querySelectorAll('ol.steps button.step')].filter(enabled);
  if (!steps.length) return '';
  steps[(state * 7 + 3 + ask.dataset.depth * 5) % steps.length].click();
  return 'step';
}
"""

# the page's faces: every card image's face and every face named in an attribute
FACES = r"""
() => ({state: Number(document.body.dataset.state),
        faces: [...document.querySelectorAll('img')].map((i) => i.getAttribute('src'))
          .concat([...document.querySelectorAll('[data-face]')].map((e) => 'face:' + e.dataset.face))})
"""

# text boxes that overlap, and boxes that leave the screen sideways
LAYOUT = r"""
() => {
  const W = window.innerWidth, out = [];
  const boxes = [];
  const sel = 'figcaption, .label, .points, h2, h3, p, th, td, #status, #title, .tab, .slot, button';
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('#card-tip')) continue;
    if (el.querySelector(sel)) continue;  // the innermost boxes only
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) continue;
    let clip = {left: 0, top: 0, right: W, bottom: Infinity};
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (/(auto|scroll|hidden)/.test(s.overflow + s.overflowX + s.overflowY)) {
        const q = p.getBoundingClientRect();
        clip = {left: Math.max(clip.left, q.left), top: Math.max(clip.top, q.top),
                right: Math.min(clip.right, q.right), bottom: Math.min(clip.bottom, q.bottom)};
      }
    }
    const x = {left: Math.max(r.left, clip.left), top: Math.max(r.top, clip.top),
               right: Math.min(r.right, clip.right), bottom: Math.min(r.bottom, clip.bottom)};
    if (x.right - x.left < 1 || x.bottom - x.top < 1) continue;  // scrolled out of its box
    if (r.left < -0.5 || r.right > W + 0.5) out.push(['off the screen', el.textContent.slice(0, 40)]);
    boxes.push([x, el]);
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, p] = boxes[i], [b, q] = boxes[j];
    if (p.contains(q) || q.contains(p)) continue;
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 1 && h > 1) out.push(['overlap', p.textContent.slice(0, 40), q.textContent.slice(0, 40)]);
  }
  if (document.documentElement.scrollWidth > W + 1) out.push(['the page scrolls sideways', '']);
  return out;
}
"""


def _open(browser, url: str, size=(1280, 800)):
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    frames: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(
        json.loads(f if isinstance(f, str) else f.decode()))))
    page.goto(url)
    page.evaluate("() => document.querySelectorAll('img').forEach((i) => i.loading = 'eager')")
    return page, frames


# one look at a page, as `_play_by_clicks` takes it: whether the game is over; the faces shown
# where a decision is asked; then the clicks towards its answer, one after another while the
# page draws each one's next step at once, up to an answer sent, a step the server settles, or
# a click that changed nothing (the page waits for the server) (a click's page is drawn before
# `click()` returns: a person's clicks, with no round trip to the test between them)
LOOK = f"""
() => {{
  const faces = {FACES.strip()};
  const click = {CLICK.strip()};
  if (document.querySelector('.final-cards')) return {{over: true, shot: null, acted: false}};
  const asked = !!document.querySelector('#ask ol.steps, #ask .pay, #ask .confirming');
  const shot = asked ? faces() : null;
  const ask = document.getElementById('ask');
  let acted = false, did, before = ask.innerHTML;
  while ((did = click())) {{
    acted = true;
    if (ask.innerHTML === before) break;  // nothing changed: the page waits for the server
    before = ask.innerHTML;
    if (did === 'confirm' || did === 'pay' || did === 'step' && !document.querySelector(
        '#ask ol.steps button.step:not([disabled]), #ask .pay, #ask .confirming')) break;
  }}
  return {{over: false, shot, acted}};
}}
"""


# a step that opens a list, clicked: whether the question changed, and whether each part of the
# page a step does not change is still the very element it was (the forest is drawn again: it
# lights the places the list's cards may go)
PARTS = ("tabs", "clearing", "hand", "scores", "log")
OPEN_A_LIST = f"""
() => {{
  const parts = {list(PARTS)!r}.map((id) => document.getElementById(id).lastElementChild);
  const before = document.getElementById('ask').innerHTML;
  const step = [...document.querySelectorAll('#ask ol.steps button.step')]
    .find((b) => b.textContent.endsWith('…'));
  if (!step) return null;
  step.click();
  return {{asked: document.getElementById('ask').innerHTML !== before,
           kept: {list(PARTS)!r}.map((id, k) => document.getElementById(id).lastElementChild === parts[k])}};
}}
"""


def _play_by_clicks(url: str, pages: list, shots: list[list[dict]], limit: float = 600):
    """Click every page's answers until the game's end; each seat's page faces at every
    decision it was asked, in `shots`."""
    import time

    end = time.monotonic() + limit
    while time.monotonic() < end:
        looks = [page.evaluate(LOOK) for page in pages]
        if all(look["over"] for look in looks):
            return
        for k, look in enumerate(looks):
            if look["shot"] is not None:
                shots[k].append(look["shot"])
        if not any(look["acted"] for look in looks):
            pages[0].wait_for_timeout(20)
    raise AssertionError("the game did not end by clicks in time")


def _cards_named(node) -> list[tuple[int | None, int | None]]:
    """Every (card, face) a message names, wherever it stands."""
    if isinstance(node, dict):
        here = [(node["card"], node["face"])] if "card" in node and "face" in node else []
        return here + [x for v in node.values() for x in _cards_named(v)]
    if isinstance(node, list):
        return [x for v in node for x in _cards_named(v)]
    return []


def _face_of(src: str) -> int | None:
    """The face an image or attribute names (`/faces/KEY/12.png`, `face:12`); None: a back."""
    m = re.search(r"(?:/|face:)(\d+)(?:\.png)?$", src)
    return int(m.group(1)) if m else None


def _allowed_faces(record: Path, frames: list[dict], seat: int, shots: list[dict]) -> None:
    """Every card a seat's messages name, and every face its page shows, is one it may see at
    that table: the record played again to each message's (and page's) state, and the seat's
    `visible()` there."""
    r = rec.read(record)
    cset = cs.build(r.header["edition"], r.header["with"])
    faces = Faces(cset, frames[0]["lang"] if frames else "en")
    game = Game(cset, [p["name"] for p in r.header["players"]], int(r.header["seed"]))
    actions = [a["action"] for a in r.actions]
    done = 0
    checked = 0
    pages = [{"type": "page", **shot} for shot in shots]
    for msg in sorted([*frames, *pages], key=lambda m: m.get("state", -1)):
        if msg.get("type") not in ("table", "page"):
            continue
        while done < msg["state"]:
            game.apply(actions[done])
            done += 1
        view = game.seats[seat]
        visible = view.visible()
        ok_faces = {faces.of_card(c) for c in visible} | {None}
        if msg["type"] == "page":
            shown = {_face_of(src) for src in msg["faces"] if src}
            assert shown <= ok_faces, (msg["state"], shown - ok_faces)
            continue
        named = _cards_named(msg)
        for card, face in named:
            assert card is None or card in visible, (msg["state"], card)
            assert face in ok_faces, (msg["state"], face)
        checked += 1
    assert checked > 20


def test_two_people_play_a_whole_base_game_by_clicks(browser, tmp_path):
    server = start(tmp_path)
    try:
        status, game = call(server.url, "POST", "/api/games",
                            {"edition": "base", "seats": ["human", "human"], "seed": 4,
                             "lang": "en"})
        assert status == 201
        opened = [_open(browser, server.url + link) for link in game["links"]["seats"]]
        pages = [p for p, _ in opened]
        for page in pages:
            page.wait_for_selector("#ask ol.steps button, #ask p.question", timeout=30_000)
        opened_a_list = [look for look in (page.evaluate(OPEN_A_LIST) for page in pages) if look]
        assert opened_a_list == [{"asked": True, "kept": [True] * len(PARTS)}]
        shots: list[list[dict]] = [[], []]
        _play_by_clicks(server.url, pages, shots)
        assert pages[0].locator(".final-cards p").count() > 10
        for page in pages:
            page.context.close()
    finally:
        log = server.log()
    assert "Traceback" not in log
    record = tmp_path / f"{game['id']}.jsonl"
    cset = cs.build("base")
    _, problems = runner.replay(cset, rec.read(record))
    assert problems == []
    for seat, (_, frames) in enumerate(opened):
        assert len(shots[seat]) > 20  # the page was read at every decision
        _allowed_faces(record, frames, seat, shots[seat])


def test_three_seats_of_smoky_mountains_with_a_searching_ai(browser, tmp_path):
    server = start(tmp_path)
    try:
        status, game = call(server.url, "POST", "/api/games",
                            {"edition": "smoky_mountains", "lang": "th", "seed": 2,
                             "seats": ["human", "mcts:50", {"kind": "human", "lang": "de"}]})
        assert status == 201, game
        links = [link for link in game["links"]["seats"] if link]
        pages = [_open(browser, server.url + link)[0] for link in links]
        _play_by_clicks(server.url, pages, [[], []])
        assert pages[1].locator("html[lang=de]").count() == 1
        for page in pages:
            page.context.close()
    finally:
        log = server.log()
    assert "Traceback" not in log
    r = rec.read(tmp_path / f"{game['id']}.jsonl")
    _, problems = runner.replay(cs.build("smoky_mountains"), r)
    assert problems == [] and r.end is not None


@pytest.mark.parametrize("lang", ["de", "th"])
def test_a_late_table_fits_a_laptop_and_a_phone(browser, tmp_path, lang):
    server = start(tmp_path)
    try:
        status, game = call(server.url, "POST", "/api/games",
                            {"edition": "base", "with": ["alpine", "woodland_edge"],
                             "seats": ["human", "human", "human"], "seed": 9, "lang": lang})
        tokens = [link.rsplit("/", 1)[1] for link in game["links"]["seats"]]
        late = play_seats(server.url, tokens, until=150)
        assert not late["final"]
        for size in ((1280, 800), (390, 844)):
            page, _ = _open(browser, server.url + game["links"]["seats"][0], size)
            page.wait_for_selector("#ask ol.steps button, #ask p.question", timeout=30_000)
            page.wait_for_function("() => document.fonts.status === 'loaded' && "
                                   "[...document.images].every((i) => i.complete)",
                                   timeout=120_000)
            problems = page.evaluate(LAYOUT)
            if problems:  # a picture of the page for the person who reads the failure
                page.screenshot(path=str(tmp_path / f"late-{lang}-{size[0]}.png"),
                                full_page=True)
            assert problems == [], size
            page.context.close()
    finally:
        assert "Traceback" not in server.log()
