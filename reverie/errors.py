"""The one error type a user sees: a single line naming what to fix."""

from contextlib import contextmanager


class UserError(Exception):
    """Bad input from the user (config, files, names, commands).

    The command-line entry point prints ``str(error)`` on one line and exits with
    status 2; no traceback is shown.
    """

    exit_code = 2


@contextmanager
def naming(path):
    """An OSError raised inside (a write on a full disk has no file name) names ``path``."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None:
            exc.filename = str(path)
        raise


def disk_problem(exc: OSError) -> str:
    """One line for a file the run could not read or write (full disk, read-only folder...)."""
    import errno
    import shutil

    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list) and exc.args[0]:
        first = exc.args[0][0]  # copytree's (source, destination, why) for each file it could not copy
        if isinstance(first, tuple) and len(first) == 3:
            _, dst, why = first
            found = next((c for c in (why, getattr(why, "__cause__", None)) if isinstance(c, OSError)), None)
            exc = found if found is not None else OSError(None, str(why))
            exc.filename = exc.filename or dst
    where = exc.filename or "a file (the system did not say which)"
    reason = exc.strerror or str(exc) or exc.__class__.__name__
    if exc.errno == errno.ENAMETOOLONG:
        name = max(str(where).split("/"), key=len)
        return f"the name {name[:24]!r}... ({len(name)} characters) is too long for a file name — use a shorter name"
    if exc.errno == errno.ENOSPC:
        todo = "the disk is full; free some space"
    elif exc.errno == errno.EFBIG:
        todo = "the file is larger than this system allows (ulimit -f); raise the limit"
    elif exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        todo = "the folder is not writable; make it writable or set [paths] storage to a writable folder"
    elif exc.errno == errno.ENOENT:
        return f"{where}: {reason} — check the path (a simulation is named by a folder of the storage folder)"
    else:
        todo = "check the file and its folder"
    return f"{where}: {reason} — {todo}, then continue with run --resume (the last complete checkpoint is kept)"
