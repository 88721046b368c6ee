"""``python -m cpqueens``: the command line."""

from cpqueens.cli import main

raise SystemExit(main())
