import sys

from tinyaot.cli import main

sys.exit(main())
