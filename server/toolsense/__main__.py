from toolsense.cli.app import main

raise SystemExit(main())
