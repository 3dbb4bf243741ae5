"""review: a local page for closing gaps at the card (cardkit/review/)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._app import PathsArg, app, default_paths
from cardkit.errors import UsageError


@app.command()
def review(
    paths: PathsArg = None,
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1 (0: any free one).")] = 0,
    by: Annotated[str | None, typer.Option(help="Who checks (remembered by the page).")] = None,
    no_open: Annotated[
        bool, typer.Option("--no-open", help="Print the address; do not open a browser.")
    ] = False,
) -> None:
    """Open a local page over the open gaps, card by card, to confirm or correct them.

    Each card is shown as `proof` draws it, its doubted fields outlined, its scan beside
    it when it names one; type the count (or the value) and press Enter. Every change is
    a `cardkit confirm` (same locks, history and --undo); a file changed on disk meanwhile
    is shown again, never overwritten. The server listens on 127.0.0.1 only and needs the
    token in the address it prints. Ctrl-C stops it.
    """
    from cardkit.review.repository import Repository
    from cardkit.review.server import Review, run

    if not 0 <= port <= 65535:
        raise UsageError(f"--port takes 0 to 65535, not {port}")
    targets = default_paths(paths)
    for target in targets:
        if not target.exists():
            raise UsageError(f"{target}: no such file or folder")
    review_state = Review(Repository(targets, Path.cwd()), by=by or "")
    try:
        run(review_state, port, not no_open)
    except KeyboardInterrupt:
        raise typer.Exit(0) from None
    except OSError as err:
        raise UsageError(f"cannot listen on 127.0.0.1:{port}: {err.strerror or err}") from None
