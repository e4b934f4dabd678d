from toolsense.cli import main

raise SystemExit(main())
