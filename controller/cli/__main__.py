"""`python -m controller.cli`: the same as `showrunner-controller`."""

from controller.cli.main import main

raise SystemExit(main())
