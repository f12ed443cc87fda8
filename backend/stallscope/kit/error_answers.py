"""Failures answered as what they are, never as a bare 500.

- The database away: 503 with Retry-After. Every route answered 500 with no detail while the
  embedded PostgreSQL was being started again, which reads as "the console is broken" rather than
  "try again in a few seconds".
- A value the database refuses: 422.
- A validation error whose echoed input holds an unpaired surrogate (JSON can carry `\ud800`):
  FastAPI's own answer fails to encode it and turns a 422 into a 500. The same errors are sent
  here with non-ASCII escaped.
"""

from __future__ import annotations

import json
import logging

import psycopg
from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError

log = logging.getLogger(__name__)

RETRY_AFTER_S = 5
UNAVAILABLE = "the database is not answering (it may be restarting); try again in a few seconds"


def _cause(exc: Exception) -> BaseException:
    return exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc


def _answer(exc: Exception) -> JSONResponse | None:
    cause = _cause(exc)
    if isinstance(cause, psycopg.OperationalError) or (
        isinstance(exc, DBAPIError) and exc.connection_invalidated
    ):
        log.warning(
            "database unavailable: %s", str(cause).strip().splitlines()[0] if str(cause).strip() else cause
        )
        return JSONResponse(
            {"detail": UNAVAILABLE}, status_code=503, headers={"Retry-After": str(RETRY_AFTER_S)}
        )
    if isinstance(cause, psycopg.DataError):
        first = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
        return JSONResponse({"detail": f"a value could not be stored: {first}"}, status_code=422)
    return None


class AsciiJSONResponse(JSONResponse):
    """JSON with everything past ASCII escaped: any Python string encodes, lone surrogates too."""

    def render(self, content: object) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def add_error_answers(app: FastAPI) -> None:
    async def database_error(_: Request, exc: Exception) -> JSONResponse:
        answer = _answer(exc)
        if answer is None:
            raise exc
        return answer

    async def validation_error(_: Request, exc: Exception) -> JSONResponse:
        errors = exc.errors() if isinstance(exc, RequestValidationError) else [{"msg": str(exc)}]
        return AsciiJSONResponse({"detail": jsonable_encoder(errors)}, status_code=422)

    app.add_exception_handler(DBAPIError, database_error)
    app.add_exception_handler(psycopg.Error, database_error)
    app.add_exception_handler(RequestValidationError, validation_error)
