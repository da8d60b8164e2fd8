"""``python -m quatro_party.simulate``: see :mod:`quatro_party.simulate.cli`."""

import sys

from .cli import main

sys.exit(main())
