"""The API contract: the OpenAPI schema of the app, as committed for the front end's generated types.

`frontend/src/api/openapi.json` is this module's output, and `frontend/src/api/schema.d.ts` is
generated from it (`npm run contract`); `scripts/contract` refreshes both, and a test fails when the
served schema and the committed one differ, so every change to the API shows in review.

    python -m stallscope.contract frontend/src/api/openapi.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from stallscope.main import create_app


def schema_text(schema: dict[str, Any]) -> str:
    """The schema as the committed file holds it: indented, in FastAPI's order, UTF-8 (µs stays µs)."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def app_schema() -> dict[str, Any]:
    return create_app().openapi()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1:
        print("usage: python -m stallscope.contract [OUTPUT.json]  (stdout without one)", file=sys.stderr)
        return 2
    text = schema_text(app_schema())
    if args:
        Path(args[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
