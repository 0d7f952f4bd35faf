"""The one error type a user sees: a single line naming what to fix."""


class UserError(Exception):
    """Bad input from the user (config, files, names, commands).

    The command-line entry point prints ``str(error)`` on one line and exits with
    status 2; no traceback is shown.
    """

    exit_code = 2
