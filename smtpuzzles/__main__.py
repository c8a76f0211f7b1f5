"""``python -m smtpuzzles``."""

from .entry import main

main()
