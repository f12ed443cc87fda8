"""`python3 stallscope-collect.pyz …` (this file is also the zipapp's own __main__.py) and
`python3 -m stallscope_collect …`.

Written to compile on any Python, so that one older than 3.8 (still the python3 of some servers)
says what it needs instead of failing on syntax in the modules.
"""

import sys

if sys.version_info < (3, 8):  # noqa: UP036 - the modules need 3.8; this file runs on any
    sys.stderr.write(
        "error: stallscope-collect needs Python 3.8 or newer; this is %d.%d (%s)\n"  # noqa: UP031 - older than f-strings
        % (sys.version_info[0], sys.version_info[1], sys.executable)
    )
    sys.exit(1)

from stallscope_collect.cli import main

sys.exit(main())
