"""On PYTHONPATH, makes `import fcntl` fail as it does on Windows: cardkit must still run
(issue 21: `cardkit confirm` exited 70 on Windows for a module-level `import fcntl`)."""

import sys

sys.modules["fcntl"] = None  # type: ignore[assignment]
