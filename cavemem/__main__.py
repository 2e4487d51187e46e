"""``python -m cavemem`` is the ``cavemem`` command."""

from .cli.main import main

if __name__ == "__main__":
    main()
