"""``python -m domicile_p2p`` is the ``domicile`` command."""

from domicile_p2p.cli import main

raise SystemExit(main())
