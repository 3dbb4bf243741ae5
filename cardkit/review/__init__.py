"""`cardkit review`: a local page for closing gaps at the card, a face like the CLI.

The page (static/, plain JavaScript) talks to a small standard-library server
(server.py) that listens on the loopback address only. Every change goes through
`cardkit.confirm` (its transaction, locks, change check, history and undo); this
package only reads the repository (repository.py), draws the proxies (picture.py)
and guards each edit against what the page showed (edits.py). The core never imports it.
"""
