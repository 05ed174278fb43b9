"""Scenario tests as data: a prepared state, the actions taken, the exact state that follows.

A scenario file (`tests/scenarios/<name>.yaml`) names its edition once and then lists scenarios:

```yaml
edition: base
with: [alpine, woodland_edge]
scenarios:
  - name: the red fox draws one card per european hare
    forest:                         # Ana's forest (player 0), as in a forest file
      - tree: oak
        left: [hare1=european_hare, hare2=european_hare]
    hand: [fox=red_fox@left, birch]
    deck: [a=moss, b=beech]         # laid on top of the deck, the first drawn first
    actions: [play fox left 0.left, pay birch]
    expect:
      hand: [a, b]
      fired: [effect red_fox]
      next: 1 turn
```

A card is written `label=species@side#symbol`; every part but the species is optional (`#oak`
alone is any card one of whose halves shows `oak`, for bonus payments). The label, or the spec
itself when there is no label, stands for the card's number in actions and expectations; a card
that the scenario did not name shows as `?`. Lists of cards compare as multisets. `winter` (as in
`deck: [w=winter]`) is one of the winter cards; a winter card set aside shows in `zones: {winter: ...}`.

Keys of a scenario: `players` (default 2, or one more than `others`), `forest`, `others` (the
forests of players 1, 2, ...), `hand`, `hands` (of the other players), `clearing`, `cave`, `deck`,
`caves` (Dartmoor: the cave cards laid out for a draft that runs first), `turn_started` (the game
turn Ana's turn began, default the current one), `actions`, `expect`.
A forest entry holds its host (`tree: oak`, `river: creek`, `universal_river: true`; `river: true`
beside a tree for its river beneath) and that host's slots by id (`left`, `bottom_1`, ...); any
other key is refused, so a misspelt slot cannot leave a host empty unnoticed.
Keys of `expect`: `hand`, `cave`, `clearing`, `removed`, `zones` (any zone of `Game.zones()` by
name), `forest` (labels now anywhere in Ana's forest), `fired` (the effects, bonuses and
permanent effects that ran, in order, as `effect red_fox`), `next` (`<player> <decision kind>`,
or `over`), `options` (the exact legal actions now), `has_option` / `lacks_option`,
`extra_turns`, `score` (Ana's total now), `named` (zones by the names of `hand`, `cave`,
`clearing`, `removed` or `zones`, each compared on the cards the scenario named only: for zones
that also hold unnamed cards, such as `removed` or `deck`).

An item of `actions` may also be a checkpoint, `{check: {...}}`: the keys of `expect` checked at
that point of the actions (there `fired` is what ran so far, and neither it nor `next` is required),
for example the options of a choice before it is taken:
`actions: [play bat left 0.left, {check: {options: [choose a, choose b]}}, choose a]`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from grove.compiler import cardset as cs
from grove.engine.game import Game

SCENARIO_DIR = Path(__file__).parent / "scenarios"
NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eva"]
_RESERVED = {"play", "pay", "draw", "deck", "clearing", "free", "choose", "stop", "skip", "yes",
             "no", "cave", "river", "hand", "top", "bottom", "left", "right"}


class ScenarioError(AssertionError):
    """A scenario that cannot be set up or whose expectation does not hold, with its name."""


@dataclass(frozen=True)
class Scenario:
    file: str
    edition: str
    expansions: tuple[str, ...]
    data: Any

    @property
    def name(self) -> str:
        return str(self.data.get("name", "?"))

    @property
    def ident(self) -> str:
        return f"{Path(self.file).stem}: {self.name}"


def load_all(folder: Path = SCENARIO_DIR) -> list[Scenario]:
    out = []
    # libyaml where ruamel has it: every worker collects these files, in a sixth of the time
    # the pure-Python reader takes (a plain value with a colon in a flow is quoted for it)
    yaml = YAML(typ="safe")
    for path in sorted(folder.glob("*.yaml")):
        doc = yaml.load(path.read_text(encoding="utf-8"))
        for sc in doc.get("scenarios") or ():
            out.append(Scenario(str(path), doc["edition"], tuple(doc.get("with") or ()), sc))
    return out


@dataclass
class _Cards:
    """The cards a scenario named: label <-> card number."""

    game: Game
    by_label: dict[str, int] = field(default_factory=dict)
    label_of: dict[int, str] = field(default_factory=dict)

    def take(self, spec: str, where: str) -> int:
        label, _, rest = spec.partition("=") if "=" in spec else (spec, "", spec)
        if label in self.by_label:
            raise ScenarioError(f"{where}: the label {label!r} is used twice")
        if label in _RESERVED or label in self.game.cardset.hosts:
            raise ScenarioError(f"{where}: the label {label!r} is a word of the actions")
        card = _find(self.game, rest, set(self.label_of), where)
        self.by_label[label] = card
        self.label_of[card] = label
        return card

    def labels(self, cards) -> Counter:
        return Counter(self.label_of.get(c, "?") for c in cards)

    def action(self, text: str) -> str:
        return " ".join(str(self.by_label[t]) if t in self.by_label else t for t in text.split())

    def words(self, action: str) -> str:
        return " ".join(self.label_of.get(int(t), t) if t.isdigit() and int(t) in self.label_of
                        else t for t in action.split())


def _find(game: Game, spec: str, taken: set[int], where: str) -> int:
    """A card outside every forest matching `species@side#symbol`."""
    body, _, symbol = spec.partition("#")
    key, _, side = body.partition("@")
    species = None
    if key == "winter" and not side and not symbol and game.cardset.species_named(key) is None:
        free_winter = [c for c in sorted(game.winter_ids) if c in game.deck and c not in taken]
        if not free_winter:
            raise ScenarioError(f"{where}: no winter card is left in the deck")
        return free_winter[0]
    if key:
        sp = game.cardset.species_named(key)
        if sp is None:
            raise ScenarioError(f"{where}: no species {key!r} in this card set")
        species = sp.key
    free = set(game.deck) | set(game.clearing) | set(game.removed)
    for p in game.players:
        free |= set(p.hand) | set(p.cave)
    for cid, pc in enumerate(game.cards):
        if pc is None or cid in taken or cid not in free:
            continue
        for k, sd, sym in pc.halves:
            if ((species is None or k == species) and (not side or sd == side)
                    and (not symbol or sym == symbol)):
                return cid
    raise ScenarioError(f"{where}: no free card {spec!r} is left")


def _half(game: Game, card: int, side: str | None):
    for sp, sd, sym in game.halves(card):
        if sd == side:
            return sp, sym
    raise ScenarioError(f"card {card} has no {side or 'host'} half")


def _host_kind(game: Game, entry: dict, where: str):
    hosts = game.cardset.hosts
    # as in a forest file: `river: true` marks a tree's river beneath, `river: creek` is a host
    keys = [k for k in entry if k in hosts and not (k == "river" and entry[k] is True)]
    if len(keys) != 1:
        raise ScenarioError(f"{where}: a forest entry names one host kind, got {list(entry)}")
    kind = hosts[keys[0]]
    if entry.get("river") is True:
        kind = next((h for h in hosts.values()
                     if h.play == "with_tree" and h.from_kind == kind.from_kind), None)
        if kind is None:
            raise ScenarioError(f"{where}: this edition has no tree with a river beneath")
    return kind, entry[keys[0]]


def _build_forest(game: Game, cards: _Cards, i: int, forest: list, where: str) -> None:
    p = game.players[i]
    for hi, entry in enumerate(forest):
        at = f"{where} host {hi}"
        kind, spec = _host_kind(game, entry, at)
        unknown = sorted(set(entry) - {s.id for s in kind.slots} - set(game.cardset.hosts))
        if unknown:  # a misspelt slot would leave the host empty without a word
            slots = ", ".join(s.id for s in kind.slots)
            raise ScenarioError(f"{at}: a {kind.id} has no slot {', '.join(unknown)} "
                                f"(its slots: {slots})")
        if spec is True:  # face down: any card
            card = cards.take(f"{at}=", at)
            species, symbol = None, None
        else:
            card = cards.take(str(spec), at)
            species, symbol = _half(game, card, None)
        game.move_card(card, [])
        beneath = []
        if entry.get("river") is True:
            beneath = [cards.take(f"{at} river=", at)]
            game.move_card(beneath[0], [])
        p.forest.place_host(kind, species, symbol, number=card, beneath=beneath)
        for slot in kind.slots:
            specs = entry.get(slot.id) or []
            for k, spec in enumerate([specs] if isinstance(specs, str) else specs):
                text = spec if "@" in spec.partition("#")[0] else _with_side(spec, slot.side)
                c = cards.take(text, f"{at}.{slot.id}[{k}]")
                sp, sym = _half(game, c, slot.side)
                game.move_card(c, [])
                p.forest.place_card(hi, slot.id, sp, sym, number=c)


def _with_side(spec: str, side: str) -> str:
    body, hash_, symbol = spec.partition("#")
    return f"{body}@{side}{hash_}{symbol}"


def prepare(sc: Scenario) -> tuple[Game, _Cards]:
    d = sc.data
    cset = cs.build(sc.edition, sc.expansions)
    n = int(d.get("players", max(2, 1 + len(d.get("others") or ()))))
    game = Game(cset, NAMES[:n], int(d.get("seed", 1)))
    for p in game.players:  # empty hands and clearing: the scenario deals what it needs
        for c in list(p.hand):
            game.move_card(c, game.removed)
    for c in list(game.clearing):
        game.move_card(c, game.removed)
    cards = _Cards(game)
    _build_forest(game, cards, 0, d.get("forest") or [], "forest")
    for j, forest in enumerate(d.get("others") or (), 1):
        _build_forest(game, cards, j, forest, f"others[{j - 1}]")
    for spec in d.get("hand") or ():
        game.move_card(cards.take(spec, "hand"), game.players[0].hand)
    for j, hand in enumerate(d.get("hands") or (), 1):
        for spec in hand:
            game.move_card(cards.take(spec, f"hands[{j - 1}]"), game.players[j].hand)
    for spec in d.get("clearing") or ():
        game.move_card(cards.take(spec, "clearing"), game.clearing)
    for spec in d.get("cave") or ():
        game.move_card(cards.take(spec, "cave"), game.players[0].cave)
    top = [cards.take(spec, "deck") for spec in d.get("deck") or ()]
    for c in reversed(top):  # the deck's last card is its top
        game.move_card(c, game.deck)
    caves = [cset.species_named(k).key for k in d["caves"]] if "caves" in d else None
    game.restart_turn(0, caves=caves)
    if "turn_started" in d:
        game.players[0].turn_started = int(d["turn_started"])
    return game, cards


def run(sc: Scenario) -> tuple[Game, _Cards, list]:
    """Set the scenario up, take its actions, check its expectations; return what happened."""
    game, cards = prepare(sc)
    first = len(game.events)
    for n, text in enumerate(sc.data.get("actions") or ()):
        if isinstance(text, dict):  # a checkpoint: expectations before the next action
            check(sc, game, cards, game.events[first:], want=text.get("check") or {},
                  where=f" (checkpoint before action {n})")
            continue
        action = cards.action(str(text))
        if action not in game.legal_actions():
            legal = ", ".join(cards.words(a) for a in game.legal_actions())
            raise ScenarioError(f"{sc.ident}: action {n} {text!r} is not legal; legal: {legal}")
        game.apply(action)
    events = game.events[first:]
    check(sc, game, cards, events)
    return game, cards, events


def fired(game: Game, events) -> list[str]:
    return [f"{e.kind} {game.cardset.species[e.species].id}" for e in events
            if e.kind in ("effect", "bonus", "trigger")]


def check(sc: Scenario, game: Game, cards: _Cards, events, want: dict | None = None,
          where: str = "") -> None:
    """Hold the game to `expect`, or to `want` (a checkpoint's keys) when given."""
    if want is None:
        want = sc.data.get("expect") or {}
        missing = [k for k in ("fired", "next") if k not in want]
        if missing:  # a scenario says exactly which rules ran and what comes next
            raise ScenarioError(f"{sc.ident}: expect has no {' or '.join(missing)}")
    ana = game.players[0]
    zones = game.zones()
    problems = []

    def same(name: str, got: Counter, expected) -> None:
        exp = Counter(str(x) for x in expected)
        if got != exp:
            problems.append(f"{name}: got {sorted(got.elements())}, want {sorted(exp.elements())}")

    for key, zone in (("hand", ana.hand), ("cave", ana.cave), ("clearing", game.clearing),
                      ("removed", game.removed)):
        if key in want:
            same(key, cards.labels(zone), want[key])
    for name, expected in (want.get("zones") or {}).items():
        same(name, cards.labels(zones[name]), expected)
    own = {"hand": ana.hand, "cave": ana.cave, "clearing": game.clearing, "removed": game.removed}
    for name, expected in (want.get("named") or {}).items():
        zone = own[name] if name in own else zones[name]
        same(f"named {name}", Counter(x for x in cards.labels(zone).elements() if x != "?"),
             expected)
    if "forest" in want:
        same("forest", Counter(x for x in cards.labels(zones["forest:0"]).elements() if x != "?"
                               and not x.startswith("forest host")), want["forest"])
    if "fired" in want and fired(game, events) != [str(x) for x in want["fired"]]:
        problems.append(f"fired: got {fired(game, events)}, want {want['fired']}")
    if "next" in want:
        d = game.decision
        got = "over" if d is None else f"{d.player} {d.kind}"
        if got != str(want["next"]):
            problems.append(f"next: got {got!r}, want {want['next']!r}")
    legal = [cards.words(a) for a in game.legal_actions()]
    if "options" in want and sorted(legal) != sorted(str(x) for x in want["options"]):
        problems.append(f"options: got {legal}, want {want['options']}")
    for o in want.get("has_option") or ():
        if str(o) not in legal:
            problems.append(f"has_option: {o!r} not in {legal}")
    for o in want.get("lacks_option") or ():
        if str(o) in legal:
            problems.append(f"lacks_option: {o!r} is legal")
    if "extra_turns" in want and ana.extra_turns != int(want["extra_turns"]):
        problems.append(f"extra_turns: got {ana.extra_turns}, want {want['extra_turns']}")
    if "score" in want:
        from grove.engine.scoring import score

        total = score(game.views()[0], game.cardset).total
        if total != int(want["score"]):
            problems.append(f"score: got {total}, want {want['score']}")
    if problems:
        raise ScenarioError(f"{sc.ident}{where}:\n  " + "\n  ".join(problems))
