"""`grove lsp`: a language server for card files and forest files (see docs/editors.md).

`server` wires pygls to the modules below; `documents` maps an open file to its edition and
checks it with the editor's text as `grove lint` would; `text` finds where the cursor stands;
`completion`, `hover`, `names`, `navigation` and `actions` answer one kind of request each.
"""
