"""``python -m coloretto_log``: the same as the ``coloretto-log`` command."""

from .cli import main

if __name__ == "__main__":
    main()
