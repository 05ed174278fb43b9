"""Print-and-play cards (`grove print`): every physical card of a deck laid out from the card
data, as a PDF to cut, a PNG per card, or Tabletop Simulator deck sheets (docs/print.md)."""
