"""How large a file grove reads: a module of its own, as listing an edition folder needs the
limit (a file beyond it is counted by its size, not read, grove/compiler/universe.py) on every command,
without the YAML reader that the rest of grove/compiler/yaml_source.py brings in.

The largest shipped card file (a deck) has 20 KB and a forest file of eight full forests about
30 KB. Reading YAML with positions costs about a second per 200 KB of dense data, and checking a
forest more, so the limits leave 25 and 4 times the largest real file and keep a hostile one
within a few seconds (a 5 MB forest took 73 s).
"""

MAX_CARD_FILE_BYTES = 512 * 1024
MAX_FOREST_FILE_BYTES = 128 * 1024
