"""The build site: `cardkit build` over a repository and what it writes beside the
reports (the static HTML page and its thumbnails)."""
