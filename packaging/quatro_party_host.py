"""The bundle's entry point: the host's command line (``quatro_party.launch``), as ``quatro-party`` runs it."""

import sys

from quatro_party.launch import main

if __name__ == "__main__":
    sys.exit(main())
