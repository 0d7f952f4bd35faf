"""One process per simulation: ``reverie/.lock`` holds the PID of the process running it.

The lock is an exclusive ``flock`` on that file, so the kernel drops it when its process
ends, however it ends: a lock left by a killed process is taken over at once, and two
processes can never both believe they hold it. A second process gets one line naming the
holder's PID. A clean exit removes the file; a process that locked a file removed meanwhile
locks the new one instead (the lock is always on the file at the path).
"""

from __future__ import annotations

import os
from pathlib import Path

from reverie.errors import UserError
from reverie.simulation.storage import SimStorage

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock
    fcntl = None


class SimulationInUse(UserError):
    """Another process is running this simulation."""


class SimLock:
    def __init__(self, storage: SimStorage):
        self.storage = storage
        self.path: Path = storage.lock_path
        self._fd: int | None = None

    def acquire(self) -> SimLock:
        if fcntl is None or self._fd is not None:
            return self
        self.path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
                os.close(fd)
                raise SimulationInUse(
                    f"simulation '{self.storage.sim_code}' is in use by process {holder} — "
                    "wait for it to finish or stop it, then try again"
                ) from None
            except BaseException:
                os.close(fd)
                raise
            if self._still_at_path(fd):
                break
            os.close(fd)  # its holder released and removed it between our open and our lock: again
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd = fd
        return self

    def _still_at_path(self, fd: int) -> bool:
        try:
            here = os.stat(self.path)
        except FileNotFoundError:
            return False
        mine = os.fstat(fd)
        return (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino)

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            self.path.unlink(missing_ok=True)  # still ours: removed before the lock is let go
        except OSError:
            pass
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)
