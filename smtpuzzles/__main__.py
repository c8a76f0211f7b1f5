"""``python -m smtpuzzles``."""

from .cli import main

main()
