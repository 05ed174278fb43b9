"""A seat's table in words, for every screen a person plays on: `view.py` reads what the seat may
see into words and values, `steps.py` groups a decision's options into the steps a person
chooses in (the card, then where it goes with the points it would gain, then the payment,
rehearsed on a world of the seat's view), `picking.py` holds where a person stands among those
steps (and when a play is confirmed), `words.py` holds the `screen` catalogs in every
language. The terminal (grove/terminal/) and the browser table (grove/serve/) both lay these
out, so the two screens never disagree about a game; neither is imported here."""
