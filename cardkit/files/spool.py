"""Records kept in key order with bounded memory: an external merge sort.

A report sorted over the whole tree (diagnostics by path and line, inferred gaps by rule)
cannot be printed before the last file is seen. Instead of holding every record, a Spool
sorts each run of up to `run` records and writes it to a temporary file; reading merges
the runs. The order is stable: records with equal keys come out in the order they went
in, exactly as `sorted()` over the whole list would give them.
"""

from __future__ import annotations

import heapq
import pickle
import tempfile
from collections.abc import Callable, Iterator
from typing import IO, Any, Generic, TypeVar

T = TypeVar("T")

RUN = 20_000  # records held before a run is written out
_BATCH = 200  # records per pickle in a run file: the merge holds one batch of each run


class Spool(Generic[T]):
    def __init__(self, key: Callable[[T], Any], run: int | None = None) -> None:
        self.key = key
        self.run = run or RUN
        self.held: list[T] = []
        self.runs: list[IO[bytes]] = []
        self.count = 0

    def add(self, record: T) -> None:
        self.held.append(record)
        self.count += 1
        if len(self.held) >= self.run:
            self._spill()

    def __len__(self) -> int:
        return self.count

    def _spill(self) -> None:
        self.held.sort(key=self.key)
        file = tempfile.TemporaryFile(prefix="cardkit-spool-")  # noqa: SIM115  (kept open)
        for start in range(0, len(self.held), _BATCH):
            pickle.dump(self.held[start : start + _BATCH], file, pickle.HIGHEST_PROTOCOL)
        file.seek(0)
        self.runs.append(file)
        self.held = []

    def drain(self) -> Iterator[T]:
        """Every record in key order, once; run files are closed as they are used up."""
        self.held.sort(key=self.key)
        if not self.runs:
            yield from self.held
            return
        streams = [_read(file) for file in self.runs]
        yield from heapq.merge(*streams, iter(self.held), key=self.key)
        self.held = []
        self.runs = []

    def close(self) -> None:
        for file in self.runs:
            file.close()
        self.runs, self.held = [], []


def _read(file: IO[bytes]) -> Iterator[Any]:
    with file:
        while True:
            try:
                batch = pickle.load(file)
            except EOFError:
                return
            yield from batch
