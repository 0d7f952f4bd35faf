"""The one error type a user sees: a single line naming what to fix."""


class UserError(Exception):
    """Bad input from the user (config, files, names, commands).

    The command-line entry point prints ``str(error)`` on one line and exits with
    status 2; no traceback is shown.
    """

    exit_code = 2


def disk_problem(exc: OSError) -> str:
    """One line for a file the run could not read or write (full disk, read-only folder...)."""
    import errno

    where = exc.filename or "a file"
    if exc.errno == errno.ENOSPC:
        todo = "the disk is full; free some space"
    elif exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        todo = "the folder is not writable; make it writable or set [paths] storage to a writable folder"
    else:
        todo = "check the file and its folder"
    reason = exc.strerror or exc.__class__.__name__
    return (f"{where}: {reason} — {todo}, then continue with run --resume "
            "(the last complete checkpoint is kept)")
